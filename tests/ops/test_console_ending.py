"""The console as a real program ends with its match (issue 49, item 6; test g): after the
final score it exits with code 0 when no web page is open; with one open it says that the
web table stays open until Enter, and ends on Enter or when the last page closes. Lines
typed together are each answered, and one language is kept everywhere: after ``/lang``,
the player's own name too, and after a restart of a table left in 繁體."""

from __future__ import annotations

import asyncio
import json
import queue
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import aiohttp

from bot.i18n import t

ROOT = Path(__file__).parents[2]
HANG = 60.0
"""Seconds after which the console counts as hung: a bound only a hang breaks (it exits
about 0.2 s after the final score on this machine; the issue's limit is 2 s)."""
ENDS = 20.0
"""Seconds within which the console must have ended after the final score or Enter: far
above the 0.2–0.3 s it takes, and below the 30 s an open page's heartbeat once held the
web server's shutdown (which a plain hang bound would not have caught)."""
FINAL = "Match score:"
OPEN_UNTIL_ENTER = "The web table stays open until you press Enter"
LINK = re.compile(r"Web table \(this computer only\): (http://127\.0\.0\.1:(\d+)/table#(\S+))")


class Console:
    """``python -m bot console`` with its output read line by line in a thread, so that a
    wait for a line that never comes fails after `HANG` s instead of blocking."""

    def __init__(self, db: Path, *flags: str) -> None:
        command = [sys.executable, "-m", "bot", "console", "--game", "erqiwang", "--seed", "5",
                   "--db", str(db), "--ai-delay", "0", *flags]  # fmt: skip
        self.process = subprocess.Popen(
            command,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.lines: queue.Queue[tuple[float, str | None]] = queue.Queue()
        self.seen: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put((time.monotonic(), line))
        self.lines.put((time.monotonic(), None))

    def until(self, marker: str) -> tuple[float, str]:
        """Lines up to the first holding ``marker``: (when it came, the line)."""
        deadline = time.monotonic() + HANG
        while True:
            try:
                when, line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {marker!r} in {HANG:g} s: {self.seen[-20:]}") from None
            assert line is not None, f"the console ended before {marker!r}: {self.seen[-20:]}"
            self.seen.append(line)
            if marker in line:
                return when, line

    def type(self, text: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(text)
        self.process.stdin.flush()

    def ended(self) -> tuple[int, float]:
        """(exit code, when it ended), within `HANG` s."""
        code = self.process.wait(timeout=HANG)
        assert self.process.stderr is not None
        errors = self.process.stderr.read()
        assert "Traceback" not in errors, errors
        return code, time.monotonic()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def test_the_console_exits_with_its_match_when_no_page_is_open(tmp_path: Path):
    """Before, it sat silent after the final score until a line was typed (and then did
    not answer it)."""
    console = Console(tmp_path / "c.sqlite3", "--hands", "1", "--lang", "en", "--ai", "easy")
    try:
        console.until("Your hand")
        console.type("/auto on\n")  # the table plays the hand for the player
        final, _ = console.until(FINAL)
        code, ended = console.ended()
    finally:
        console.kill()
    assert code == 0
    assert ended - final < ENDS  # measured: about 0.2 s
    assert not any(OPEN_UNTIL_ENTER in line for line in console.seen)


Page = tuple[aiohttp.ClientSession, aiohttp.ClientWebSocketResponse]


async def open_page(link: re.Match[str]) -> Page:
    """A page of the console's web table, as the browser's script opens it: the WebSocket,
    then its hello with the link's token; admitted once its first state comes."""
    session = aiohttp.ClientSession()
    socket = await session.ws_connect(f"http://127.0.0.1:{link[2]}/table/ws")
    await socket.send_str(json.dumps({"type": "hello", "auth": f"Link {link[3]}", "table": None}))
    async with asyncio.timeout(HANG):
        first = json.loads((await socket.receive()).data)
    assert first["type"] == "state", first
    return session, socket


async def test_with_a_page_open_it_says_so_and_ends_on_enter(tmp_path: Path):
    console = Console(tmp_path / "w.sqlite3", "--hands", "1", "--lang", "en", "--ai", "easy")
    try:
        _, line = console.until("Web table (this computer only)")
        link = LINK.search(line)
        assert link is not None, line
        session, socket = await open_page(link)
        try:
            console.type("/auto on\n")
            await asyncio.to_thread(console.until, FINAL)
            await asyncio.to_thread(console.until, OPEN_UNTIL_ENTER)
            assert console.process.poll() is None  # it waits for Enter
            entered = time.monotonic()
            console.type("\n")
            code, ended = await asyncio.to_thread(console.ended)
        finally:
            await socket.close()
            await session.close()
    finally:
        console.kill()
    assert code == 0
    assert ended - entered < ENDS  # measured: about 0.3 s


async def test_with_a_page_open_it_ends_when_the_last_page_closes(tmp_path: Path):
    console = Console(tmp_path / "p.sqlite3", "--hands", "1", "--lang", "en", "--ai", "easy")
    try:
        _, line = console.until("Web table (this computer only)")
        link = LINK.search(line)
        assert link is not None, line
        session, socket = await open_page(link)
        try:
            console.type("/auto on\n")
            await asyncio.to_thread(console.until, OPEN_UNTIL_ENTER)
            await socket.close()
            code, _ = await asyncio.to_thread(console.ended)
        finally:
            await session.close()
    finally:
        console.kill()
    assert code == 0


def test_lines_typed_together_are_each_answered(tmp_path: Path):
    """Two lines in one write (typed while a message was printed, or pasted): before, the
    second stayed in standard input's buffer, unread, until another line came."""
    console = Console(tmp_path / "t.sqlite3", "--lang", "en", "--no-web")
    try:
        console.until("Your hand")
        console.type("/rules\n/lang zh-Hant\n")
        console.until(t("zh-Hant", "Language set."))
        console.type("/quit\n")
        code, _ = console.ended()
    finally:
        console.kill()
    assert code == 0


def test_lang_and_a_restart_keep_one_language_and_the_players_name(tmp_path: Path):
    """After ``/lang en`` the player was still 玩家 ("Turn: 玩家"); a table left in 繁體
    printed a 简体 line when it was resumed (the console's own language came from
    ``BOT_LANG``, not from the table)."""
    db = tmp_path / "l.sqlite3"
    console = Console(db, "--no-web")  # BOT_LANG's default: 简体
    try:
        console.until(t("zh-Hans", "[table]"))
        console.type("/lang en\n/pass\n")  # the turn comes back round to the player
        console.until("Language set.")
        _, turn = console.until(" s left)")
        assert turn.strip().startswith("Turn: Player ("), turn
        console.type("/lang zh-Hant\n/quit\n")
        assert console.ended()[0] == 0
    finally:
        console.kill()

    again = Console(db, "--no-web")
    try:
        again.until(t("zh-Hant", "Table restored after a restart."))
        again.until(t("zh-Hant", "[you]"))  # the hand, shown again
        again.type("/quit\n")
        assert again.ended()[0] == 0
    finally:
        again.kill()
    printed = "".join(again.seen)
    assert t("zh-Hans", "Table restored after a restart.") not in printed
    assert not set("号轮机复") & set(printed), printed  # 號輪機復 in 繁體
    assert "玩家" in printed and "Player" not in printed  # the name in 繁體 again

"""A table served on the web: a real manager on SQLite with a fake clock, its web table on
127.0.0.1, two people seated (seat 0 and seat 1) and two AI players, driven to the moment
seat 0 must play a card."""

from __future__ import annotations

import hashlib
import hmac
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from adapters.serving import GuardedRunner
from adapters.web.auth import LinkSigner
from adapters.web.links import seat_link, table_param
from adapters.web.server import WebTable
from bot.hosting.manager import TableManager
from bot.reading.command import parse_command
from engine.situan import RANKS
from tests.bot.harness import FakeClock, Recorder

TOKEN = "123456:TEST-token-for-the-web-table"
CARD = re.compile(r"^(?:[SHCD](?:10|[2-9JQKA])|LJ|BJ)$")


def init_data(
    user_id: int,
    token: str = TOKEN,
    auth_date: float | None = None,
    start_param: str | None = None,
    first_name: str = "Ann",
    language: str = "en",
) -> str:
    """A Mini App's initData as Telegram signs it (the test's own token)."""
    fields = {
        "user": json.dumps(
            {"id": user_id, "first_name": first_name, "language_code": language},
            separators=(",", ":"),
        ),
        "auth_date": str(int(time.time() if auth_date is None else auth_date)),
        "query_id": "AAF",
    }
    if start_param is not None:
        fields["start_param"] = start_param
    checked = "\n".join(f"{k}={fields[k]}" for k in sorted(fields))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, checked.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def card_texts(value: Any) -> list[str]:
    """Every card (in its canonical text with a suit, or a joker) anywhere in a JSON value."""
    if isinstance(value, str):
        return [value] if CARD.match(value) else []
    if isinstance(value, dict):  # (the page's words name the jokers: no card there)
        return [c for k, v in value.items() if k != "words" for c in card_texts(v)]
    if isinstance(value, list):
        return [c for v in value for c in card_texts(v)]
    return []


def public_cards(hand: Any) -> Counter[str]:
    """Every card the hand has made public so far (played, shown), as texts."""
    view = hand.view(None)
    public = Counter(str(c) for c in view.known_cards())
    public.update(str(c) for c in getattr(view, "played_cards", ()))  # 二七王
    for _, combo in getattr(view, "plays", ()):  # 四团: plays by rank, a joker by its own
        if combo is not None:
            public.update(rank for r in combo.ranks if (rank := RANKS[r]) in ("LJ", "BJ"))
    return public


class World:
    def __init__(
        self,
        manager: TableManager,
        web: WebTable,
        runner: GuardedRunner,
        port: int,
        chat: str,
        users: list[str],
        clock: FakeClock,
        recorder: Recorder | None = None,
    ) -> None:
        self.manager = manager
        self.recorder = recorder or Recorder()
        """What the manager sent (the group's posts, private hands)."""
        self.web = web
        self.runner = runner
        self.port = port
        self.chat = chat
        self.users = users
        self.clock = clock
        self.base = f"http://127.0.0.1:{port}"

    @classmethod
    async def open(
        cls,
        db: Any,
        game: str,
        lang: str,
        telegram: bool,
        settings: tuple[str, ...] = (),
        **web_options: Any,
    ) -> World:
        """``settings``: the host's ``/settings`` before the start (``"max_hands 1"``)."""
        clock = FakeClock(time.time())
        recorder = Recorder()
        manager = TableManager(db, recorder, clock=clock, seeds=lambda n: 7000 + n)
        signer = LinkSigner(clock=clock, match_of=manager.match_at)
        web = WebTable(manager, signer, bot_token=TOKEN, clock=clock, **web_options)
        runner, port = await web.serve("127.0.0.1", 0)
        chat = "tg:-100777" if telegram else "console"
        users = ["tg:u501", "tg:u502"] if telegram else ["you", "bob"]
        world = cls(manager, web, runner, port, chat, users, clock, recorder)
        await world.say(users[0], f"/new {game}", lang)
        for setting in settings:
            await world.say(users[0], f"/settings {setting}")
        await world.say(users[1], "/join", lang)
        for _ in range(2):
            await world.say(users[0], "/addbot")
        await world.say(users[0], "/start")
        for user in users:
            await world.say(user, "/auto on")
        await world.drive_to_a_play()
        await world.say(users[0], "/auto off")
        return world

    async def say(self, user: str, text: str, lang: str | None = None) -> None:
        command = parse_command(text, user, user.title(), self.chat, lang=lang)
        assert command is not None
        for message in await self.manager.handle(command):
            await self.manager.send(message)

    @property
    def table(self) -> Any:
        return self.manager.tables[self.chat]

    async def drive_to_a_play(self, also: Callable[[Any], bool] = lambda hand: True) -> None:
        """Let the table play (everyone on 托管) until seat 0 is to play a card (and
        ``also(hand)``)."""
        for _ in range(2000):
            hand = self.table.hand
            if (
                hand.to_act == 0
                and any(a.act == "play" for a in hand.legal_actions(0))
                and also(hand)
            ):
                return
            await self.next_deadline()
        raise AssertionError("seat 0 never came to play")

    async def drive_to_the_end(self) -> None:
        """Let the table play (everyone on 托管) until the hand is over."""
        for _ in range(2000):
            if self.table.hand.over:
                return
            await self.next_deadline()
        raise AssertionError("the hand never ended")

    async def drive_to_the_match_end(self) -> None:
        """Let the table play (everyone on 托管) until the match is over (the table gone
        from memory)."""
        for _ in range(5000):
            if not self.manager.has_table(self.chat):
                return
            await self.next_deadline()
        raise AssertionError("the match never ended")

    async def next_deadline(self) -> None:
        self.clock.now = max(self.clock.now, self.table.deadline or self.clock.now)
        await self.manager.tick()

    def link(self, seat: int | None, user: str | None = None) -> str:
        user = user or (self.users[seat] if seat is not None else "watcher")
        return seat_link(self.base, self.web.signer, user, self.chat, seat)

    def mini_app(self, user_id: int, **kwargs: Any) -> str:
        param = table_param(self.chat)
        return f"{self.base}/table?t={param}#tgWebAppData=" + _quoted(init_data(user_id, **kwargs))

    def public_cards(self) -> Counter[str]:
        return public_cards(self.table.hand)

    async def close(self) -> None:
        await self.runner.cleanup()


def _quoted(text: str) -> str:
    from urllib.parse import quote

    return quote(text, safe="")

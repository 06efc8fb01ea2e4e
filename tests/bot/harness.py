"""A table manager on a real SQLite file, a fake clock, and a recorder of what it sends."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from bot.hosting.manager import TableManager
from bot.hosting.quick_reach import EVERYONE, Reach
from bot.hosting.table_leases import Ownership
from bot.reading.command import parse_command
from bot.table.state import Table
from bot.views.outgoing import Outgoing
from storage import Database

CHAT = "group-1"


class FakeClock:
    def __init__(self, start: float = 1_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@dataclass
class Recorder:
    sent: list[Outgoing] = field(default_factory=list)

    async def __call__(self, message: Outgoing) -> None:
        self.sent.append(message.resolved())

    def texts(self, kind: str | None = None, user: str | None = None) -> list[str]:
        return [
            m.text
            for m in self.sent
            if (kind is None or m.kind == kind) and (user is None or m.user == user)
        ]

    def clear(self) -> None:
        self.sent.clear()


class Harness:
    def __init__(
        self,
        db: Database,
        clock: FakeClock,
        seed: int = 1,
        ownership: Ownership | None = None,
        reach: Reach = EVERYONE,
    ) -> None:
        self.db = db
        self.clock = clock
        self.recorder = Recorder()
        self.manager = TableManager(
            db,
            self.recorder,
            clock=clock,
            ownership=ownership,
            seeds=lambda number: seed * 1000 + number,
            reach=reach,
        )
        self.seen: dict[str, Table] = {}
        """The last table of each chat seen here: a closed table leaves the manager at once,
        and a test looks at how it ended."""

    @classmethod
    async def open(cls, path: str, clock: FakeClock | None = None, seed: int = 1) -> Harness:
        return cls(await Database.open(path), clock or FakeClock(), seed)

    async def say(
        self, user: str, text: str, chat: str = CHAT, private: bool = False, lang: str | None = None
    ) -> list[Outgoing]:
        before = len(self.recorder.sent)
        command = parse_command(text, user, user.title(), chat, private, lang)
        assert command is not None
        await self.deliver(command)
        return self.recorder.sent[before:]

    async def deliver(self, command) -> None:
        """Handle a command and send what it answers, as an adapter does."""
        self.seen.update(self.manager.tables)
        for message in await self.manager.handle(command):
            await self.recorder(message)

    async def run_until(self, condition, limit: int = 20000) -> None:
        """Advance the clock to each deadline and let the tables act, until ``condition()``."""
        for _ in range(limit):
            if condition():
                return
            table = self.manager.tables.get(CHAT)
            if table is not None and table.deadline is not None:
                self.clock.now = max(self.clock.now, table.deadline)
            self.seen.update(self.manager.tables)
            await self.manager.tick()
            await self.manager.thinking.settle()  # a hard AI decides in a worker thread
        raise AssertionError("condition never became true")

    def table(self, chat: str = CHAT) -> Table:
        """The chat's table: the open one, else the last one seen (closed since)."""
        table = self.manager.tables.get(chat)
        return table if table is not None else self.seen[chat]


async def table_with_three_bots(
    path: str, clock: FakeClock, game: str = "situan", lang: str | None = None
) -> Harness:
    """Ann opens a table, adds three AI players and starts; the bots play until Ann's turn."""
    harness = await Harness.open(path, clock, seed=4)
    await harness.say("ann", f"/new {game}", lang=lang)
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    await until_seat_zero_acts(harness)
    return harness


async def start_ai_match(harness: Harness, game: str, *settings: str, on_auto: bool = True) -> None:
    """Ann opens a one-hand match of ``game`` (in English) with ``settings`` besides
    (``"ai_delay 0.5"``), seats three AI players and starts; then, ``on_auto``, goes on 托管."""
    await harness.say("ann", f"/new {game}", lang="en")
    for setting in ("max_hands 1", *settings):
        await harness.say("ann", f"/settings {setting}")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    if on_auto:
        await harness.say("ann", "/auto on")


async def until_seat_zero_acts(harness: Harness) -> None:
    table = harness.table()
    while table.hand.to_act != 0:
        harness.clock.now = max(harness.clock.now, table.deadline)
        await harness.manager.tick()


def latest_hand_message(harness: Harness, user: str) -> Outgoing:
    return [
        m for m in harness.recorder.sent if (m.slot or "").startswith("hand") and m.user == user
    ][-1]


async def press(
    harness: Harness, user: str, message: Outgoing, command: str, chat: str = CHAT
) -> list[Outgoing]:
    """Press the button of ``message`` that sends ``command`` (it must be there)."""
    buttons = [b for row in message.buttons for b in row if b.command == command]
    assert buttons, f"no button {command!r} in {[b.command for r in message.buttons for b in r]}"
    before = len(harness.recorder.sent)
    parsed = parse_command(buttons[0].command, user, user.title(), chat, message.kind != "group")
    assert parsed is not None
    await harness.deliver(replace(parsed, stamp=buttons[0].stamp))
    return harness.recorder.sent[before:]

"""Fuzzing the host: random, stale, forged and garbage commands and button presses from
random users in many chats, through one TableManager on a real SQLite file with a fake clock.

Run: ``python bench/fuzz_host.py [--commands 100000] [--seed 1]``

Counts what must stay zero — exceptions escaping the manager, refused inputs that changed a
table, private cards in group output, tables whose stored state differs from the live one
after a restart — and how many inputs were refused. The CI test runs the same with fewer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sys
import tempfile
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.commands.registry import NAMES as COMMANDS
from bot.hosting.manager import TableManager
from bot.reading.command import Command
from bot.table.snapshot import table_snapshot
from bot.views.outgoing import Kind, Outgoing
from storage import Database

CHATS = [f"g{n}" for n in range(6)]
USERS = [f"u{n}" for n in range(10)]
WORDS = ["", "0", "1", "3", "4", "²", "-1", "9" * 60, "1e9", "nan", "inf", "on", "off", "maybe",
         "开", "S10", "♥10♠10", "LJ", "BJ", "7777", "10 10", "H", "none", "me", "partner", "situan",
         "erqiwang", "online", "one_deck", "spade3", "75", "80", "120", "125", "73", "S3 S4",
         "ai_delay", "stake", "turn_seconds", "bid_step", "1/2", "０", "x" * 300]  # fmt: skip
NAMES = [*sorted(COMMANDS), "blah", "", "NEW", "play@other"]
TABLE_CHOICES = ["@1", "@2", "@3", "#1", "@g", "@", "@" + "x" * 60, "@²", "@0", "@999999"]
"""How a player at several tables names one in a private command (and garbage like it)."""
TITLES = [None, "Family", "家里", "", "  spaced   out ", "x" * 300, "@everyone"]
"""Group names as the platform reports them with a command."""
SUIT_CARD = re.compile(r"[♠♥♣♦](?:10|[2-9JQKA])")


@dataclass
class Report:
    commands: int = 0
    refused: int = 0
    escaped: int = 0
    refused_changes: int = 0
    private_leaks: int = 0
    restore_mismatches: int = 0
    hands_dealt: int = 0
    actions_stored: int = 0
    notes: list[str] = field(default_factory=list)


class FakeClock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def state_of(manager: TableManager, chat: str, timer: bool = True) -> str:
    """A table as stored, and its hand's length (``timer``: with its deadline, which a
    restart moves on by design)."""
    table = manager.tables.get(chat)
    if table is None:
        return "none"
    snapshot = table_snapshot(table)
    snapshot.pop("saved_at")
    if not timer:
        snapshot.pop("deadline")
    history = len(table.hand.history) if table.hand is not None else -1
    return json.dumps(snapshot, sort_keys=True, default=str) + f"|{history}"


def random_command(rng: random.Random, manager: TableManager) -> Command:
    chat = rng.choice(CHATS)
    user = rng.choice(USERS)
    name = rng.choice(NAMES)
    args = tuple(rng.choice(WORDS) for _ in range(rng.choice((0, 0, 1, 1, 2, 3))))
    private = rng.random() < 0.2
    title = None
    if private and rng.random() < 0.5:  # typed to the bot: the host picks one of their tables
        chat = f"dm-{user}"
        if rng.random() < 0.5:
            args = (rng.choice(TABLE_CHOICES), *args)
    elif not private:
        title = rng.choice(TITLES)
    table = manager.tables.get(chat)
    stamp = None
    if rng.random() < 0.3:
        tag = table.tag if table is not None else "zz"
        number = table.hand_number if table is not None else 0
        turn = table.turn_count if table is not None else 0
        stamp = rng.choice(
            [
                f"{tag}.{number}.{turn}",
                f"{tag}.{number}",
                f"{tag}.{number}.{turn - 1}",
                f"{tag}.{number - 1}.{turn}",
                "x.²",
                "garbage",
                f"{tag}.{'9' * 40}",
                "",
            ]
        )
    return Command(
        name,
        args,
        user,
        user.title(),
        chat,
        private,
        rng.choice([None, "en", "zh-CN"]),
        stamp,
        admin=rng.random() < 0.05,
        chat_title=title,
    )


def legal_command(rng: random.Random, manager: TableManager) -> Command | None:
    """A command a seated player could really give: keeps hands moving."""
    chat = rng.choice(CHATS)
    table = manager.tables.get(chat)
    if table is not None and table.state == "between":  # ready (Continue, where it paused)
        people = [s for s in table.seats if s is not None and s.user is not None]
        if people:
            person = rng.choice(people)
            return Command("ready", (), person.user or "", person.name, chat)
    if table is None or table.hand is None or table.hand.over:
        return None
    seat = table.hand.to_act
    if seat is None:
        return None
    occupant = table.seats[seat]
    if occupant is None or occupant.user is None:
        return None
    suggestions = table.front.suggestions(table.hand, seat)
    if suggestions and rng.random() < 0.7:
        return Command(
            "play", tuple(rng.choice(suggestions).split()), occupant.user, occupant.name, chat
        )
    return Command(
        rng.choice(["pass", "bid", "trump", "auto"]),
        (rng.choice(WORDS),),
        occupant.user,
        occupant.name,
        chat,
    )


async def fuzz(db_path: str, commands: int, seed: int) -> Report:
    rng = random.Random(seed)
    report = Report()
    clock = FakeClock()
    group_texts: list[tuple[str, str, int | None]] = []
    """Each group post, with the players whose hand was public in its chat then (亮牌)."""
    private_hands: dict[str, tuple[str, str, int | None]] = {}

    async def send(message: Outgoing) -> None:
        record(message.resolved())

    last_shown: dict[str, tuple[int, int]] = {}
    """Per table, the hand number and seat of its last 四团 show (亮牌)."""

    def shown_seat(chat: str) -> int | None:
        """The seat whose hand a 四团 show (亮牌) has made public at this table: the table
        prints it by rule, which is no leak — whoever sits there now (a player who left
        handed their cards to a stand-in), and in the posts that end the hand too (the table
        may be closed by then)."""
        table = manager.tables.get(chat)
        if table is None:  # closed by this step: its last post shows the hand it stopped in
            return last_shown.get(chat, (-1, None))[1]
        shown = getattr(table.hand, "revealed", None)
        if isinstance(shown, int):
            last_shown[chat] = (table.hand_number, shown)
        number, seat = last_shown.get(chat, (-1, -1))
        return seat if number == table.hand_number else None

    def record(message: Outgoing) -> None:
        if message.kind in ("group", "table"):
            group_texts.append((message.text, message.chat, shown_seat(message.chat)))
        elif message.kind == Kind.PRIVATE and message.user is not None and "：" in message.text:
            table = manager.tables.get(message.chat)
            seat = None if table is None else table.seat_of(message.user)
            private_hands[message.user] = (message.text.split("\n")[0], message.chat, seat)

    db = await Database.open(db_path)
    manager = TableManager(
        db, send, clock=clock, seeds=lambda n: seed * 7919 + n, flood_burst=10_000
    )
    for chat in CHATS:  # tables to aim at: some with people, some with AI players
        # The last two are AI players' tables opened so on purpose (the opener leaves, as
        # the console's --humans 0 does): they alone deal on by themselves.
        unattended = CHATS.index(chat) >= len(CHATS) - 2
        seating = ("leave", *["addbot"] * 4) if unattended else ("join", "addbot", "addbot")
        for text in ("new", *seating, "start"):
            args = (rng.choice(["situan", "erqiwang"]),) if text == "new" else ()
            user = USERS[CHATS.index(chat) % len(USERS)] if text in ("new",) else USERS[0]
            command = Command(text, args, user if text != "join" else USERS[1], "P", chat)
            for message in await manager.handle(
                replace(command, user=USERS[0]) if text != "join" else command
            ):
                record(message)
            if text == "new":  # a table left to its AI players closes after idle_minutes;
                # the fuzz's clock leaps days, and its tables are to stay open to be fuzzed
                await manager.handle(
                    Command("settings", ("idle_minutes", "1440"), USERS[0], "P", chat)
                )
        await manager.handle(Command("join", (), USERS[2], "P", chat))
        await manager.handle(Command("start", (), USERS[0], "P", chat))
    for _ in range(commands):
        report.commands += 1
        command = legal_command(rng, manager) if rng.random() < 0.4 else None
        if command is None:
            command = random_command(rng, manager)
        # A private command may act at any of the user's tables: watch them all.
        watched = CHATS if command.chat.startswith("dm-") else [command.chat]
        before = [state_of(manager, chat) for chat in watched]
        try:
            out = await manager.handle(command)
        except Exception as error:  # the thing that must never happen
            report.escaped += 1
            report.notes.append(f"{command}: {error!r}")
            continue
        for message in out:
            record(message.resolved())
        refused = bool(out) and all(m.kind == Kind.REPLY for m in out) and command.name != "lang"
        if refused or not out:
            report.refused += refused
            if command.name not in ("lang", "pick", "clear", "hand") and (
                [state_of(manager, chat) for chat in watched] != before
            ):
                report.refused_changes += 1
                report.notes.append(f"refused but changed: {command}")
        if rng.random() < 0.3:
            clock.now += rng.choice([0.5, 1, 5, 30, 61, 700])
            try:
                await manager.tick()
            except Exception as error:
                report.escaped += 1
                report.notes.append(f"tick: {error!r}")
    for text, chat, shown in group_texts:
        for user, (line, hand_chat, seat) in private_hands.items():
            cards = line.split("：", 1)[-1].strip()
            revealed = hand_chat == chat and shown is not None and seat == shown
            if len(cards) > 12 and cards in text and not revealed:
                report.private_leaks += 1
                report.notes.append(f"{user}'s hand in a group message")
    live = {chat: state_of(manager, chat, timer=False) for chat in manager.tables}
    for chat in CHATS:
        hands = await db.hands_of(chat)
        report.hands_dealt += len(hands)
        report.actions_stored += sum(len(h.actions) for h in hands)
    await db.close()
    db = await Database.open(db_path)  # a restart: the stored state is the live one
    restarted = TableManager(db, send, clock=clock, seeds=lambda n: seed * 7919 + n)
    await restarted.restore()
    for chat, state in live.items():
        table = manager.tables[chat]
        if table.state == "closed":
            continue
        if state_of(restarted, chat, timer=False) != state:
            report.restore_mismatches += 1
            report.notes.append(
                f"{chat} differs after a restart: {state[:300]} / "
                f"{state_of(restarted, chat, timer=False)[:300]}"
            )
    await db.close()
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    folder = tempfile.mkdtemp()
    started = time.perf_counter()
    report = asyncio.run(fuzz(str(Path(folder) / "fuzz.sqlite3"), args.commands, args.seed))
    elapsed = time.perf_counter() - started
    print(f"{report.commands:,} inputs in {elapsed:.1f} s ({report.commands / elapsed:,.0f}/s)")
    print(
        f"refused: {report.refused:,}; hands dealt: {report.hands_dealt}; "
        f"actions stored: {report.actions_stored:,}"
    )
    print(
        f"exceptions escaping: {report.escaped}; refused inputs that changed a table: "
        f"{report.refused_changes}; private cards in group output: {report.private_leaks}; "
        f"tables differing after a restart: {report.restore_mismatches}"
    )
    for note in report.notes[:10]:
        print("  ", note)


if __name__ == "__main__":
    main()

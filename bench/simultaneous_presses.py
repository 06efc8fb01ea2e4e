"""Simultaneous presses: the same move pressed at once, several ways, round after round.

Run: ``python bench/simultaneous_presses.py [--rounds 10000] [--seed 1]``

Four people sit at a table (四团 and 二七王 in turn) of one TableManager on a real SQLite
file. Each round, the player to act presses one move button of their private hand three ways
at the same moment: a double tap (two updates carrying the button's stamp), and one of those
updates delivered a second time (the same update id, as Telegram re-sends a webhook post).
The three run concurrently; exactly one may be applied. Counts what must stay zero: rounds
that stored more than one action, and copies not told apart as copies.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.commands.registry import MOVES
from bot.hosting.manager import TableManager
from bot.reading.command import Command, Delivery, parse_command
from bot.views.outgoing import Outgoing
from storage import Database

CHAT = "group"
PEOPLE = ("ann", "bob", "cat", "dan")
GAMES = ("situan", "erqiwang")
CHOOSING = frozenset({"pick", "clear"})
"""Buttons that choose cards before a move (a count of a rank, a card): they store nothing."""


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class Bench:
    def __init__(self, manager: TableManager, clock: Clock, rng: random.Random) -> None:
        self.manager = manager
        self.clock = clock
        self.rng = rng
        self.hands: dict[str, Outgoing] = {}
        """Each person's latest private hand message (its buttons carry their stamps)."""
        self.updates = iter(range(1, 10**9))
        self.rounds = self.applied_twice = self.copies_let_through = self.none_applied = 0
        self.stored = 0
        manager.keeper.committed = self.count_stored

    def count_stored(self, actions: int) -> None:
        self.stored = actions  # the running count of actions committed

    async def send(self, message: Outgoing) -> None:
        if message.user is not None and (message.slot or "").startswith("hand"):
            self.hands[message.user] = message.resolved()

    async def say(self, user: str, text: str) -> None:
        command = parse_command(text, user, user.title(), CHAT, lang="en")
        assert command is not None
        for message in await self.manager.handle(command):
            await self.send(message)

    async def open_table(self, game: str) -> None:
        await self.say(PEOPLE[0], f"/new {game}")
        for person in PEOPLE[1:]:
            await self.say(person, "/join")
        await self.say(PEOPLE[0], "/start")

    def move_buttons(self) -> tuple[str, list[Command]] | None:
        """The person to act and their hand's stamped move buttons (choosing ones too)."""
        table = self.manager.tables.get(CHAT)
        if table is None or table.hand is None or table.hand.over or table.hand.to_act is None:
            return None
        sitting = table.seats[table.hand.to_act]
        person = sitting.user if sitting is not None else None
        message = self.hands.get(person or "")
        if person is None or message is None:
            return None
        presses = []
        for row in message.buttons:
            for button in row:
                parsed = parse_command(button.command, person, person.title(), CHAT, True)
                if parsed is not None and parsed.name in MOVES and button.stamp:
                    presses.append(replace(parsed, stamp=button.stamp))
        return (person, presses) if presses else None

    async def round(self) -> bool:
        """One round of three presses at once; False when no move button is there."""
        for _ in range(8):  # choose cards by button first where the move needs them
            found = self.move_buttons()
            if found is None:
                return False
            _, presses = found
            moves = [p for p in presses if p.name not in CHOOSING]
            if moves:
                break
            for message in await self.manager.handle(self.rng.choice(presses)):
                await self.send(message)
        else:
            return False
        press = self.rng.choice(moves)
        tap = replace(press, delivery=Delivery("telegram:1", str(next(self.updates))))
        double_tap = replace(press, delivery=Delivery("telegram:1", str(next(self.updates))))
        before = self.stored
        dropped_before = self.manager.duplicates
        answers = await asyncio.gather(
            self.manager.handle_delivered(tap),
            self.manager.handle_delivered(double_tap),
            self.manager.handle_delivered(tap),  # the same update, delivered again
        )
        for each in answers:
            for message in each or []:
                await self.send(message)
        moves = self.stored - before  # no AI seat acts: four people sit
        self.rounds += 1
        if moves > 1:
            self.applied_twice += 1
        if moves == 0:
            self.none_applied += 1
        if self.manager.duplicates - dropped_before != 1:
            self.copies_let_through += 1
        return True


async def run(rounds: int, seed: int) -> Bench:
    with tempfile.TemporaryDirectory() as folder:
        db = await Database.open(str(Path(folder) / "presses.sqlite3"))
        clock = Clock()
        rng = random.Random(seed)
        sent: list[Outgoing] = []

        async def collect(message: Outgoing) -> None:
            sent.append(message)  # a timer's step (a time-out); the bench reads them below

        manager = TableManager(
            db, collect, clock=clock, seeds=lambda n: seed * 1000 + n, flood_burst=10**9
        )
        bench = Bench(manager, clock, rng)
        try:
            games = 0
            while bench.rounds < rounds:
                game = GAMES[games % len(GAMES)]
                games += 1
                await bench.open_table(game)
                idle = 0
                while bench.rounds < rounds and CHAT in manager.tables and idle < 50:
                    if await bench.round():
                        idle = 0
                        continue
                    idle += 1  # between hands, or a decision with no button: let time pass
                    table = manager.tables.get(CHAT)
                    if table is not None and table.deadline is not None:
                        clock.now = max(clock.now, table.deadline)
                    await manager.tick()
                    await manager.thinking.settle()
                    for message in sent:
                        await bench.send(message)
                    sent.clear()
                if CHAT in manager.tables:
                    await bench.say(PEOPLE[0], "/stop")
                    await bench.say(PEOPLE[0], "/stop")
        finally:
            await db.close()
    return bench


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    bench = asyncio.run(run(args.rounds, args.seed))
    seconds = time.perf_counter() - started
    print(f"{bench.rounds:,} rounds of three simultaneous presses in {seconds:.1f} s")
    print(
        f"rounds that applied a press twice: {bench.applied_twice}; "
        f"rounds that applied none: {bench.none_applied}; "
        f"re-delivered copies not dropped: {bench.copies_let_through}"
    )


if __name__ == "__main__":
    main()

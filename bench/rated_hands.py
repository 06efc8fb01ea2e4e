"""Ratings after many rated hands, played through the host (issue 54: "/rating and /top
rating after 200 simulated hands").

Run: ``python bench/rated_hands.py [--hands 200] [--db FILE]``

Eight people (Ann … Hal) play rated one-hand matches in a few groups, half 四团 and half 二七王,
on a real SQLite file, through `bot.hosting.manager.TableManager` with a clock that jumps to
each deadline (no waiting). In each hand two of them, drawn at random, sit at seats 1 and 2
(opponents), and seats 3 and 4 are ``normal`` AI players. A person plays by typed commands
(``/play S7 H7``, ``/bid 80``, ``/trump H`` …) — what an engine AI player of their level would
do from their seat's view: Ann and Bob ``hard``, Cid … Fay ``normal``, Gus and Hal ``easy`` —
so the ratings should sort them so, as a real population's follow skill. Every hand is rated
by the bot's own path (`rated` on, set by an administrator; `bot.table.rated_hands`). The
output is what the people would read: Ann's ``/rating`` and ``/top rating`` of each game in
English and 简体, and ``/top rating week``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.hosting.manager import TableManager
from bot.reading.command import parse_command
from bot.views.outgoing import Outgoing
from engine.actions import Action
from engine.ai import player
from storage import Database

PEOPLE = {"ann": "hard", "bob": "hard", "cid": "normal", "dee": "normal", "eve": "normal",
          "fay": "normal", "gus": "easy", "hal": "easy"}  # fmt: skip
START = 1_000_000.0
COUNTS: Counter[str] = Counter()
"""The people's moves: typed, refused (then 托管 played them), not typed (托管)."""


class Clock:
    """Time that moves only when told (to the table's next deadline)."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


async def quiet(message: Outgoing) -> None:
    """Posts go nowhere: the bench reads only the answers it asks for."""


async def say(
    manager: TableManager, user: str, text: str, chat: str, lang: str = "en", admin: bool = False
) -> list[str]:
    private = not chat.startswith("group")
    command = parse_command(text, user, user.title(), chat, private, lang)
    assert command is not None, text
    out = await manager.handle(replace(command, admin=admin))
    return [message.resolved().text for message in out]


COMMANDS = {
    "play": "/play",
    "pass": "/pass",
    "bid": "/bid",
    "trump": "/trump",
    "bury": "/bury",
    "surrender": "/surrender",
    "declare_bonus": "/bonus",
    "show_start": "/show",
}
"""The typed command of each kind of action a person here makes (others: 托管 plays it)."""


def typed(action: Action) -> str | None:
    """What a person types for ``action`` (None: a move this bench does not type)."""
    raw = action.to_json()
    command = COMMANDS.get(raw["act"])
    if command is None:
        return None
    words = [*raw.get("cards", ()), str(raw.get("points", "")), str(raw.get("suit", ""))]
    return " ".join([command, *[word for word in words if word]])


async def play_hand(
    manager: TableManager, clock: Clock, chat: str, game: str, pair: list[str], seed: int
) -> None:
    first, second = pair
    await say(manager, first, f"/new {game}", chat)
    await say(manager, first, "/settings max_hands 1", chat)
    await say(manager, first, "/settings rated on", chat, admin=True)
    await say(manager, second, "/join", chat)
    await say(manager, first, "/addbot normal", chat)
    await say(manager, first, "/addbot normal", chat)
    await say(manager, first, "/start", chat)
    minds = {person: player(game, PEOPLE[person], seed=seed + n) for n, person in enumerate(pair)}
    for _ in range(50_000):
        table = manager.tables.get(chat)
        if table is None or not table.is_open():
            return
        seat, hand = table.turn_seat, table.hand
        occupant = table.seats[seat] if seat is not None else None
        if hand is not None and occupant is not None and occupant.user in minds:
            view, legal = hand.view(seat), hand.legal_actions(seat)
            text = typed(minds[occupant.user].decide(view, legal))
            moves = table.turn_count
            await say(manager, occupant.user, text or "/auto on", chat)
            COUNTS["typed" if text is not None else "untyped"] += 1
            if text is not None and table.turn_count == moves:  # refused: 托管 plays it
                COUNTS["refused"] += 1
                await say(manager, occupant.user, "/auto on", chat)
            continue
        if table.deadline is not None:
            clock.now = max(clock.now, table.deadline)
        await manager.tick()
        await manager.thinking.settle()
    raise AssertionError(f"the hand at {chat} never ended")


async def run(hands: int, path: str) -> None:
    clock = Clock()
    db = await Database.open(path)
    manager = TableManager(db, quiet, clock=clock, seeds=lambda number: number)
    draw = random.Random(54)
    try:
        for number in range(hands):
            game = ("situan", "erqiwang")[number % 2]
            pair = draw.sample(sorted(PEOPLE), 2)
            await play_hand(manager, clock, f"group-{number % 4}", game, pair, number)
            clock.now += 60
        for lang in ("en", "zh-Hans"):
            asked = ("/rating", "/top rating situan", "/top rating erqiwang", "/top rating week")
            for text in asked:
                print(f"> Ann: {text}  ({lang})")
                for said in await say(manager, "ann", text, "dm-ann", lang):
                    print("  " + said.replace("\n", "\n  "))
        print(f"people's moves: {dict(COUNTS)}")
    finally:
        await db.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--db", default="", help="the SQLite file (default: a new one)")
    args = parser.parse_args(argv)
    path = args.db or str(Path(tempfile.mkdtemp()) / "rated.sqlite3")
    asyncio.run(run(args.hands, path))


if __name__ == "__main__":
    main()

"""Picture render times: hands of both games and settlements, drawn (not cached).

Run: ``python bench/pictures.py [-n 100] [--out DIR]``

Every picture comes from a real hand: dealt by the engine from a seed, played out by the
``normal`` AI, and described by the game's front (`bot.games`) as the host describes it, so
the cards, combinations, points and amounts are true. Each timed hand is a different deal, so
every render is a cache miss; the cached figure is the same picture asked for again.
``--out DIR`` also writes sample pictures of both games for review.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import front_of
from bot.games.pictured import face
from bot.i18n import t
from bot.pictures import (
    CardFace,
    HandPicture,
    Play,
    SettlementPicture,
    SettlementRow,
    TablePicture,
    render_hand,
    render_settlement,
    render_table,
)
from bot.views.shared_texts import SUIT_NAMES
from engine import game_of
from engine.ai import player
from engine.erqiwang.events import TrickWon, TrumpNamed
from engine.erqiwang.phases import Phase
from engine.situan.combos import RANKS
from engine.situan.events import RoundWon

LANG = "zh-Hans"
NAMES = ("Sam 🐉", "Алексей", "王小明", "Emma 👍🏽")
"""Seat names as players choose them: emoji and other scripts included."""

Picture = TypeVar("Picture", HandPicture, SettlementPicture)


@dataclass
class PlayedHand:
    """A hand played to its end: every event, and the result."""

    game: str
    events: list[Any]
    result: Any


def play_out(game_name: str, seed: int) -> PlayedHand:
    """Deal from ``seed`` and let four ``normal`` AI players finish the hand."""
    game = game_of(game_name)
    hand = game.deal(game.rules(), seed=seed)
    players = [player(game_name, "normal", seed=seed * 4 + seat) for seat in range(4)]
    events: list[Any] = []
    while not hand.over:
        seat = hand.to_act
        action = players[seat].decide(hand.view(seat), hand.legal_actions(seat))
        events.extend(hand.apply(action))
    return PlayedHand(game_name, events, hand.result)


def situan_hand(seed: int) -> HandPicture:
    """A seat's 四团 hand as dealt, as its front describes it."""
    game = game_of("situan")
    view = game.deal(game.rules(), seed=seed).view(0)
    return front_of("situan").hand_picture(LANG, view, NAMES[0], 1)


def erqiwang_declarer_hand(seed: int) -> HandPicture:
    """The 二七王 declarer's hand with the bottom taken (33 cards), trump named, as its front
    describes it: bidding and naming trump played by the AI."""
    game = game_of("erqiwang")
    players = [player("erqiwang", "normal", seed=seat) for seat in range(4)]
    for deal_seed in itertools.count(seed * 1000):  # the next deal whose auction has a winner
        hand = game.deal(game.rules(), seed=deal_seed)
        while hand.to_act is not None and hand.view(hand.to_act).phase != Phase.BURY:
            seat = hand.to_act
            hand.apply(players[seat].decide(hand.view(seat), hand.legal_actions(seat)))
        if hand.to_act is not None:  # everyone passed: the cards would be dealt again
            seat = hand.to_act
            return front_of("erqiwang").hand_picture(LANG, hand.view(seat), NAMES[seat], 1)
    raise AssertionError("unreachable: itertools.count never ends")


def settlement(played: PlayedHand) -> SettlementPicture:
    """The hand's settlement as the host describes it after a first hand at stake 1."""
    totals = list(played.result.total)
    return front_of(played.game).settlement_picture(LANG, played.result, NAMES, totals, totals, 1)


def situan_round(played: PlayedHand) -> TablePicture:
    """The round that took the most points, as the table saw it (the fronts build no table
    picture yet, so this one is built here from the round's own event)."""
    rounds = [event for event in played.events if isinstance(event, RoundWon)]
    best = max(rounds, key=lambda event: (event.points, len(event.plays)))
    team_points = [0, 0]
    for event in rounds[: rounds.index(best) + 1]:
        team_points[event.seat % 2] += event.points
    # The round is won by its last play; the passes after it close the round.
    winning = max(index for index, (_, combo) in enumerate(best.plays) if combo is not None)
    plays = tuple(
        Play(
            NAMES[seat],
            tuple(CardFace(RANKS[rank]) for rank in combo.ranks) if combo else (),
            won=index == winning,
        )
        for index, (seat, combo) in enumerate(best.plays)
    )
    assert best.plays[winning][0] == best.seat
    headers = (t(LANG, "Points: team A {a} · team B {b}", a=team_points[0], b=team_points[1]),)
    title = t(LANG, "四团 · hand {number}", number=1)
    return TablePicture(
        "by_rank", title, plays, headers, points=best.points, pass_label=t(LANG, "pass")
    )


def erqiwang_trick(played: PlayedHand) -> TablePicture:
    """The trick that took the most points, as the table saw it."""
    tricks = [event for event in played.events if isinstance(event, TrickWon)]
    best = max(tricks, key=lambda event: event.points)
    defenders = sum(
        event.points for event in tricks[: tricks.index(best) + 1] if event.by_defenders
    )
    plays = tuple(
        Play(NAMES[seat], tuple(face(card) for card in cards), won=seat == best.seat)
        for seat, cards in best.plays
    )
    trump = last_trump(played)
    headers = (
        f"{t(LANG, 'trump')} {trump}",
        t(LANG, "Defenders' points: {points}", points=defenders),
    )
    title = t(LANG, "二七王 · hand {number}", number=1)
    return TablePicture("as_held", title, plays, headers, points=best.points)


def last_trump(played: PlayedHand) -> str:
    named = [event for event in played.events if isinstance(event, TrumpNamed)]
    if not named or named[-1].suit is None:
        return t(LANG, "no trump")
    return SUIT_NAMES[named[-1].suit]


def settlement_variant(base: SettlementPicture, number: int) -> SettlementPicture:
    """``base`` with the match totals moved on by ``number``: a different picture each time."""
    rows = tuple(
        SettlementRow(
            row.player,
            row.result,
            row.hand_total,
            row.match_total + Fraction(number),
            row.bonus,
            row.winner,
        )
        for row in base.rows
    )
    return SettlementPicture(f"{base.title} #{number}", rows, base.headings, base.footer)


def timed(render: Callable[[Picture], bytes], picture: Picture) -> float:
    started = time.perf_counter()
    render(picture)
    return (time.perf_counter() - started) * 1000


def summary(name: str, times: Sequence[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{name:<28} median {statistics.median(ordered):7.2f} ms   p99 {p99:7.2f} ms"


def write_samples(out: Path, situan: PlayedHand, erqiwang: PlayedHand) -> None:
    out.mkdir(parents=True, exist_ok=True)
    pictures = {
        "hand-situan.png": render_hand(situan_hand(1)),
        "hand-erqiwang-33.png": render_hand(erqiwang_declarer_hand(1)),
        "table-situan.png": render_table(situan_round(situan)),
        "table-erqiwang.png": render_table(erqiwang_trick(erqiwang)),
        "settlement-situan.png": render_settlement(settlement(situan)),
        "settlement-erqiwang.png": render_settlement(settlement(erqiwang)),
    }
    for name, png in pictures.items():
        (out / name).write_bytes(png)
        print(f"wrote {out / name} ({len(png) // 1024} kB)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=100, help="pictures of each kind (default 100)")
    parser.add_argument("--out", type=Path, help="also write sample pictures into this folder")
    arguments = parser.parse_args()
    count = arguments.n
    situan, erqiwang = play_out("situan", 1), play_out("erqiwang", 1)
    render_hand(situan_hand(-1))  # load fonts and card sprites before timing
    render_hand(erqiwang_declarer_hand(-1))
    situan_hands = [situan_hand(seed) for seed in range(count)]
    erqiwang_hands = [erqiwang_declarer_hand(seed) for seed in range(count)]
    base = settlement(situan)
    print(f"{count} pictures of each kind, each drawn afresh (cache misses):")
    rows = [
        ("hand 四团 (dealt)", [timed(render_hand, picture) for picture in situan_hands]),
        ("hand 二七王 (33 cards)", [timed(render_hand, picture) for picture in erqiwang_hands]),
        (
            "settlement",
            [timed(render_settlement, settlement_variant(base, s)) for s in range(count)],
        ),
        ("hand again (cache hit)", [timed(render_hand, situan_hands[0]) for _ in range(count)]),
    ]
    for name, times in rows:
        print(summary(name, times))
    if arguments.out:
        write_samples(arguments.out, situan, erqiwang)


if __name__ == "__main__":
    main()

"""AI strength on duplicate deals: every deal is played twice so that luck cancels.

Run: ``python bench/ai_strength.py [--game situan|erqiwang|both] [--deals 2000]
[--first-deal 0] [--pairings hard-normal,normal-easy,normal-tuoguan] [--budget S]
[--playouts N] [--extension X] [--sides both|declarer|defenders] [--bidding 1000]
[--whole 0] [--daring OPENING,UNDER]``

- 四团: level X sits at seats 0 & 2 and Y at 1 & 3, then the same deal again with the teams'
  seats swapped. The figure is X's team win rate over decided hands (carried-over hands have
  no winner), with a 95% interval (normal approximation over hands).
- 二七王: a ``normal`` auction (with ``first_must_bid`` so every deal is played) fixes the
  declarer and the bid; then the deal is played with X declaring against Y defenders and
  with Y declaring against the same Y defenders (declarer win rates, and their difference),
  and with Y declaring against X defenders and against Y defenders (the Y declarer's win
  rates). ``tuoguan`` is the engine's ``Timeout`` for the seat. Each gain is a paired
  difference over deals, with its 95% interval. ``--sides`` plays only one of the two.
- ``--playouts N``: ``hard`` searches N sampled deals a decision whatever the time (the same
  result on any machine and under any load: for comparing two versions on the same deals).
- ``--extension X``: the further budgets a contested ``hard`` decision may run for, in place
  of the game's own (`engine.ai.search_decision.Search.extension`): for trying other values.
- ``--bidding N``: N deals of four ``normal`` players bidding freely: redeals, distinct
  winning bids, and the declarer's win rate per bid band.
- ``--whole N`` (二七王): whole hands, the auction included, under the real preset (a deal
  everyone passes is void and scores 0). Each of N deals is played with all four seats Y,
  then with X in one seat and Y in the other three, for each seat in turn. The figure is X's
  settlement in that seat minus Y's in the same seat on the same deal (units per hand, paired,
  with a 95% interval): what taking X's seat instead of Y's is worth, bidding and play.
- A level ``hard@KIND+KIND…`` (二七王; kinds ``bid``, ``trump``, ``bury``, ``lead``,
  ``follow``) searches only decisions of those kinds and plays the rest as ``normal``: with
  ``--sides declarer`` against ``normal``, it shows which decisions hard's gain comes from.
- ``--daring OPENING,UNDER`` (二七王): the points by which a ``normal`` bid may fall short of
  the defenders' expected take, opening and under another bid, in place of the player's own
  (`engine.ai.erqiwang.BID_DARING`, `BID_DARING_UNDER`): for trying other values. It changes
  every ``normal`` player of the run and the ``hard`` player's reading of bids alike.
- ``--hint-check`` (issue 55): the hints against the ``hard`` seats' decisions at random
  decision points of ``--deals`` deals (``--points`` a deal, on ``--workers`` AI worker
  processes), then a player following every hint (level ``hinted``) against ``hard`` on
  ``--strength`` deals: see `bench.hint_check`.
Decision times are reported per level (percentiles over every decision taken).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import game_of
from engine.actions import Action, Timeout
from engine.ai import player

TIMES: dict[str, list[float]] = defaultdict(list)


PLAYOUTS: int | None = None
"""``--playouts``: hard searches a fixed number of sampled deals per decision, whatever the
time (a run that is the same on any machine and under any load, to compare versions)."""
EXTENSION: float | None = None
"""``--extension``: the further budgets of a contested ``hard`` decision, if not the game's."""


ERQIWANG_KINDS = ("bid", "trump", "bury", "lead", "follow")
"""The kinds of 二七王 decision a ``hard@KINDS`` level leaves to the search."""


class HardAt:
    """``hard@KIND+KIND…`` (二七王): the search for decisions of those kinds, ``normal`` for
    the rest — to see which decisions the search's gain comes from."""

    def __init__(self, hard: Any, normal: Any, kinds: frozenset[str]) -> None:
        self.hard, self.normal, self.kinds = hard, normal, kinds

    def decide(self, view: Any, legal: Sequence[Action]) -> Action:
        kind = {"bidding": "bid", "trump": "trump", "bury": "bury"}.get(view.phase)
        if kind is None:
            kind = "follow" if view.trick else "lead"
        chosen = self.hard if kind in self.kinds else self.normal
        return chosen.decide(view, legal)  # type: ignore[no-any-return]


def make(game: str, level: str, seed: int, budget: float | None) -> Any:
    if level == "tuoguan":
        return None
    if level == "hinted":  # a normal player who plays every hint (`bench.hint_check`)
        from bench.hint_check import HintFollower

        return HintFollower(game)
    if level.startswith("hard@"):
        kinds = frozenset(level.removeprefix("hard@").split("+"))
        if game != "erqiwang" or not kinds <= set(ERQIWANG_KINDS):
            raise SystemExit(f"hard@KINDS is for 二七王, KINDS among {'+'.join(ERQIWANG_KINDS)}")
        return HardAt(make(game, "hard", seed, budget), player(game, "normal"), kinds)
    if level != "hard":
        return player(game, level, seed)
    hard: Any
    if PLAYOUTS is not None:
        hard = player(game, level, seed, budget=1e9, playouts=PLAYOUTS, clock=lambda: 0.0)
    else:
        hard = player(game, level, seed, budget=budget)
    if EXTENSION is not None:
        hard.extension = EXTENSION
    return hard


def act(hand: Any, seat: int, who: Any, level: str) -> Action:
    if who is None:
        return Timeout(seat)
    started = time.perf_counter()
    action = who.decide(hand.view(seat), hand.legal_actions(seat))
    TIMES[level].append(time.perf_counter() - started)
    return action  # type: ignore[no-any-return]


def play(hand: Any, seats: Sequence[tuple[Any, str]]) -> Any:
    while not hand.over:
        seat = hand.to_act
        who, level = seats[seat]
        hand.apply(act(hand, seat, who, level))
    return hand.result


def _numbered(deals: range) -> str:
    """Which deals: runs over different deals add up (``--first-deal``)."""
    return f"deals {deals.start}–{deals.stop - 1}"


def interval(wins: int, n: int) -> str:
    if n == 0:
        return "   n/a"
    p = wins / n
    half = 1.96 * math.sqrt(p * (1 - p) / n)
    return f"{p:6.1%} ± {half:4.1%} ({wins}/{n})"


def situan(deals: range, x: str, y: str, budget: float | None) -> None:
    game = game_of("situan")
    rules = game.rules()
    wins = decided = 0
    for seed in deals:
        px, py = make("situan", x, seed, budget), make("situan", y, seed + 1, budget)
        for x_team in (0, 1):
            seats = [(px, x) if s % 2 == x_team else (py, y) for s in range(4)]
            result = play(game.deal(rules, seed=seed), seats)
            if result.winner is not None:
                decided += 1
                wins += result.winner == "AB"[x_team]
    print(
        f"四团 {x} vs {y}: {x} team wins {interval(wins, decided)} of decided hands, "
        f"{len(deals)} deals × 2 ({_numbered(deals)})"
    )


def erqiwang_auction(rules: Any, seed: int) -> Any:
    game = game_of("erqiwang")
    hand = game.deal(rules, seed=seed)
    bidders = [(player("erqiwang", "normal"), "normal")] * 4
    while hand.phase == "bidding":
        seat = hand.to_act
        who, level = bidders[seat]
        hand.apply(act(hand, seat, who, level))
    return hand


def erqiwang(deals: range, x: str, y: str, budget: float | None, sides: str = "both") -> None:
    game = game_of("erqiwang")
    rules = game.rules("classic", first_must_bid=True)
    wins: Counter[str] = Counter()
    gains: dict[str, list[int]] = {"declaring": [], "defending": []}
    played = 0
    left_out = {"declarer": "x_defends", "defenders": "x_declares"}.get(sides)
    ways = [w for w in ("x_declares", "y_declares", "x_defends") if w != left_out]
    for seed in deals:
        start = erqiwang_auction(rules, seed)
        if start.over:
            continue
        declarer = start.declarer
        played += 1
        px, py = make("erqiwang", x, seed, budget), make("erqiwang", y, seed + 1, budget)
        who = {"x_declares": ((px, x), (py, y)), "y_declares": ((py, y), (py, y)),
               "x_defends": ((py, y), (px, x))}  # fmt: skip
        won: dict[str, bool] = {}
        for name in ways:
            declarer_who, defenders_who = who[name]
            hand = game.hand_from_record(start.start_record())
            for action in start.history:
                hand.apply(action)
            seats = [declarer_who if s == declarer else defenders_who for s in range(4)]
            won[name] = bool(play(hand, seats).declarer_won)
            wins[name] += won[name]
        if "x_declares" in won:
            gains["declaring"].append(won["x_declares"] - won["y_declares"])
        if "x_defends" in won:
            gains["defending"].append(won["y_declares"] - won["x_defends"])
    print(f"二七王 {x} vs {y} ({played} deals, each played {len(ways)} ways; {_numbered(deals)}):")
    lines = {
        "x_declares": f"{x} declarer vs {y} defenders wins {interval(wins['x_declares'], played)}",
        "y_declares": f"{y} declarer vs {y} defenders wins {interval(wins['y_declares'], played)}",
        "x_defends": f"{y} declarer vs {x} defenders wins {interval(wins['x_defends'], played)}",
    }
    for name in ways:
        print(f"  {lines[name]}")
    if "x_declares" in ways:
        print(f"  {x} as declarer: {paired(gains['declaring'])} declarer wins")
    if "x_defends" in ways:
        print(f"  {x} as defenders: {paired(gains['defending'])} fewer declarer wins")


def paired(gains: Sequence[float], form: str = ".1%") -> str:
    """The mean of per-deal differences (declarer wins: −1, 0, 1) with a 95% interval: the
    same deal played both ways, so the interval is that of the difference itself."""
    n = len(gains)
    if n < 2:
        return "n/a"
    mean = sum(gains) / n
    spread = math.sqrt(sum((g - mean) ** 2 for g in gains) / (n - 1))
    return f"{mean:+{form}} ± {1.96 * spread / math.sqrt(n):{form}}"


def erqiwang_whole(deals: range, x: str, y: str, budget: float | None, preset: str) -> list[float]:
    """X in one seat among Y's against Y in that seat, whole hands, the auction included
    (``--whole``); returns X's gain in units on every deal and seat, in that order."""
    game = game_of("erqiwang")
    rules = game.rules(preset)
    gains: list[float] = []
    # Keyed by who sits in the seat, "x" or "y" (the two may be the same level).
    declares = {"x": 0, "y": 0}
    declarer_wins = {"x": 0, "y": 0}
    redeals = {"x": 0, "y": 0}

    def whole_hand(seed: int, x_seat: int | None) -> Any:
        seats = [
            (make("erqiwang", x, seed, budget), x)
            if s == x_seat
            else (make("erqiwang", y, seed + 1, budget), y)
            for s in range(4)
        ]
        return play(game.deal(rules, seed=seed), seats)

    def tally(result: Any, seat: int, sitting: str) -> None:
        redeals[sitting] += result.void
        if result.declarer == seat:
            declares[sitting] += 1
            declarer_wins[sitting] += bool(result.declarer_won)

    for seed in deals:
        all_y = whole_hand(seed, None)
        for seat in range(4):
            with_x = whole_hand(seed, seat)
            gains.append(float(with_x.total[seat] - all_y.total[seat]))
            tally(with_x, seat, "x")
            tally(all_y, seat, "y")
    hands = len(gains)
    print(
        f"二七王 whole hands ({preset}, the auction included), {x} in one seat among {y}s "
        f"vs {y} in that seat, {len(deals)} deals × 4 seats ({_numbered(deals)}):"
    )
    print(f"  {x} gains {paired(gains, '.3f')} units per hand in the seat")
    for sitting, level in (("x", x), ("y", y)):
        print(
            f"  {level} in the seat declares {interval(declares[sitting], hands)} of hands, "
            f"wins {interval(declarer_wins[sitting], declares[sitting])} of those; "
            f"void (all passed) {interval(redeals[sitting], hands)}"
        )
    return gains


def bidding(deals: int, preset: str = "classic") -> None:
    game = game_of("erqiwang")
    rules = game.rules(preset)
    redeals = 0
    bands: dict[int, list[int]] = defaultdict(lambda: [0, 0])
    winning: Counter[int] = Counter()
    normal = [(player("erqiwang", "normal"), "normal")] * 4
    for seed in range(deals):
        result = play(game.deal(rules, seed=seed), normal)
        if result.void:
            redeals += 1
            continue
        winning[result.bid] += 1
        band = bands[result.bid // 20 * 20]
        band[0] += bool(result.declarer_won)
        band[1] += 1
    print(
        f"二七王 bidding, {deals} deals of four normal players ({preset}): redeals "
        f"{interval(redeals, deals)}, {len(winning)} distinct winning bids"
    )
    print("  winning bids: " + ", ".join(f"{b}×{n}" for b, n in sorted(winning.items())))
    for band in sorted(bands):
        won, n = bands[band]
        print(f"  bid {band:3}–{band + 15:3}: declarer wins {interval(won, n)}")


def report_times() -> None:
    for level, times in sorted(TIMES.items()):
        times.sort()
        n = len(times)
        pick = [times[min(n - 1, int(q * n))] * 1000 for q in (0.5, 0.9, 0.99)]
        print(
            f"decision time {level:7}: median {pick[0]:6.1f} ms, p90 {pick[1]:6.1f} ms, "
            f"p99 {pick[2]:6.1f} ms, max {times[-1] * 1000:6.1f} ms over {n}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--game", default="both", choices=("situan", "erqiwang", "both"))
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument(
        "--first-deal",
        type=int,
        default=0,
        help="the seed of the first deal: a long run split into parts, each "
        "on its own core, adds up to one over all their deals",
    )
    parser.add_argument("--pairings", default="hard-normal,normal-easy,normal-tuoguan")
    parser.add_argument(
        "--budget",
        type=float,
        default=None,
        help="hard: seconds per decision (default: the game's own)",
    )
    parser.add_argument(
        "--playouts",
        type=int,
        default=None,
        help="hard: this many sampled deals per decision instead of a time budget (deterministic)",
    )
    parser.add_argument(
        "--extension",
        type=float,
        default=None,
        help="hard: further budgets of a contested decision",
    )
    parser.add_argument(
        "--sides",
        default="both",
        choices=("both", "declarer", "defenders"),
        help="二七王: play the level under test as declarer, as defenders, "
        "or both (each against the same baseline)",
    )
    parser.add_argument("--bidding", type=int, default=1000, help="deals for the bidding table")
    parser.add_argument(
        "--preset", default="classic", help="二七王 preset of the bidding table and of --whole"
    )
    parser.add_argument(
        "--daring",
        default="",
        help="二七王: OPENING,UNDER points of daring for every normal bid, "
        "in place of the player's own",
    )
    parser.add_argument(
        "--whole",
        type=int,
        default=0,
        help="二七王: deals of whole hands, the auction included, each pairing's "
        "first level in one seat among the second's",
    )
    parser.add_argument(
        "--hint-check",
        action="store_true",
        help="check the hints (bench/hint_check.py) instead of the pairings",
    )
    parser.add_argument("--points", type=int, default=2, help="--hint-check: points a deal")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="--hint-check: AI worker processes the hints are asked of",
    )
    parser.add_argument(
        "--strength",
        type=int,
        default=10,
        help="--hint-check: deals of the hint follower against hard",
    )
    args = parser.parse_args(argv)
    if args.hint_check:
        from bench import hint_check

        games = ("situan", "erqiwang") if args.game == "both" else (args.game,)
        started = time.perf_counter()
        hint_check.run(
            games,
            range(args.first_deal, args.first_deal + args.deals),
            args.points,
            args.workers,
            args.playouts,
            args.strength,
        )
        print(f"wall time: {time.perf_counter() - started:.1f} s")
        return
    global PLAYOUTS, EXTENSION
    PLAYOUTS, EXTENSION = args.playouts, args.extension
    if args.daring:
        import engine.ai.erqiwang.bid_reading as bid_reading
        import engine.ai.erqiwang.normal as normal_erqiwang

        opening, under = (int(points) for points in args.daring.split(","))
        for bidder in (normal_erqiwang, bid_reading):  # the reading imports the two by name
            bidder.BID_DARING, bidder.BID_DARING_UNDER = opening, under  # type: ignore[misc]
        print(f"normal 二七王 daring: opening {opening}, under another bid {under}")
    started = time.perf_counter()
    deals = range(args.first_deal, args.first_deal + args.deals)
    for pairing in args.pairings.split(","):
        if not pairing:
            continue
        x, y = pairing.split("-")
        if args.game in ("situan", "both") and deals:
            situan(deals, x, y, args.budget)
        if args.game in ("erqiwang", "both") and deals:
            erqiwang(deals, x, y, args.budget, args.sides)
        if args.game in ("erqiwang", "both") and args.whole:
            erqiwang_whole(
                range(args.first_deal, args.first_deal + args.whole), x, y, args.budget, args.preset
            )
    if args.bidding and args.game in ("erqiwang", "both"):
        bidding(args.bidding, args.preset)
    report_times()
    print(f"wall time: {time.perf_counter() - started:.1f} s")


if __name__ == "__main__":
    main()

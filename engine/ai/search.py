"""The ``hard`` players: determinized sampling over the hidden cards (perfect-information
Monte Carlo, as in bridge and skat programs).

A decision is made from the seat's view alone. Each iteration deals the cards this seat has not
seen to the other hands (and, in 四团, the bottom; in 二七王, for a defender, the declarer's
buried cards) consistently with what is public, builds an engine hand in the same state, and
plays every candidate action out to the end with the ``normal`` player in all four seats. The
candidate with the best average result for this seat's side is chosen; the ``normal`` player's
own choice wins ties and is what is played when there is nothing to weigh.

Determinism: the random choices come from ``seed`` and the public state of the decision, so
the same view gives the same decision. A search stops at ``playouts`` iterations or when
``budget`` seconds (read from ``clock``, injectable for tests) have passed, whichever first.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from engine.actions import Action, Bid, Bury, DeclareBonus, NameTrump, Pass, PickShow, Play
from engine.ai.erqiwang import ErqiwangAI, shown_voids
from engine.ai.situan import SituanAI
from engine.cards import ALL_CARDS, Card
from engine.erqiwang.bonus import bonus_of, window_open
from engine.erqiwang.deal import Deal as ErqiwangDeal
from engine.erqiwang.follow import smallness_key
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.order import TRUMP
from engine.erqiwang.phases import PLAY as ERQIWANG_PLAY
from engine.erqiwang.views import ErqiwangView
from engine.errors import IllegalAction
from engine.situan.combos import COPIES, RANK_COUNT, RANKS
from engine.situan.deal import Deal as SituanDeal
from engine.situan.hand import SituanHand
from engine.situan.legal import PLAY as SITUAN_PLAY
from engine.situan.views import SituanView

Clock = Callable[[], float]
DEFAULT_BUDGET = 0.15
"""Seconds per decision (the issue's median target is 0.2 s)."""
DEFAULT_PLAYOUTS = 64
"""Iterations (one sampled deal, every candidate played out) at most per decision."""
MAX_CANDIDATES = 5
OVERRUN = 2
"""An iteration under way is dropped once the search has run this many budgets."""
SAMPLE_TRIES = 8
"""Deals drawn at most for one sample before the iteration is given up."""
MIN_SAMPLES = 4
"""Fewer sampled deals than this decide nothing: the ``normal`` choice is played."""
CONFIDENCE = 2.0
"""Standard errors by which a candidate must beat the ``normal`` choice to replace it."""
MIN_GAIN = 0.15
"""And by at least this much of a hand's worth (a win is 1, a loss −1)."""


class _Search:
    """What both games' searches share: the budget, the seeded sampling, the averaging."""

    def __init__(
        self, seed: int | None = None, budget: float = DEFAULT_BUDGET,
        playouts: int = DEFAULT_PLAYOUTS, clock: Clock = time.perf_counter,
    ) -> None:  # fmt: skip
        self.seed = 0 if seed is None else seed
        self.budget = budget
        self.playouts = playouts
        self.clock = clock
        self.iterations = 0
        """Iterations of the last search (for tests and the benchmark)."""
        self.samples = 0
        """Of those, the sampled deals every candidate was played out on."""

    def _choose(
        self, candidates: list[Action], fallback: Action, rng: random.Random,
        playout: Callable[[random.Random, Action], float | None],
    ) -> Action:  # fmt: skip
        """Play every candidate out on the same sampled deals. ``candidates[0]`` is the
        ``normal`` player's choice; another replaces it only when its average gain over it,
        deal by deal, is clearly above the noise of so few deals (`CONFIDENCE` standard
        errors and at least `MIN_GAIN`): with a handful of samples the best-looking of six
        candidates is mostly luck, and luck must not overrule a sound heuristic."""
        started = self.clock()
        gains: list[list[float]] = [[] for _ in candidates]
        self.iterations = 0
        self.samples = 0
        while self.iterations < self.playouts:
            if self.iterations and self.clock() - started >= self.budget:
                break
            state = rng.getstate()
            values: list[float] = []
            for action in candidates:
                if self.iterations and self.clock() - started >= OVERRUN * self.budget:
                    break  # one slow sampled deal must not hold the table up
                rng.setstate(state)  # every candidate meets the same sampled deal
                value = playout(rng, action)
                if value is None:
                    break  # a sampled deal the public record rules out: draw another
                values.append(value)
            rng.setstate(state)
            rng.random()
            self.iterations += 1
            if len(values) == len(candidates):
                self.samples += 1
                for i, value in enumerate(values):
                    gains[i].append(value - values[0])
        best, best_gain = 0, 0.0
        n = self.samples
        if n < MIN_SAMPLES:
            return candidates[0]
        for i in range(1, len(candidates)):
            mean = sum(gains[i]) / n
            spread = math.sqrt(sum((g - mean) ** 2 for g in gains[i]) / (n - 1))
            if mean >= MIN_GAIN and mean > CONFIDENCE * spread / math.sqrt(n) and mean > best_gain:
                best, best_gain = i, mean
        return candidates[best]


# ------------------------------------------------------------------------------- 四团


class SituanSearchAI(_Search):
    """``hard`` 四团: determinized playouts of the candidate plays."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.policy = SituanAI()

    def decide(self, view: SituanView, legal: Sequence[Action]) -> Action:
        fallback = self.policy.decide(view, legal)
        if view.phase != SITUAN_PLAY or isinstance(fallback, PickShow):
            return fallback
        turn = [a for a in legal if isinstance(a, (Play, Pass))]
        candidates = _situan_candidates(view, turn, fallback)
        if len(candidates) <= 1:
            return fallback
        seat = view.seat
        assert seat is not None
        rng = random.Random(f"{self.seed}:{seat}:{view.held}:{view.played_counts}:{view.turn}")

        def playout(rng: random.Random, action: Action) -> float | None:
            hand = _situan_sample(view, rng)
            if hand is None:
                return None
            hand.apply(action)
            return _situan_value(_play_out_situan(hand, self.policy), seat & 1)

        return self._choose(candidates, fallback, rng, playout)


def _situan_candidates(view: SituanView, turn: Sequence[Action], fallback: Action) -> list[Action]:
    """The heuristic's choice, the pass, and the lowest few plays of each size."""
    chosen: list[Action] = [fallback]
    passes = [a for a in turn if isinstance(a, Pass)]
    chosen += [a for a in passes if a not in chosen]
    plays = [a for a in turn if isinstance(a, Play)]
    by_size: dict[int, list[Action]] = {}
    for a in plays:
        assert isinstance(a, Play)
        by_size.setdefault(len(a.ranks), []).append(a)
    # plays come low rank first within a size: take the lowest of each size, then the next
    for depth in range(3):
        for size in sorted(by_size):
            group = by_size[size]
            if depth < len(group) and group[depth] not in chosen:
                chosen.append(group[depth])
            if len(chosen) >= MAX_CANDIDATES:
                return chosen
    return chosen


def _situan_sample(view: SituanView, rng: random.Random) -> SituanHand | None:
    """An engine hand in this view's state, the unseen cards dealt at random."""
    seat = view.seat
    assert seat is not None
    known: dict[int, list[int]] = {seat: _rank_counts(view.hand)}
    if view.revealed is not None:
        known[view.revealed] = _rank_counts(view.revealed_hand)
    for s, seen_cards in view.show_seen.items():
        known[s] = _rank_counts(seen_cards)
    pool = [COPIES[r] - view.played_counts[r] for r in range(RANK_COUNT)]
    for counts in known.values():
        for r in range(RANK_COUNT):
            pool[r] -= counts[r]
    hidden = [s for s in range(4) if s not in known and view.held[s]]
    hands: dict[int, list[int]] = dict(known)
    for s in range(4):
        if s not in hands:
            hands[s] = [0] * RANK_COUNT
    need = {s: view.held[s] for s in hidden}
    for s in hidden:  # a 墩 shown at the deal (亮墩) stays in its owner's hand until played
        for dun in view.duns[s] if len(view.duns) > s else []:
            if isinstance(dun, int):
                ranks = [r for r in range(RANK_COUNT - 2) if view.played_by[s][r] < dun]
                _reserve_dun(view, s, ranks, dun, pool, hands, need)
    unseen: list[int] = [r for r in range(RANK_COUNT) for _ in range(max(0, pool[r]))]
    rng.shuffle(unseen)
    at = 0
    for s in hidden:
        take = need[s]
        if take < 0 or at + take > len(unseen):
            return None
        for r in unseen[at : at + take]:
            hands[s][r] += 1
        at += take
    bottom_ranks = unseen[at:]
    return _situan_hand(view, hands, bottom_ranks)


def _reserve_dun(
    view: SituanView, s: int, ranks: list[int], dun: int, pool: list[int],
    hands: dict[int, list[int]], need: dict[int, int],
) -> None:  # fmt: skip
    """Keep in seat ``s`` the rest of a dealt 墩 of ``dun`` cards, at a rank it could be."""
    fits = [r for r in ranks if pool[r] >= dun - view.played_by[s][r] and hands[s][r] == 0]
    if not fits:
        return
    r = fits[0] if len(fits) == 1 else max(fits, key=lambda r: view.played_by[s][r])
    keep = dun - view.played_by[s][r]
    hands[s][r] += keep
    pool[r] -= keep
    need[s] -= keep


def _rank_counts(cards: Sequence[Card]) -> list[int]:
    from engine.situan.combos import RANK_INDEX

    counts = [0] * RANK_COUNT
    for c in cards:
        counts[RANK_INDEX[c.rank]] += 1
    return counts


_SITUAN_CARD: dict[int, Card] = {}


def _situan_card(rank: int) -> Card:
    from engine.cards import card

    if rank not in _SITUAN_CARD:
        name = RANKS[rank]
        _SITUAN_CARD[rank] = card(name if name in ("LJ", "BJ") else "S" + name)
    return _SITUAN_CARD[rank]


def _situan_hand(view: SituanView, hands: dict[int, list[int]], bottom: list[int]) -> SituanHand:
    """Suits never matter in 四团: the sampled hands are built from one card per rank."""
    cards = tuple(
        tuple(_situan_card(r) for r in range(RANK_COUNT) for _ in range(hands[s][r]))
        for s in range(4)
    )
    deal = SituanDeal(cards, tuple(_situan_card(r) for r in bottom))
    hand = SituanHand(view.rules, deal, view.turn, view.carry)
    hand.dealt_duns = [list(d) for d in view.duns] if len(view.duns) == 4 else hand.dealt_duns
    hand.played_counts = list(view.played_counts)
    hand.turn = view.turn
    hand.round_combo = view.round_combo
    hand.round_seat = view.round_seat
    hand.round_plays = list(view.round_plays)
    passes = 0
    for _, combo in reversed(view.round_plays):
        if combo is not None:
            break
        passes += 1
    hand.passes = passes
    hand.table_points = view.table_points
    hand.finish = list(view.finish)
    hand.captured = list(view.captured)
    hand.show_by = view.show_by
    hand.revealed = view.revealed
    return hand


def _play_out_situan(hand: SituanHand, policy: SituanAI) -> SituanHand:
    for _ in range(2000):
        if hand.over:
            break
        seat = hand.to_act
        assert seat is not None
        hand.apply(policy.wanted_for(hand.view(seat)))
    return hand


def _situan_value(hand: SituanHand, team: int) -> float:
    result = hand.result
    if result is None:
        return 0.0
    own, other = result.team_points[team], result.team_points[1 - team]
    margin = (own - other) / 300
    if result.winner is None:
        return margin
    return (1.0 if result.winner == "AB"[team] else -1.0) + margin


# ------------------------------------------------------------------------------- 二七王


class ErqiwangSearchAI(_Search):
    """``hard`` 二七王: determinized playouts of the candidate plays (bidding, trump and
    bury are the ``normal`` player's)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.policy = ErqiwangAI()

    def decide(self, view: ErqiwangView, legal: Sequence[Action]) -> Action:
        fallback = self.policy.decide(view, legal)
        if view.phase != ERQIWANG_PLAY or not isinstance(fallback, Play):
            return fallback
        seat = view.seat
        assert seat is not None
        candidates = _erqiwang_candidates(view, legal, fallback)
        if len(candidates) <= 1:
            return fallback
        rng = random.Random(f"{self.seed}:{seat}:{len(view.played_cards)}:{view.trick}")

        def playout(rng: random.Random, action: Action) -> float | None:
            hand = _erqiwang_sample(view, rng)
            if hand is None:
                return None
            try:  # a throw allowed at the real table may be refused in a sampled deal
                hand.apply(action)
            except IllegalAction:
                return None
            while not hand.over:
                actor = hand.to_act
                assert actor is not None
                _erqiwang_step(hand, actor, self.policy)
            return _erqiwang_value(hand, seat)

        return self._choose(candidates, fallback, rng, playout)


def _erqiwang_step(hand: ErqiwangHand, actor: int, policy: ErqiwangAI) -> None:
    """One playout step by the ``normal`` policy, without listing every legal play."""
    if hand.phase != ERQIWANG_PLAY:
        hand.apply(policy.decide(hand.view(actor), hand.legal_actions(actor)))
        return
    if window_open(hand, actor) and bonus_of(hand.hands[actor], hand.trump) is not None:
        hand.apply(DeclareBonus(actor))
    try:
        hand.apply(Play(actor, policy.play_for(hand.view(actor))))
    except IllegalAction:  # a throw the sampled hands refuse: the smallest play instead
        hand.apply(Play(actor, hand.smallest_play(actor)))


def _erqiwang_candidates(
    view: ErqiwangView, legal: Sequence[Action], fallback: Play
) -> list[Action]:
    """The heuristic's choice and a spread of the others, from the smallest to the largest."""
    plays = [a for a in legal if isinstance(a, Play)]
    order = view.order
    plays.sort(key=lambda a: smallness_key(a.cards, order))
    chosen: list[Action] = [fallback]
    if len(plays) <= MAX_CANDIDATES:
        chosen += [a for a in plays if _key(a) != _key(fallback)]
        return chosen
    step = (len(plays) - 1) / (MAX_CANDIDATES - 2)
    for i in range(MAX_CANDIDATES - 1):
        a = plays[round(i * step)]
        if all(_key(a) != _key(b) for b in chosen):
            chosen.append(a)
    return chosen


def _key(action: Action) -> tuple[str, ...]:
    assert isinstance(action, Play)
    return tuple(sorted(c.text for c in action.cards))


def _erqiwang_sample(view: ErqiwangView, rng: random.Random) -> ErqiwangHand | None:
    """An engine hand in this view's state: the unseen cards dealt at random where they may
    lie, then the public actions replayed."""
    seat = view.seat
    declarer = view.declarer
    assert seat is not None and declarer is not None and view.trump_named
    order = view.order
    copies = 2 if getattr(view.rules, "decks", 2) == 2 else 1
    played_by: list[list[Card]] = [[], [], [], []]
    for trick in [*view.tricks, view.trick]:
        for s, cards in trick:
            played_by[s].extend(cards)
    seen = Counter(view.hand)
    seen.update(view.played_cards)  # the trick in progress included
    seen.update(view.buried)
    pool = Counter({c: copies - seen[c] for c in ALL_CARDS if copies > seen[c]})
    bury_size = len(view.bottom_shown)
    slots = [view.counts[s] for s in range(4)]
    hidden_bury = seat != declarer
    if hidden_bury:
        slots[declarer] += bury_size
    slots[seat] = 0
    hands: list[list[Card]] = [[] for _ in range(4)]
    hands[seat] = list(view.hand)
    # Cards shown to the table that have not been played: the bottom (with the declarer,
    # in hand or buried) and declared 冲关 cards.
    fixed: list[tuple[int, Counter[Card]]] = []
    if seat != declarer:
        fixed.append((declarer, Counter(view.bottom_shown) - Counter(played_by[declarer])))
    for s, (_, _, shown) in view.bonuses.items():
        if s != seat:
            fixed.append((s, Counter(shown) - Counter(played_by[s])))
    for s, shown_left in fixed:
        for c, n in shown_left.items():
            n = min(n, pool[c], slots[s])
            hands[s].extend([c] * n)
            pool[c] -= n
            slots[s] -= n
    voids = [shown_voids(view, s) for s in range(4)]
    for s in range(4):
        if view.void[s]:
            voids[s].add(TRUMP)
    unpaired = _unpaired(view)
    for _ in range(SAMPLE_TRIES):
        dealt = [list(h) for h in hands]
        unseen = list(pool.elements())
        rng.shuffle(unseen)
        room = list(slots)
        if not _deal_constrained(
            unseen, dealt, room, voids, order.suit, rng, hidden_bury, declarer
        ):
            continue
        buried: tuple[Card, ...] = view.buried
        if hidden_bury:
            split = _split_bury(dealt[declarer], bury_size, voids[declarer], order.suit, rng)
            if split is None:
                continue
            buried, dealt[declarer] = split
        if any(_has_pair(dealt[s], suit, order.suit) for s, suit in unpaired):
            continue
        hand = _erqiwang_replay(view, dealt, played_by, buried)
        if hand is not None:
            return hand
    return None


def _split_bury(
    group: list[Card], size: int, voids: set[str], suit: dict[Card, str], rng: random.Random
) -> tuple[tuple[Card, ...], list[Card]] | None:
    """The declarer's buried cards out of its hidden cards: every card of a suit it showed
    void in must be among them; the rest at random."""
    must = [c for c in group if suit[c] in voids]
    free = [c for c in group if suit[c] not in voids]
    if len(must) > size:
        return None
    rng.shuffle(free)
    cut = size - len(must)
    return tuple(must + free[:cut]), free[cut:]


def _unpaired(view: ErqiwangView) -> list[tuple[int, str]]:
    """(seat, suit): the seat answered a lead with pairs in that suit with fewer pairs than
    the lead asked for while following with the suit only, so it has no pair of it left."""
    order = view.order
    found: list[tuple[int, str]] = []
    for trick in [*view.tricks, view.trick]:
        if not trick:
            continue
        lead = trick[0][1]
        suit = order.suit[lead[0]]
        wanted = _pairs(lead)
        if not wanted:
            continue
        for player, cards in trick[1:]:
            if all(order.suit[c] == suit for c in cards) and _pairs(cards) < wanted:
                found.append((player, suit))
    return found


def _pairs(cards: Sequence[Card]) -> int:
    return sum(n // 2 for n in Counter(cards).values())


def _has_pair(cards: list[Card], following: str, suit: dict[Card, str]) -> bool:
    counts = Counter(c for c in cards if suit[c] == following)
    return any(n >= 2 for n in counts.values())


def _deal_constrained(
    cards: list[Card], hands: list[list[Card]], slots: list[int], voids: list[set[str]],
    suit: dict[Card, str], rng: random.Random, hidden_bury: bool, declarer: int,
) -> bool:  # fmt: skip
    """Deal ``cards`` into the open ``slots``, a seat never getting a suit it showed void in
    (the declarer's buried share may be anything); the most constrained cards first."""
    seats = [s for s in range(4) if slots[s] > 0]
    allowed = {
        c: [s for s in seats if suit[c] not in voids[s] or (hidden_bury and s == declarer)]
        for c in set(cards)
    }
    cards.sort(key=lambda c: len(allowed[c]))
    for c in cards:
        room = [s for s in allowed[c] if slots[s] > 0]
        if not room:
            room = [s for s in seats if slots[s] > 0]  # an inconsistent corner: relax
            if not room:
                return False
        s = room[rng.randrange(len(room))] if len(room) > 1 else room[0]
        hands[s].append(c)
        slots[s] -= 1
    return all(n == 0 for n in slots)


def _erqiwang_replay(
    view: ErqiwangView, hands: list[list[Card]], played_by: list[list[Card]],
    buried: tuple[Card, ...],
) -> ErqiwangHand | None:  # fmt: skip
    declarer = view.declarer
    assert declarer is not None
    dealt: list[tuple[Card, ...]] = []
    for s in range(4):
        held = Counter(hands[s]) + Counter(played_by[s])
        if s == declarer:
            held = held + Counter(buried)
            bottom = Counter(view.bottom_shown)
            if bottom - held:
                return None
            held = held - bottom
        dealt.append(tuple(held.elements()))
    hand = ErqiwangHand(view.rules, ErqiwangDeal(tuple(dealt), view.bottom_shown), view.first)
    try:
        for s, points in view.bids:
            hand.apply(Pass(s) if points is None else Bid(s, points))
        hand.apply(NameTrump(declarer, "none" if view.trump is None else view.trump))
        hand.apply(Bury(declarer, buried))
        declared = set(view.bonuses)
        for trick in [*view.tricks, view.trick]:
            for s, cards in trick:
                if s in declared and DeclareBonus(s) in hand.legal_actions(s):
                    hand.apply(DeclareBonus(s))
                    declared.discard(s)
                hand.apply(Play(s, cards))
        seat = view.seat
        assert seat is not None
        if seat in declared and DeclareBonus(seat) in hand.legal_actions(seat):
            hand.apply(DeclareBonus(seat))
    except Exception:
        return None
    return hand


def _erqiwang_value(hand: ErqiwangHand, seat: int) -> float:
    result = hand.result
    if result is None or result.declarer is None:
        return 0.0
    bid = max(result.bid or 0, 5)
    margin = (bid - result.defender_points) / (4 * bid)
    declarer_side = 1.0 if result.declarer_won else -1.0
    value = declarer_side + max(-0.5, min(0.5, margin))
    return value if seat == result.declarer else -value

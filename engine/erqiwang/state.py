"""One 二七王 hand: bidding, the bottom, trump, burying, 冲关, 25 tricks and settlement."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.cards import Card
from engine.erqiwang.actions import (
    Action,
    AutoChanged,
    Bid,
    BidPassed,
    BonusDeclared,
    BottomShown,
    Buried,
    DeclarerChosen,
    Event,
    HandEnded,
    Played,
    Redeal,
    Surrendered,
    TimedOut,
    TrickWon,
    TrumpCounts,
    TrumpNamed,
    TrumpVoid,
)
from engine.erqiwang.bonus import Bonus, bonus_of
from engine.erqiwang.deal import BOTTOM_SIZE, Deal, deal_from_seed
from engine.erqiwang.follow import follow_error, legal_follows, smallest_follow
from engine.erqiwang.leads import (
    LeadRefusal,
    Threat,
    check_lead,
    suit_leads,
    threat_of,
    throw_candidates,
)
from engine.erqiwang.order import BIDDING_ORDER, ORDERS, SUIT_ORDER, TRUMP, TrumpOrder
from engine.erqiwang.rules import Rules
from engine.erqiwang.settlement import SCORING, bonus_payments, defenders_win, stakes
from engine.erqiwang.shapes import Shape, pairs_by_position, shape_of
from engine.errors import IllegalAction
from engine.options import format_amount

BIDDING, TRUMP_PHASE, BURY, PLAY, OVER = "bidding", "trump", "bury", "play", "over"
TIMEOUTS_FOR_AUTO = 3
TRUMP_SUITS = ("S", "H", "C", "D")


class ErqiwangHand:
    """The state of one 二七王 hand. `apply` either raises `IllegalAction` and changes nothing,
    or applies the action and returns its events."""

    def __init__(self, rules: Rules, deal: Deal, first: int = 0) -> None:
        self.rules = rules
        self.deal = deal
        self.first = first
        self.hands: list[list[Card]] = [list(h) for h in deal.hands]
        self.by_suit: list[dict[str, list[Card]]] = [{}, {}, {}, {}]
        """Each seat's cards by following-suit, kept from trump naming on."""
        self._leads: list[dict[str, list[tuple[Card, ...]]]] = [{}, {}, {}, {}]
        """Each seat's possible leads per following-suit, recomputed when that suit changes."""
        self._threats: list[Threat | None] = [None] * 4
        """Each seat's trump threat (for judging throws), recomputed when it plays a trump."""
        self._throws: list[list[tuple[Card, ...]] | None] = [None] * 4
        """Each seat's natural trump throws: they change only when some trump is played."""
        self.phase = BIDDING
        self.turn = first
        self.bids: list[tuple[int, int | None]] = []
        self.passed = [False] * 4
        self.lowest: tuple[int, int] | None = None  # (points, seat)
        self.declarer: int | None = None
        self.bid: int | None = None
        self.trump: str | None = None
        self.trump_named = False
        self.order: TrumpOrder = BIDDING_ORDER
        self.buried: tuple[Card, ...] = ()
        self.surrendered = False
        self.has_played = [False] * 4
        self.bonuses: dict[int, Bonus] = {}
        self.trick: list[tuple[int, tuple[Card, ...]]] = []
        self.lead_shape: Shape | None = None
        self.lead_suit: str | None = None
        self.best: tuple[int, bool, int] | None = None  # (seat, is trump ruff, top position)
        self.last_trick: list[tuple[int, tuple[Card, ...]]] = []
        self.tricks: list[list[tuple[int, tuple[Card, ...]]]] = []
        """Every finished trick, in order (public: all cards are played face up)."""
        self.tricks_done = 0
        self.trick_points_for_defenders = 0
        self.played_cards: list[Card] = []
        self.void_announced = [False] * 4
        self.trump_counts: tuple[tuple[int, int, bool], ...] | None = None
        self.timeouts = [0, 0, 0, 0]
        self.auto = [False, False, False, False]
        self.history: list[Action] = []
        self.result: dict[str, Any] | None = None

    @classmethod
    def from_seed(cls, rules: Rules, seed: int | str, first: int = 0) -> ErqiwangHand:
        return cls(rules, deal_from_seed(seed), first)

    # ----------------------------------------------------------------- queries

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def to_act(self) -> int:
        """The seat the table waits for."""
        if self.phase in (TRUMP_PHASE, BURY):
            assert self.declarer is not None
            return self.declarer
        return self.turn

    def hand(self, seat: int) -> tuple[Card, ...]:
        return tuple(self.order.sorted_cards(self.hands[seat]))

    def others_threats(self, seat: int) -> list[Threat]:
        """The trump threats of the three other players (a throw is judged against them)."""
        threats = self._threats
        for s in range(4):
            if threats[s] is None:
                threats[s] = threat_of(self.by_suit[s].get(TRUMP, []), self.order)
        return [t for s, t in enumerate(threats) if s != seat and t is not None]

    def allowed_bids(self) -> list[int]:
        """The bids the seat to act may make now (highest first)."""
        rules = self.rules
        top = rules.bid_max if self.lowest is None else self.lowest[0] - rules.bid_step
        top -= top % rules.bid_step
        return list(range(top, rules.bid_min - 1, -rules.bid_step)) if top >= rules.bid_min else []

    def may_pass_bidding(self) -> bool:
        first_action = not self.bids
        return not (self.rules.first_must_bid and first_action and self.turn == self.first)

    def legal_plays(self) -> list[tuple[Card, ...]]:
        """Legal leads (singles, pairs, tractors, the natural throws) or every legal follow."""
        if self.phase != PLAY:
            return []
        seat = self.turn
        hand = self.hands[seat]
        if self.lead_shape is None:
            plays = []
            cached = self._leads[seat]
            for suit, cards in self.by_suit[seat].items():
                leads = cached.get(suit)
                if leads is None:
                    leads = cached[suit] = suit_leads(cards, self.order)
                plays.extend(leads)
            throws = self._throws[seat]
            if throws is None:
                trumps = self.suit_cards(seat, TRUMP)
                throws = self._throws[seat] = throw_candidates(
                    trumps, self.order, self.rules.throw, self.others_threats(seat)
                )
            return plays + throws
        assert self.lead_suit is not None
        held = self.by_suit[seat].get(self.lead_suit)
        if self.lead_shape.size == 1:
            return [(c,) for c in dict.fromkeys(held or hand)]
        return list(legal_follows(hand, held or [], self.lead_shape, self.lead_suit, self.order))

    def bonus_window_open(self, seat: int) -> bool:
        """冲关 may be declared from trump naming (declarer: after burying) to the first card."""
        if self.has_played[seat] or seat in self.bonuses:
            return False
        if seat == self.declarer:
            return self.phase == PLAY
        return self.phase in (BURY, PLAY)

    def trump_held(self, seat: int) -> list[Card]:
        return self.suit_cards(seat, TRUMP)

    def suit_cards(self, seat: int, suit: str) -> list[Card]:
        """The seat's cards of one following-suit (once trump is named)."""
        return self.by_suit[seat].get(suit, [])

    def _group_by_suit(self) -> None:
        suit = self.order.suit
        for seat in range(4):
            groups: dict[str, list[Card]] = {}
            for c in self.hands[seat]:
                groups.setdefault(suit[c], []).append(c)
            self.by_suit[seat] = groups

    def _remove_cards(self, seat: int, cards: tuple[Card, ...]) -> bool:
        """Take cards out of a hand, dropping the caches they touch; whether a trump left."""
        hand, groups, suit = self.hands[seat], self.by_suit[seat], self.order.suit
        leads = self._leads[seat]
        played_trump = False
        for c in cards:
            following = suit[c]
            hand.remove(c)
            groups[following].remove(c)
            leads.pop(following, None)
            if following == TRUMP:
                played_trump = True
                self._threats[seat] = None
                self._throws = [None] * 4  # everyone's throws are judged against this seat
        return played_trump

    # ----------------------------------------------------------------- actions

    def apply(self, action: Action) -> list[Event]:
        handler = _HANDLERS.get(action.act)
        if handler is None:
            raise IllegalAction("bad_action", f"unknown action {action.act!r}", act=action.act)
        seat = action.seat
        if type(seat) is not int or not 0 <= seat < 4:  # bool is no seat
            raise IllegalAction("bad_action", f"no seat {seat!r}", seat=seat)
        events: list[Event] = handler(self, action)
        self.history.append(action)
        return events

    def _running(self) -> None:
        if self.phase == OVER:
            raise IllegalAction("wrong_phase", "the hand is over", phase=self.phase)

    def _phase(self, *phases: str) -> None:
        self._running()
        if self.phase not in phases:
            raise IllegalAction(
                "wrong_phase", f"not now: the hand is in its {self.phase} phase", phase=self.phase
            )

    def _turn(self, seat: int) -> None:
        if seat != self.to_act:
            raise IllegalAction(
                "not_your_turn", f"it is seat {self.to_act}'s turn", seat=seat, turn=self.to_act
            )

    def _own_action(self, seat: int, events: list[Event]) -> None:
        if self.auto[seat]:
            self.auto[seat] = False
            events.append(AutoChanged(seat, False))

    def _holds(self, seat: int, cards: tuple[Card, ...]) -> bool:
        if len(cards) == 1:
            return cards[0] in self.hands[seat]
        held = Counter(self.hands[seat])
        return all(held[c] >= n for c, n in Counter(cards).items())

    # bidding

    def _on_bid(self, action: Action) -> list[Event]:
        points = action.points
        if not isinstance(points, int) or isinstance(points, bool):
            raise IllegalAction("bad_action", "a bid is a number of points", points=points)
        self._phase(BIDDING)
        self._turn(action.seat)
        if points not in self.allowed_bids():
            raise IllegalAction("bid_not_allowed", self._bid_refusal(points), points=points)
        events: list[Event] = []
        self._own_action(action.seat, events)
        self._bid(action.seat, points, events)
        return events

    def _bid_refusal(self, points: int) -> str:
        rules = self.rules
        if points % rules.bid_step:
            return f"bids go in steps of {rules.bid_step}"
        if points > rules.bid_max:
            return f"the highest bid is {rules.bid_max}"
        if points < rules.bid_min:
            return f"the lowest bid is {rules.bid_min}"
        assert self.lowest is not None
        return f"a bid must be at least {rules.bid_step} below {self.lowest[0]}"

    def _on_pass(self, action: Action) -> list[Event]:
        self._phase(BIDDING)
        self._turn(action.seat)
        if not self.may_pass_bidding():
            raise IllegalAction("bid_not_allowed", "the first bidder must bid", seat=action.seat)
        events: list[Event] = []
        self._own_action(action.seat, events)
        self._pass_bid(action.seat, events)
        return events

    def _bid(self, seat: int, points: int, events: list[Event]) -> None:
        self.bids.append((seat, points))
        self.lowest = (points, seat)
        events.append(Bid(seat, points))
        if points <= self.rules.bid_min or self._others_all_passed(seat):
            self._close_bidding(events)
        else:
            self._next_bidder(seat)

    def _pass_bid(self, seat: int, events: list[Event]) -> None:
        self.bids.append((seat, None))
        self.passed[seat] = True
        events.append(BidPassed(seat))
        if all(self.passed):
            self.phase = OVER
            self.result = {"redeal": True}
            events += [Redeal(), HandEnded(self.result)]
        elif self.lowest is not None and self._others_all_passed(self.lowest[1]):
            self._close_bidding(events)
        else:
            self._next_bidder(seat)

    def _others_all_passed(self, seat: int) -> bool:
        return all(self.passed[s] for s in range(4) if s != seat)

    def _next_bidder(self, seat: int) -> None:
        for step in (1, 2, 3):
            nxt = (seat + step) & 3
            if not self.passed[nxt]:
                self.turn = nxt
                return

    def _close_bidding(self, events: list[Event]) -> None:
        assert self.lowest is not None
        self.bid, self.declarer = self.lowest
        events.append(DeclarerChosen(self.declarer, self.bid))
        self.hands[self.declarer].extend(self.deal.bottom)
        events.append(BottomShown(self.declarer, self.deal.bottom))
        self.phase = TRUMP_PHASE
        self.turn = self.declarer

    # trump, burying, surrender

    def _on_trump(self, action: Action) -> list[Event]:
        suit = action.suit
        if suit not in (*TRUMP_SUITS, "none") or (suit == "none" and not self.rules.allow_no_trump):
            raise IllegalAction("bad_action", f"{suit!r} is not a trump choice here", suit=suit)
        self._phase(TRUMP_PHASE)
        self._turn(action.seat)
        events: list[Event] = []
        self._own_action(action.seat, events)
        self._name_trump(None if suit == "none" else str(suit), events)
        return events

    def _name_trump(self, suit: str | None, events: list[Event]) -> None:
        self.trump = suit
        self.trump_named = True
        self.order = ORDERS[suit]
        self.phase = BURY
        self._group_by_suit()
        self._threats = [None] * 4
        self._throws = [None] * 4
        events.append(TrumpNamed(suit))

    def _on_bury(self, action: Action) -> list[Event]:
        cards = action.cards
        if cards is None:
            raise IllegalAction("bad_action", "bury names 8 cards")
        self._phase(BURY)
        self._turn(action.seat)
        if not self._holds(action.seat, cards):
            raise IllegalAction(
                "not_in_hand", "those cards are not in your hand", seat=action.seat,
                cards=[c.text for c in cards],
            )  # fmt: skip
        if len(cards) != BOTTOM_SIZE:
            raise IllegalAction(
                "wrong_count", f"bury exactly {BOTTOM_SIZE} cards, not {len(cards)}",
                count=len(cards),
            )  # fmt: skip
        events: list[Event] = []
        self._own_action(action.seat, events)
        self._bury(action.seat, cards, events)
        return events

    def _bury(self, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
        self._remove_cards(seat, cards)
        self.buried = tuple(cards)
        self.phase = PLAY
        self.turn = seat
        events.append(Buried(seat))
        self._announce_voids(events)

    def _on_surrender(self, action: Action) -> list[Event]:
        self._running()
        if self.phase == BIDDING or (self.phase == PLAY and any(self.has_played)):
            raise IllegalAction(
                "wrong_phase", "surrender is possible from taking the bottom to the first card"
            )
        if action.seat != self.declarer:
            raise IllegalAction("not_your_turn", "only the declarer may surrender")
        assert self.bid is not None
        if self.bid <= self.rules.surrender_above:
            raise IllegalAction(
                "surrender_not_allowed",
                f"surrender needs a bid above {self.rules.surrender_above}",
                bid=self.bid,
            )
        events: list[Event] = []
        self._own_action(action.seat, events)
        self.surrendered = True
        events.append(Surrendered(action.seat))
        self._finish(events)
        return events

    def _on_declare_bonus(self, action: Action) -> list[Event]:
        self._running()
        seat = action.seat
        if seat in self.bonuses:
            raise IllegalAction("no_bonus", "冲关 was already declared", seat=seat)
        if not self.bonus_window_open(seat):
            raise IllegalAction(
                "wrong_phase", "冲关 is declared after trump is named and before your first card"
            )
        bonus = bonus_of(self.hands[seat], self.trump)
        if bonus is None:
            raise IllegalAction("no_bonus", "you hold no 冲关 (three or four jokers)", seat=seat)
        events: list[Event] = []
        self._own_action(seat, events)
        self.bonuses[seat] = bonus
        events.append(BonusDeclared(seat, bonus.name, bonus.value, bonus.cards))
        return events

    # play

    def _on_play(self, action: Action) -> list[Event]:
        cards = action.cards
        if not cards:
            raise IllegalAction("bad_action", "a play needs its cards")
        if self.phase != PLAY:
            self._phase(PLAY)
        seat = action.seat
        if seat != self.turn:
            self._turn(seat)
        if not (cards[0] in self.hands[seat] if len(cards) == 1 else self._holds(seat, cards)):
            raise IllegalAction(
                "not_in_hand", f"seat {seat} does not hold {' '.join(c.text for c in cards)}",
                seat=seat, cards=[c.text for c in cards],
            )  # fmt: skip
        if self.lead_shape is None:
            try:
                shape = check_lead(
                    cards, self.order, self.rules.throw, lambda: self.others_threats(seat)
                )
            except LeadRefusal as refusal:
                raise IllegalAction(refusal.code, refusal.message, **refusal.facts) from None
        else:
            assert self.lead_suit is not None
            held = self.by_suit[seat].get(self.lead_suit, [])
            code = follow_error(cards, held, self.lead_shape, self.lead_suit, self.order)
            if code is not None:
                raise IllegalAction(code, self._follow_refusal(code, seat), seat=seat)
            shape = None
        events: list[Event] = []
        if self.auto[seat]:
            self._own_action(seat, events)
        self._play(seat, tuple(cards), shape, events)
        return events

    def _follow_refusal(self, code: str, seat: int) -> str:
        assert self.lead_shape is not None
        n = self.lead_shape.size
        if code == "wrong_count":
            return f"play {n} card{'s' if n > 1 else ''}, as many as the lead"
        suit_name = "trump" if self.lead_suit == TRUMP else self.lead_suit
        if code == "must_follow_suit":
            return f"you must follow {suit_name} with as many of its cards as you can"
        return f"you must follow the lead's pairs and tractors in {suit_name} as far as you can"

    def _play(
        self, seat: int, cards: tuple[Card, ...], shape: Shape | None, events: list[Event]
    ) -> None:
        order = self.order
        played_trump = self._remove_cards(seat, cards)
        self.played_cards.extend(cards)
        self.has_played[seat] = True
        events.append(Played(seat, cards))
        if shape is not None:  # a lead
            self.lead_shape = shape
            self.lead_suit = order.suit[cards[0]]
            self.best = (seat, False, shape.top_position())
        elif self.lead_shape is not None and self.lead_shape.size == 1:
            self._compare_single(seat, cards[0])
        else:
            self._compare(seat, cards)
        self.trick.append((seat, cards))
        counts_may_change = False
        if not self.void_announced[seat]:
            if not self.by_suit[seat].get(TRUMP):
                self.void_announced[seat] = True
                events.append(TrumpVoid(seat))
                counts_may_change = True
            else:
                counts_may_change = played_trump
        if counts_may_change and sum(self.void_announced) >= 2:
            self._announce_trump_counts(events)
        if len(self.trick) < 4:
            self.turn = (seat + 1) & 3
            return
        self._close_trick(events)

    def _compare_single(self, seat: int, c: Card) -> None:
        """`_compare` for a single led: only the card's suit and level matter."""
        best = self.best
        assert best is not None
        suit = self.order.suit[c]
        ruff = suit == TRUMP and self.lead_suit != TRUMP
        if suit != self.lead_suit and not ruff:
            return
        top = self.order.position[c]
        if (ruff and not best[1]) or (ruff == best[1] and top > best[2]):
            self.best = (seat, ruff, top)

    def _compare(self, seat: int, cards: tuple[Card, ...]) -> None:
        lead, best = self.lead_shape, self.best
        assert lead is not None and best is not None
        if lead.components > 1:
            return  # an allowed throw always wins its trick
        order = self.order
        suit = order.suit[cards[0]]
        if len(cards) > 1 and any(order.suit[c] != suit for c in cards):
            return
        ruff = suit == TRUMP and self.lead_suit != TRUMP
        if suit != self.lead_suit and not ruff:
            return
        shape = shape_of(cards, order)  # singles led go through `_compare_single`
        if shape.signature != lead.signature:
            return
        top = shape.top_position()
        _, best_is_ruff, best_top = best
        if (ruff and not best_is_ruff) or (ruff == best_is_ruff and top > best_top):
            self.best = (seat, ruff, top)

    def _close_trick(self, events: list[Event]) -> None:
        assert self.best is not None
        winner = self.best[0]
        points = sum(c.points for _, cards in self.trick for c in cards)
        by_defenders = winner != self.declarer
        if by_defenders:
            self.trick_points_for_defenders += points
        events.append(TrickWon(winner, points, by_defenders))
        self.tricks_done += 1
        if not self.hands[winner]:
            self._finish(events)
            return
        self.last_trick = self.trick
        self.tricks.append(self.trick)
        self.trick = []
        self.lead_shape = None
        self.lead_suit = None
        self.best = None
        self.turn = winner

    def _announce_voids(self, events: list[Event]) -> None:
        for seat in range(4):
            if not self.void_announced[seat] and not self.trump_held(seat):
                self.void_announced[seat] = True
                events.append(TrumpVoid(seat))
        if sum(self.void_announced) >= 2:
            self._announce_trump_counts(events)

    def _announce_trump_counts(self, events: list[Event]) -> None:
        """With two players void of trump, the others' trump counts and pairs, kept current."""
        counts = tuple(
            (s, len(trumps), bool(pairs_by_position(trumps, self.order)))
            for s in range(4)
            if not self.void_announced[s]
            for trumps in (self.trump_held(s),)
        )
        if counts != self.trump_counts:
            self.trump_counts = counts
            if counts:  # nobody left to report on once all four are void
                events.append(TrumpCounts(counts))

    # time-outs and 托管

    def _on_auto(self, action: Action) -> list[Event]:
        if not isinstance(action.on, bool):
            raise IllegalAction("bad_action", "auto needs on: true or false", on=action.on)
        self._running()
        if self.auto[action.seat] == action.on:
            return []
        self.auto[action.seat] = action.on
        return [AutoChanged(action.seat, action.on)]

    def _on_timeout(self, action: Action) -> list[Event]:
        self._running()
        seat = action.seat
        self._turn(seat)
        self.timeouts[seat] += 1
        events: list[Event] = [TimedOut(seat, self.timeouts[seat])]
        if self.timeouts[seat] >= TIMEOUTS_FOR_AUTO and not self.auto[seat]:
            self.auto[seat] = True
            events.append(AutoChanged(seat, True))
        if self.phase == BIDDING:
            if self.may_pass_bidding():
                self._pass_bid(seat, events)
            else:
                self._bid(seat, self.allowed_bids()[0], events)
        elif self.phase == TRUMP_PHASE:
            self._name_trump(auto_trump(self.hands[seat]), events)
        elif self.phase == BURY:
            lowest = sorted(self.hands[seat], key=self.order.key.__getitem__)[:BOTTOM_SIZE]
            self._bury(seat, tuple(lowest), events)
        else:
            if self.bonus_window_open(seat):
                bonus = bonus_of(self.hands[seat], self.trump)
                if bonus is not None:
                    self.bonuses[seat] = bonus
                    events.append(BonusDeclared(seat, bonus.name, bonus.value, bonus.cards))
            cards = self.smallest_play(seat)
            shape = None
            if self.lead_shape is None:
                shape = shape_of(cards, self.order)
            self._play(seat, cards, shape, events)
        return events

    def smallest_play(self, seat: int) -> tuple[Card, ...]:
        """托管: the smallest legal play (a lead: the lowest single)."""
        hand = self.hands[seat]
        if self.lead_shape is None:
            return (min(hand, key=self.order.key.__getitem__),)
        assert self.lead_suit is not None
        held = self.suit_cards(seat, self.lead_suit)
        return smallest_follow(hand, held, self.lead_shape, self.lead_suit, self.order)

    # the end

    def _finish(self, events: list[Event]) -> None:
        self.phase = OVER
        self.result = self._result()
        events.append(HandEnded(self.result))

    def _result(self) -> dict[str, Any]:
        assert self.declarer is not None and self.bid is not None
        declarer, bid = self.declarer, self.bid
        # Before burying (a surrender) the bottom is still the one dealt.
        bottom_points = sum(c.points for c in (self.buried or self.deal.bottom))
        multiplier = 0
        last_winner: int | None = None
        if self.surrendered:
            points = bid
            declarer_won = False
        else:
            assert self.best is not None
            last_winner = self.best[0]
            multiplier = self._bottom_multiplier(last_winner)
            points = self.trick_points_for_defenders + bottom_points * multiplier
            declarer_won = not defenders_win(points, bid)
        amount = SCORING[self.rules.scoring](bid, points)
        bonuses = self._settled_bonuses()
        per_seat = stakes(declarer, amount)
        bonus = bonus_payments([(b["seat"], b["value"]) for b in bonuses])
        return {
            "declarer": declarer,
            "bid": bid,
            "trump": "none" if self.trump_named and self.trump is None else self.trump,
            "surrendered": self.surrendered,
            "defender_points": points,
            "bottom_points": bottom_points,
            "bottom_multiplier": multiplier,
            "last_trick_winner": last_winner,
            "declarer_won": declarer_won,
            "bonuses": bonuses,
            "stakes": [format_amount(x) for x in per_seat],
            "bonus": [format_amount(x) for x in bonus],
            "total": [format_amount(a + b) for a, b in zip(per_seat, bonus, strict=True)],
        }

    def _bottom_multiplier(self, winner: int) -> int:
        if winner == self.declarer:
            return 0
        cards = dict(self.trick)[winner]
        if self.rules.bottom_needs_trump and any(self.order.suit[c] != TRUMP for c in cards):
            return 0
        largest = shape_of(cards, self.order).largest_component_cards()
        if self.rules.bottom_multiplier == "doubling":
            return int(2 ** (largest // 2))
        return largest

    def _settled_bonuses(self) -> list[dict[str, Any]]:
        if self.surrendered:
            # The hand ends before anyone could show more: every holder of three or four
            # jokers is paid the joker part, declared or not.
            settled = []
            for seat in range(4):
                bonus = bonus_of(self.hands[seat], None)
                if bonus is not None:
                    settled.append({"seat": seat, "name": bonus.name, "value": bonus.joker_value})
            return settled
        return [
            {"seat": seat, "name": b.name, "value": b.value}
            for seat, b in sorted(self.bonuses.items())
        ]

    def view(self, seat: int | None) -> ErqiwangView:
        return ErqiwangView(self, seat)


def auto_trump(hand: list[Card]) -> str:
    """托管 trump: the suit with the most cards (its 7s and 2s counted); ties ♠ > ♥ > ♣ > ♦."""
    counts = Counter(c.suit for c in hand if c.suit)
    return max(TRUMP_SUITS, key=lambda s: (counts[s], SUIT_ORDER[s]))


_HANDLERS = {
    "bid": ErqiwangHand._on_bid,
    "pass": ErqiwangHand._on_pass,
    "trump": ErqiwangHand._on_trump,
    "bury": ErqiwangHand._on_bury,
    "surrender": ErqiwangHand._on_surrender,
    "declare_bonus": ErqiwangHand._on_declare_bonus,
    "play": ErqiwangHand._on_play,
    "auto": ErqiwangHand._on_auto,
    "timeout": ErqiwangHand._on_timeout,
}


class ErqiwangView:
    """What a seat may know: its own hand; the bids; the bottom once shown (亮底牌); the buried
    cards only as the declarer (everyone once the hand is over); every card played; declared
    冲关 with their cards; 无主 and trump-count announcements; points won by the defenders."""

    __slots__ = (
        "auto",
        "best_seat",
        "bid",
        "bids",
        "bonuses",
        "bottom_shown",
        "buried",
        "counts",
        "declarer",
        "defender_points",
        "first",
        "hand",
        "last_trick",
        "order",
        "phase",
        "played_cards",
        "result",
        "rules",
        "seat",
        "timeouts",
        "to_act",
        "trick",
        "tricks",
        "tricks_done",
        "trump",
        "trump_counts",
        "trump_named",
        "void",
    )  # fmt: skip

    def __init__(self, state: ErqiwangHand, seat: int | None) -> None:
        self.seat = seat
        self.rules = state.rules
        self.order = state.order
        self.phase = state.phase
        self.first = state.first
        self.to_act = state.to_act
        self.hand: tuple[Card, ...] = () if seat is None else state.hand(seat)
        self.bids = list(state.bids)
        self.declarer = state.declarer
        self.bid = state.bid
        self.trump = state.trump
        self.trump_named = state.trump_named
        self.bottom_shown: tuple[Card, ...] = (
            state.deal.bottom if state.declarer is not None else ()
        )
        visible = state.over or (seat is not None and seat == state.declarer)
        self.buried: tuple[Card, ...] = state.buried if visible else ()
        self.trick = list(state.trick)
        self.last_trick = list(state.last_trick)
        self.played_cards = tuple(state.played_cards)
        self.counts = [len(h) for h in state.hands]
        self.defender_points = state.trick_points_for_defenders
        self.bonuses = {s: (b.name, b.value, b.cards) for s, b in sorted(state.bonuses.items())}
        self.void = list(state.void_announced)
        self.trump_counts = state.trump_counts
        self.auto = list(state.auto)
        self.timeouts = list(state.timeouts)
        self.tricks_done = state.tricks_done
        self.tricks = list(state.tricks)
        self.best_seat = None if state.best is None else state.best[0]
        """Who is winning the trick in progress."""
        self.result = state.result

    def known_cards(self) -> tuple[Card, ...]:
        """Every card this view shows of any hand (for the no-leak checks)."""
        cards = list(self.hand) + list(self.bottom_shown) + list(self.buried)
        for _, _, shown in self.bonuses.values():
            cards.extend(shown)
        return tuple(cards)

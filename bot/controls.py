"""Buttons for a seat's private hand message, described neutrally.

Cards are chosen into a *selection* kept by the table (`Selection`), one press at a time:
四团 by rank (press a rank, then how many of it), 二七王 card by card. ``/go`` plays — or, while
burying, buries — the selection. Every adapter turns these buttons into its own widgets and
every press back into the same text command, so buttons and typed commands meet in one place.

Buttons carry a stamp (`Stamp`): the table, the hand and, for buttons that act on the game's
turn, the turn they belong to. A press whose stamp is not current is refused without effect.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from bot.i18n import N_, t
from bot.outgoing import Button
from bot.render import card_text, rank_text
from engine.cards import Card, parse_card
from engine.erqiwang import ErqiwangHand
from engine.erqiwang.bonus import bonus_of
from engine.situan import RANKS, SituanHand

ROW = 6
"""Buttons per row: Telegram shows up to 8, Discord 5 (its adapter re-flows rows)."""


@dataclass(frozen=True)
class Stamp:
    """What a button belongs to: ``table`` (this match), ``hand``, and ``turn`` (or None for
    buttons that stay valid through the whole hand: picking cards, 托管, 冲关, 亮牌)."""

    table: str
    hand: int
    turn: int | None = None

    def text(self) -> str:
        return f"{self.table}.{self.hand}" + ("" if self.turn is None else f".{self.turn}")

    @staticmethod
    def read(text: str) -> Stamp | None:
        parts = text.split(".")
        if len(parts) not in (2, 3) or not all(p.isdigit() for p in parts[1:]) or not parts[0]:
            return None
        return Stamp(parts[0], int(parts[1]), int(parts[2]) if len(parts) == 3 else None)


@dataclass
class Selection:
    """A seat's chosen cards, not yet played: counts by rank (四团) or by card (二七王), and
    the 四团 rank whose count is being chosen."""

    counts: Counter[str] = field(default_factory=Counter)
    open_rank: str | None = None

    def tokens(self) -> tuple[str, ...]:
        return tuple(token for token, n in self.counts.items() for _ in range(n))

    def size(self) -> int:
        return sum(self.counts.values())


def pick(selection: Selection, args: tuple[str, ...], held: Counter[str], by_rank: bool) -> None:
    """Apply one ``/pick`` press. 四团: ``/pick 7`` opens rank 7's count choice, ``/pick 7 3``
    chooses three 7s. 二七王: ``/pick S10`` adds one ♠10, or, when every ♠10 held is chosen
    already, takes them all back out."""
    token = args[0].upper() if args else ""
    if token not in held:
        raise ValueError(token)
    if by_rank:
        if len(args) == 1:
            selection.open_rank = None if selection.open_rank == token else token
            return
        if not args[1].isdigit() or int(args[1]) > held[token]:
            raise ValueError(args[1])
        selection.counts[token] = int(args[1])
        selection.open_rank = None
    elif selection.counts[token] < held[token]:
        selection.counts[token] += 1
    else:
        del selection.counts[token]
    selection.counts = +selection.counts  # drop zero counts


def held_tokens(hand: Any, seat: int) -> Counter[str]:
    """What a seat may pick: 四团 ranks (``LJ``, ``10``…), 二七王 cards (``S10``)."""
    cards: tuple[Card, ...] = hand.hand(seat)
    if isinstance(hand, SituanHand):
        return Counter(c.rank for c in cards)
    return Counter(str(c) for c in cards)


def _rows(buttons: list[Button]) -> list[tuple[Button, ...]]:
    return [tuple(buttons[i : i + ROW]) for i in range(0, len(buttons), ROW)]


def hand_buttons(
    lang: str, hand: Any, seat: int, selection: Selection, whole_hand: Stamp, this_turn: Stamp
) -> tuple[tuple[Button, ...], ...]:
    """The controls under a seat's private hand message, for the hand's current state."""
    if hand.over:
        return ()
    if isinstance(hand, SituanHand):
        rows = _situan_rows(lang, hand, seat, selection, whole_hand, this_turn)
    else:
        rows = _erqiwang_rows(lang, hand, seat, selection, whole_hand, this_turn)
    auto = bool(hand.auto[seat])
    toggle = Button(
        t(lang, N_("托管 off")) if auto else t(lang, N_("托管 on")),
        "/auto off" if auto else "/auto on",
        whole_hand.text(),
    )
    rows.append((toggle,))
    return tuple(rows)


def _situan_rows(
    lang: str, hand: SituanHand, seat: int, selection: Selection, whole: Stamp, turn: Stamp
) -> list[tuple[Button, ...]]:
    held = held_tokens(hand, seat)
    rows: list[tuple[Button, ...]] = []
    if hand.phase == "show_pick":
        if hand.show_by == seat:
            rows.append(
                (
                    Button(t(lang, N_("Show my hand")), "/reveal me", turn.text()),
                    Button(t(lang, N_("Show my partner's hand")), "/reveal partner", turn.text()),
                )
            )
        return rows
    ranks = [rank for rank in RANKS if held[rank]]
    labels = []
    for rank in ranks:
        chosen = selection.counts[rank]
        label = rank_text(lang, rank) + (f"×{held[rank]}" if held[rank] > 1 else "")
        shown = f"[{label}]" if chosen else label
        labels.append(Button(shown, f"/pick {rank}", whole.text(), group="rank"))
    rows += _rows(labels)
    if selection.open_rank is not None and held[selection.open_rank]:
        rank = selection.open_rank
        counts = [
            Button(
                f"{rank_text(lang, rank)}×{n}" if n else "0",
                f"/pick {rank} {n}",
                whole.text(),
                group="count",
            )
            for n in range(0, held[rank] + 1)
        ]
        rows += _rows(counts)
    actions: list[Button] = []
    if hand.turn == seat:
        if selection.size():
            actions.append(Button(t(lang, N_("Play")), "/go", turn.text()))
        if hand.can_pass:
            actions.append(Button(t(lang, "pass"), "/pass", turn.text()))
    if selection.size():
        actions.append(Button(t(lang, N_("Clear")), "/clear", whole.text()))
    if hand.show_by is None and held:
        actions.append(Button(t(lang, N_("亮牌")), "/show", whole.text()))
    if actions:
        rows.append(tuple(actions))
    return rows


SUIT_BUTTONS = (("S", "♠"), ("H", "♥"), ("C", "♣"), ("D", "♦"))


def _erqiwang_rows(
    lang: str, hand: ErqiwangHand, seat: int, selection: Selection, whole: Stamp, turn: Stamp
) -> list[tuple[Button, ...]]:
    rows: list[tuple[Button, ...]] = []
    acting = hand.to_act == seat
    if hand.phase == "bidding":
        if acting:
            bids = [
                Button(str(p), f"/bid {p}", turn.text(), group="bid")
                for p in reversed(hand.allowed_bids())
            ]
            rows += _rows(bids)
            if hand.may_pass_bidding():
                rows.append((Button(t(lang, "pass"), "/pass", turn.text()),))
        return rows
    if hand.phase == "trump":
        if acting:
            suits = [Button(symbol, f"/trump {suit}", turn.text()) for suit, symbol in SUIT_BUTTONS]
            if hand.rules.allow_no_trump:
                suits.append(Button(t(lang, "no trump"), "/trump none", turn.text()))
            rows.append(tuple(suits))
            rows += _surrender_row(lang, hand, seat, turn)
        return rows
    held = held_tokens(hand, seat)
    picking = acting and hand.phase in ("bury", "play")
    if picking:
        cards = []
        for c in dict.fromkeys(hand.hand(seat)):
            token, chosen = str(c), selection.counts[str(c)]
            label = card_text(lang, c) + ("×2" if held[token] == 2 else "")
            suit = "T" if hand.order.is_trump(c) else c.suit
            shown = f"[{label}]" if chosen else label
            cards.append(Button(shown, f"/pick {token}", whole.text(), group=f"card:{suit}"))
        rows += _rows(cards)
    actions: list[Button] = []
    if picking and selection.size():
        verb = N_("Bury") if hand.phase == "bury" else N_("Play")
        actions.append(Button(t(lang, verb), "/go", turn.text()))
        actions.append(Button(t(lang, N_("Clear")), "/clear", whole.text()))
    if hand.bonus_window_open(seat) and bonus_of(hand.hands[seat], hand.trump) is not None:
        actions.append(Button(t(lang, N_("冲关")), "/bonus", whole.text()))
    if actions:
        rows.append(tuple(actions))
    if acting:
        rows += _surrender_row(lang, hand, seat, turn)
    return rows


def _surrender_row(
    lang: str, hand: ErqiwangHand, seat: int, turn: Stamp
) -> list[tuple[Button, ...]]:
    may = (
        seat == hand.declarer
        and hand.bid is not None
        and hand.bid > hand.rules.surrender_above
        and not any(hand.has_played)
    )
    return [(Button(t(lang, N_("Surrender")), "/surrender", turn.text()),)] if may else []


def selection_text(lang: str, hand: Any, selection: Selection) -> str:
    """The chosen cards as a line under the hand (empty when nothing is chosen)."""
    if not selection.size():
        return ""
    if isinstance(hand, SituanHand):
        shown = " ".join(
            rank_text(lang, rank) + (f"×{n}" if n > 1 else "")
            for rank, n in selection.counts.items()
        )
    else:
        shown = " ".join(
            " ".join([card_text(lang, parse_card(token))] * n)
            for token, n in selection.counts.items()
        )
    return t(lang, N_("Chosen: {cards}"), cards=shown)

"""Actions: what a seat does, one small immutable value per kind, shared by both games.

Each kind has the hand-record form of ``hand-record.md`` both ways (`to_json`,
`action_from_json`). A game accepts the kinds it knows and refuses the others as
``bad_action``; which values are legal *now* is the hand's to say (`legal_actions`, `check`).

>>> Bid(2, 75).to_json()
{'seat': 2, 'act': 'bid', 'points': 75}
>>> action_from_json({"seat": 1, "act": "pass"})
Pass(seat=1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, get_args

from engine.cards import (
    JOKER_RANKS,
    NATURAL_RANKS,
    Card,
    parse_cards,
    parse_cards_or_ranks,
    split_tokens,
)
from engine.errors import RecordError
from engine.slots import slot_setters

RANK_NAMES = frozenset(NATURAL_RANKS + JOKER_RANKS)


@dataclass(frozen=True, slots=True)
class Play:
    """Lead or follow. ``cards`` names exact cards; in 四团, where suits never matter, a play
    may name ``ranks`` alone (``("7", "7", "7", "7")``) and the engine takes those ranks from
    the hand."""

    seat: int
    cards: tuple[Card, ...] = ()
    ranks: tuple[str, ...] = ()
    act: ClassVar[str] = "play"

    def __init__(
        self, seat: int, cards: tuple[Card, ...] = (), ranks: tuple[str, ...] = ()
    ) -> None:
        set_seat, set_cards, set_ranks = _PLAY_FIELDS  # `engine.slots`: the most made action
        set_seat(self, seat)
        set_cards(self, cards)
        set_ranks(self, ranks)

    def to_json(self) -> dict[str, Any]:
        texts = [c.text for c in self.cards] if self.cards else list(self.ranks)
        return {"seat": self.seat, "act": "play", "cards": texts}


_PLAY_FIELDS = slot_setters(Play)


@dataclass(frozen=True, slots=True)
class Pass:
    """四团: pass this turn (不要); 二七王 bidding: pass."""

    seat: int
    act: ClassVar[str] = "pass"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "pass"}


@dataclass(frozen=True, slots=True)
class Bid:
    """二七王 叫分: the points the defenders must reach."""

    seat: int
    points: int
    act: ClassVar[str] = "bid"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "bid", "points": self.points}


@dataclass(frozen=True, slots=True)
class NameTrump:
    """二七王: the declarer names the trump suit (``S H C D``) or ``none`` (全常主)."""

    seat: int
    suit: str
    act: ClassVar[str] = "trump"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "trump", "suit": self.suit}


@dataclass(frozen=True, slots=True)
class Bury:
    """二七王 扣底: the declarer buries as many cards as the bottom held."""

    seat: int
    cards: tuple[Card, ...]
    act: ClassVar[str] = "bury"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "bury", "cards": [c.text for c in self.cards]}


@dataclass(frozen=True, slots=True)
class Surrender:
    """二七王 投降: the declarer gives the hand up before the first card."""

    seat: int
    act: ClassVar[str] = "surrender"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "surrender"}


@dataclass(frozen=True, slots=True)
class DeclareBonus:
    """二七王 叫冲关."""

    seat: int
    act: ClassVar[str] = "declare_bonus"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "declare_bonus"}


@dataclass(frozen=True, slots=True)
class StartShow:
    """四团 亮牌: initiator and partner see each other's hands."""

    seat: int
    act: ClassVar[str] = "show_start"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "show_start"}


@dataclass(frozen=True, slots=True)
class AnswerShow:
    """四团 亮牌 under ``show_consent = partner``: the partner accepts the show or refuses it."""

    seat: int
    accept: bool
    act: ClassVar[str] = "show_answer"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "show_answer", "accept": self.accept}


@dataclass(frozen=True, slots=True)
class PickShow:
    """四团 亮牌: whoever picks (the initiator; under ``show_consent = partner`` the partner)
    chooses whose hand is revealed, the initiator's or the partner's."""

    seat: int
    reveal: int
    act: ClassVar[str] = "show_pick"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "show_pick", "reveal": self.reveal}


@dataclass(frozen=True, slots=True)
class Auto:
    """托管 on or off, asked by the player."""

    seat: int
    on: bool
    act: ClassVar[str] = "auto"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "auto", "on": self.on}


@dataclass(frozen=True, slots=True)
class Timeout:
    """The table acts for the seat — at its time limit, or at once while it is on 托管 —
    and the engine resolves the auto-play the rules define."""

    seat: int
    act: ClassVar[str] = "timeout"

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "act": "timeout"}


Action = (
    Play
    | Pass
    | Bid
    | NameTrump
    | Bury
    | Surrender
    | DeclareBonus
    | StartShow
    | AnswerShow
    | PickShow
    | Auto
    | Timeout
)
ACTION_KINDS: dict[str, type[Action]] = {kind.act: kind for kind in get_args(Action)}
"""Each kind of `Action` by its record name (``act``)."""


A = TypeVar("A", Surrender, DeclareBonus, StartShow, Auto)
ASIDE_KINDS: tuple[type[Action], ...] = (Surrender, DeclareBonus, StartShow, Auto)
"""What a seat may do besides its turn's own choice. Both games list these after the turn's
choices (`legal_actions`), so they are found at the end of the list."""


def listed_aside(legal: Sequence[Action], kind: type[A]) -> A | None:
    """The listed action of one of the `ASIDE_KINDS`, looked for from the end of ``legal``
    only as far as they go: a seat's turn may list hundreds of plays before them."""
    # A listing that makes its plays only when read keeps the other actions apart (`others`):
    # looking there lists no play.
    others: Sequence[Action] | None = getattr(legal, "others", None)
    for action in reversed(legal if others is None else others):
        if type(action) is kind:
            return action
        if type(action) not in ASIDE_KINDS:
            return None
    return None


def read_card_tokens(raw: Any) -> list[str] | None:
    """A ``cards`` field: a list of texts or one string, cut into tokens at spaces and commas
    (``["S10 H10"]`` is two tokens; ``"S10H10"`` one token of two cards); None when it is
    neither a string nor a list of strings."""
    if isinstance(raw, str):
        return split_tokens(raw)
    if not isinstance(raw, list) or not all(isinstance(t, str) for t in raw):
        return None
    return split_tokens(raw)


def read_play(seat: int, tokens: list[str], by_rank: bool) -> Play:
    """A play's cards, written apart or together (`engine.cards.parse_cards`): exact cards,
    or — where ``by_rank`` (四团) — ranks alone (``7777``, ``10 10``); one bare rank makes
    the whole play a play by ranks. An unknown token raises `RecordError` naming it."""
    if not by_rank:
        return Play(seat, cards=tuple(parse_cards(tokens)))
    parsed = parse_cards_or_ranks(tokens)
    if all(isinstance(p, Card) for p in parsed):
        return Play(seat, cards=tuple(p for p in parsed if isinstance(p, Card)))
    return Play(seat, ranks=tuple(p if isinstance(p, str) else p.rank for p in parsed))


def action_from_json(raw: Any, by_rank: bool = False) -> Action:
    """An action from its record form. One that is not a well-formed action raises
    `RecordError` ``bad_action`` (a replay makes that its verdict); unknown cards raise
    `RecordError` ``unknown_card``: the record is malformed."""
    if not isinstance(raw, dict):
        raise _not_an_action("an action is an object")
    seat, act = raw.get("seat"), raw.get("act")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        raise _not_an_action(f"no seat {seat!r}")
    kind = ACTION_KINDS.get(act) if isinstance(act, str) else None
    if kind is None:
        raise _not_an_action(f"{act!r} is not an action")
    if kind is Play or kind is Bury:
        tokens = read_card_tokens(raw.get("cards"))
        if tokens is None:
            raise _not_an_action("cards must be a list of card texts")
        if kind is Bury:
            return Bury(seat, tuple(parse_cards(tokens)))
        return read_play(seat, tokens, by_rank)
    if kind is Bid:
        points = raw.get("points")
        if not isinstance(points, int) or isinstance(points, bool):
            raise _not_an_action("a bid is a number of points")
        return Bid(seat, points)
    if kind is NameTrump:
        suit = raw.get("suit")
        if not isinstance(suit, str):
            raise _not_an_action("trump needs a suit")
        return NameTrump(seat, suit)
    if kind is PickShow:
        reveal = raw.get("reveal")
        if not isinstance(reveal, int) or isinstance(reveal, bool) or not 0 <= reveal < 4:
            raise _not_an_action("reveal names a seat")
        return PickShow(seat, reveal)
    if kind is AnswerShow:
        accept = raw.get("accept")
        if not isinstance(accept, bool):
            raise _not_an_action("show_answer needs accept: true or false")
        return AnswerShow(seat, accept)
    if kind is Auto:
        on = raw.get("on")
        if not isinstance(on, bool):
            raise _not_an_action("auto needs on: true or false")
        return Auto(seat, on)
    return kind(seat)  # type: ignore[call-arg]


def _not_an_action(why: str) -> RecordError:
    return RecordError("bad_action", why)

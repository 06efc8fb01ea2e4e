"""The two games behind one interface, so the table does not care which it hosts."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Protocol

from engine.ai.erqiwang import ErqiwangAI
from engine.ai.situan import SituanAI
from engine.cards import Card, parse_cards
from engine.erqiwang import Action as ErqiwangAction
from engine.erqiwang import ErqiwangHand
from engine.erqiwang import Rules as ErqiwangRules
from engine.erqiwang import record as erqiwang_record
from engine.erqiwang.series import next_first_bidder
from engine.errors import RecordError
from engine.situan import Action as SituanAction
from engine.situan import Rules as SituanRules
from engine.situan import SituanHand
from engine.situan import record as situan_record
from engine.situan.series import next_carry, next_leader

Hand = SituanHand | ErqiwangHand


class BadInput(Exception):
    """A command whose arguments cannot be read; ``key`` is a message id for the player."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class GameDriver(Protocol):
    name: str
    default_preset: str

    def rules(self, preset: str, options: dict[str, Any]) -> Any: ...
    def new_hand(self, rules: Any, seed: int, first: int | None, carry: Any) -> Hand: ...
    def start_record(self, hand: Hand) -> dict[str, Any]: ...
    def hand_from_start(self, start: dict[str, Any]) -> Hand: ...
    def action_from_json(self, raw: dict[str, Any]) -> Any: ...
    def action_to_json(self, action: Any) -> dict[str, Any]: ...
    def to_act(self, hand: Hand) -> int | None: ...
    def command_action(self, hand: Hand, seat: int, name: str, args: tuple[str, ...]) -> Any: ...
    def timeout(self, seat: int) -> Any: ...
    def auto_mark(self, seat: int, on: bool) -> Any: ...
    def ai_action(self, hand: Hand, seat: int) -> Any: ...
    def next_hand(self, result: dict[str, Any], first: int) -> tuple[int | None, Any]: ...
    def is_redeal(self, result: dict[str, Any]) -> bool: ...


def _cards(args: tuple[str, ...]) -> tuple[Card, ...]:
    try:
        return tuple(parse_cards(" ".join(args)))
    except RecordError as error:
        raise BadInput("Unknown card: {token}", token=error.facts.get("token", "")) from None


class RecordedGame:
    """What both games' drivers do the same way, through their record module: a hand's start
    as stored, and actions to and from their JSON form."""

    record: Any
    """The game's record module (`engine.situan.record`, `engine.erqiwang.record`)."""

    def start_record(self, hand: Hand) -> dict[str, Any]:
        record: dict[str, Any] = self.record.record_of(hand)
        record.pop("actions")
        return record

    def hand_from_start(self, start: dict[str, Any]) -> Hand:
        hand: Hand = self.record.hand_from_record(start)
        return hand

    def action_from_json(self, raw: dict[str, Any]) -> Any:
        action = self.record.read_action(raw)
        assert not isinstance(action, str), action
        return action

    def action_to_json(self, action: Any) -> dict[str, Any]:
        out: dict[str, Any] = self.record.action_to_json(action)
        return out


class SituanDriver(RecordedGame):
    name = "situan"
    default_preset = "nanchang"
    record = situan_record

    def __init__(self) -> None:
        self.ai = SituanAI()

    def rules(self, preset: str, options: dict[str, Any]) -> SituanRules:
        return SituanRules.from_preset(preset, **options)

    def new_hand(self, rules: Any, seed: int, first: int | None, carry: Any) -> Hand:
        return SituanHand.from_seed(rules, seed, first, carry)

    def to_act(self, hand: Hand) -> int | None:
        assert isinstance(hand, SituanHand)
        if hand.over:
            return None
        return hand.show_by if hand.phase == "show_pick" else hand.turn

    def command_action(self, hand: Hand, seat: int, name: str, args: tuple[str, ...]) -> Any:
        assert isinstance(hand, SituanHand)
        if name == "play":
            if not args:
                raise BadInput("Say which cards to play, e.g. /play 7777")
            try:
                cards, ranks = situan_record.read_play_cards(list(args))
            except RecordError as error:
                token = error.facts.get("token", "")
                raise BadInput("Unknown card: {token}", token=token) from None
            return SituanAction(seat, "play", cards=cards, ranks=ranks)
        if name == "pass":
            return SituanAction(seat, "pass")
        if name == "show":
            return SituanAction(seat, "show_start")
        if name == "reveal":
            choice = args[0].lower() if args else ""
            if choice not in ("me", "partner"):
                raise BadInput("Say /reveal me or /reveal partner")
            return SituanAction(
                seat, "show_pick", reveal=seat if choice == "me" else (seat + 2) % 4
            )
        raise BadInput("That command is not used in this game.")

    def timeout(self, seat: int) -> Any:
        return SituanAction(seat, "timeout")

    def auto_mark(self, seat: int, on: bool) -> Any:
        return SituanAction(seat, "auto", on=on)

    def ai_action(self, hand: Hand, seat: int) -> Any:
        assert isinstance(hand, SituanHand)
        return self.ai.decide(hand.view(seat))

    def next_hand(self, result: dict[str, Any], first: int) -> tuple[int | None, Any]:
        return next_leader(result), next_carry(result)

    def is_redeal(self, result: dict[str, Any]) -> bool:
        return False


class ErqiwangDriver(RecordedGame):
    name = "erqiwang"
    default_preset = "classic"
    record = erqiwang_record

    def __init__(self) -> None:
        self.ai = ErqiwangAI()

    def rules(self, preset: str, options: dict[str, Any]) -> ErqiwangRules:
        return ErqiwangRules.from_preset(preset, **options)

    def new_hand(self, rules: Any, seed: int, first: int | None, carry: Any) -> Hand:
        return ErqiwangHand.from_seed(rules, seed, first or 0)

    def to_act(self, hand: Hand) -> int | None:
        assert isinstance(hand, ErqiwangHand)
        return None if hand.over else hand.to_act

    def command_action(self, hand: Hand, seat: int, name: str, args: tuple[str, ...]) -> Any:
        assert isinstance(hand, ErqiwangHand)
        if name == "play":
            if not args:
                raise BadInput("Say which cards to play, e.g. /play S10 S10")
            return ErqiwangAction(seat, "play", cards=_cards(args))
        if name == "bury":
            return ErqiwangAction(seat, "bury", cards=_cards(args))
        if name == "pass":
            return ErqiwangAction(seat, "pass")
        if name == "bid":
            if len(args) != 1 or not args[0].isdigit():
                raise BadInput("Say how many points to bid, e.g. /bid 75")
            return ErqiwangAction(seat, "bid", points=int(args[0]))
        if name == "trump":
            suit = args[0].upper() if args else ""
            suit = {"♠": "S", "♥": "H", "♣": "C", "♦": "D", "NONE": "none"}.get(suit, suit)
            if suit not in ("S", "H", "C", "D", "none"):
                raise BadInput("Say the trump suit: /trump S, H, C, D or none")
            return ErqiwangAction(seat, "trump", suit=suit)
        if name == "surrender":
            return ErqiwangAction(seat, "surrender")
        if name == "bonus":
            return ErqiwangAction(seat, "declare_bonus")
        raise BadInput("That command is not used in this game.")

    def timeout(self, seat: int) -> Any:
        return ErqiwangAction(seat, "timeout")

    def auto_mark(self, seat: int, on: bool) -> Any:
        return ErqiwangAction(seat, "auto", on=on)

    def ai_action(self, hand: Hand, seat: int) -> Any:
        assert isinstance(hand, ErqiwangHand)
        return self.ai.decide(hand.view(seat))

    def next_hand(self, result: dict[str, Any], first: int) -> tuple[int | None, Any]:
        return next_first_bidder(result, first), None

    def is_redeal(self, result: dict[str, Any]) -> bool:
        return bool(result.get("redeal"))


DRIVERS: dict[str, GameDriver] = {"situan": SituanDriver(), "erqiwang": ErqiwangDriver()}


def settlement(result: dict[str, Any]) -> list[Fraction]:
    """Each seat's total for the hand (result, bonus lines included), in units."""
    if result.get("redeal"):
        return [Fraction(0)] * 4
    return [Fraction(x) for x in result["total"]]

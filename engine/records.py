"""What reading and replaying a hand record has in common for both games."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from engine.actions import Action
from engine.cards import Card, parse_cards
from engine.errors import IllegalAction, RecordError


class Replayable(Protocol):
    def apply(self, action: Any) -> list[Any]: ...


def read_cards(tokens: list[Any]) -> tuple[Card, ...]:
    """A list of card texts, each holding one card or several written apart or together."""
    for token in tokens:
        if not isinstance(token, str):
            raise RecordError("unknown_card", f"unknown card {token!r}", token=token)
    return tuple(parse_cards(tokens))


def read_dealt_cards(
    raw: Any, hand_size: int, bottom_size: int, deck: Sequence[Card], game: str
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Hands and bottom from a record's ``deal``; wrong shapes or card counts: ``bad_deal``."""
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), list):
        raise RecordError("bad_deal", "deal needs hands (4 lists) and a bottom")
    hands_raw, bottom_raw = raw["hands"], raw.get("bottom")
    if len(hands_raw) != 4 or not isinstance(bottom_raw, list):
        raise RecordError("bad_deal", "deal needs 4 hands and a bottom")
    if not all(isinstance(h, list) for h in hands_raw):
        raise RecordError("bad_deal", "each hand is a list of cards")
    hands = tuple(read_cards(h) for h in hands_raw)
    bottom = read_cards(bottom_raw)
    if any(len(h) != hand_size for h in hands) or len(bottom) != bottom_size:
        raise RecordError(
            "bad_deal",
            f"{game} deals {hand_size} cards to each seat and {bottom_size} to the bottom",
        )
    expected = Counter(deck)
    dealt = Counter(c for h in hands for c in h) + Counter(bottom)
    if dealt != expected:
        extra = " ".join(sorted(c.text for c in (dealt - expected).elements()))
        missing = " ".join(sorted(c.text for c in (expected - dealt).elements()))
        raise RecordError(
            "bad_deal", f"the deal is not the {game} deck (extra: {extra}; missing: {missing})"
        )
    return hands, bottom


def read_rules_spec(raw: Any, default_preset: str) -> tuple[str, dict[str, Any]]:
    """A record's ``rules``: (preset name, option overrides)."""
    if raw is None:
        return default_preset, {}
    if not isinstance(raw, dict):
        raise RecordError("bad_rules", "rules is an object with preset and options")
    options = raw.get("options") or {}
    preset = raw.get("preset", default_preset)
    if not isinstance(options, dict) or not isinstance(preset, str):
        raise RecordError("bad_rules", "rules is an object with preset and options")
    return preset, options


def read_seat(value: Any, field: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 4:
        raise RecordError("bad_record", f"{field} must be a seat 0-3")
    return value


def deal_or_seed(
    record: dict[str, Any], read_deal: Callable[[Any], Any], from_seed: Callable[[int | str], Any]
) -> Any:
    """The deal a record names, or the one its ``seed`` shuffles."""
    if "deal" in record:
        return read_deal(record["deal"])
    seed = record.get("seed")
    if isinstance(seed, (int, str)) and not isinstance(seed, bool):
        return from_seed(seed)
    raise RecordError("bad_record", "a record needs a deal or a seed")


def read_actions(read: Callable[[Any], Action], raws: Sequence[Any]) -> list[Action | RecordError]:
    """Every action of a record read, or the `RecordError` ``bad_action`` that says why it is
    not one (its verdict); any other error — an unknown card — leaves the record unread."""
    parsed: list[Action | RecordError] = []
    for raw in raws:
        try:
            parsed.append(read(raw))
        except RecordError as error:
            if error.code != "bad_action":
                raise
            parsed.append(error)
    return parsed


def replay_actions(
    hand: Replayable, parsed: Sequence[Action | RecordError]
) -> list[dict[str, Any]]:
    """Apply parsed actions in order; each gets a verdict, and a refused one changes nothing.
    A `RecordError` in ``parsed`` is why that action was not well-formed (``bad_action``)."""
    verdicts: list[dict[str, Any]] = []
    for action in parsed:
        if isinstance(action, RecordError):
            verdicts.append({"ok": False, "error": action.code, "message": action.message})
            continue
        try:
            hand.apply(action)
        except IllegalAction as refusal:
            verdicts.append({"ok": False, "error": refusal.code, "message": refusal.message})
        else:
            verdicts.append({"ok": True})
    return verdicts

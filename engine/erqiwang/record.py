"""二七王 hand records (hand-record.md): reading, writing and replaying them."""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.cards import Card, parse_card
from engine.erqiwang.actions import Action
from engine.erqiwang.deal import BOTTOM_SIZE, HAND_SIZE, Deal, deal_from_seed, erqiwang_deck
from engine.erqiwang.rules import Rules
from engine.erqiwang.state import ErqiwangHand
from engine.errors import IllegalAction, RecordError

_DECK_COUNTS = Counter(erqiwang_deck())
_CARD_ACTS = ("play", "bury")


def _read_card(token: Any) -> Card:
    if not isinstance(token, str):
        raise RecordError("unknown_card", f"unknown card {token!r}", token=token)
    return parse_card(token)


def read_cards(raw: Any) -> tuple[Card, ...] | None:
    """Cards of an action (a list of texts, or one string); None when not a list of texts."""
    tokens = raw.replace(",", " ").split() if isinstance(raw, str) else raw
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        return None
    return tuple(parse_card(t) for t in tokens)


def read_deal(raw: Any) -> Deal:
    if not isinstance(raw, dict) or not isinstance(raw.get("hands"), list):
        raise RecordError("bad_deal", "deal needs hands (4 lists) and a bottom")
    hands_raw, bottom_raw = raw["hands"], raw.get("bottom")
    if len(hands_raw) != 4 or not isinstance(bottom_raw, list):
        raise RecordError("bad_deal", "deal needs 4 hands and a bottom")
    if not all(isinstance(h, list) for h in hands_raw):
        raise RecordError("bad_deal", "each hand is a list of cards")
    hands = tuple(tuple(_read_card(t) for t in h) for h in hands_raw)
    bottom = tuple(_read_card(t) for t in bottom_raw)
    if any(len(h) != HAND_SIZE for h in hands) or len(bottom) != BOTTOM_SIZE:
        raise RecordError(
            "bad_deal",
            f"二七王 deals {HAND_SIZE} cards to each seat and {BOTTOM_SIZE} to the bottom",
        )
    if Counter(c for h in hands for c in h) + Counter(bottom) != _DECK_COUNTS:
        raise RecordError("bad_deal", "the deal is not two full packs (108 cards)")
    return Deal(hands, bottom)


def read_rules(raw: Any) -> Rules:
    if raw is None:
        return Rules.from_preset()
    if not isinstance(raw, dict):
        raise RecordError("bad_rules", "rules is an object with preset and options")
    options = raw.get("options") or {}
    preset = raw.get("preset", "classic")
    if not isinstance(options, dict) or not isinstance(preset, str):
        raise RecordError("bad_rules", "rules is an object with preset and options")
    return Rules.from_preset(preset, **options)


def read_action(raw: Any) -> Action | str:
    """An action from its JSON form, or why it is not a well-formed 二七王 action."""
    if not isinstance(raw, dict):
        return "an action is an object"
    seat, act = raw.get("seat"), raw.get("act")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        return f"no seat {seat!r}"
    if act in _CARD_ACTS:
        cards = read_cards(raw.get("cards"))
        if cards is None:
            return "cards must be a list of card texts"
        return Action(seat, act, cards=cards)
    if act == "bid":
        return Action(seat, act, points=raw.get("points"))
    if act == "trump":
        return Action(seat, act, suit=raw.get("suit"))
    if act == "auto":
        return Action(seat, act, on=raw.get("on"))
    if act in ("pass", "surrender", "declare_bonus", "timeout"):
        return Action(seat, act)
    return f"{act!r} is not a 二七王 action"


def hand_from_record(record: dict[str, Any]) -> ErqiwangHand:
    rules = read_rules(record.get("rules"))
    if "deal" in record:
        deal = read_deal(record["deal"])
    elif isinstance(record.get("seed"), (int, str)) and not isinstance(record.get("seed"), bool):
        deal = deal_from_seed(record["seed"])
    else:
        raise RecordError("bad_record", "a record needs a deal or a seed")
    first = record.get("first", 0)
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < 4:
        raise RecordError("bad_record", "first must be a seat 0-3")
    return ErqiwangHand(rules, deal, first)


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": action.seat, "act": action.act}
    if action.cards is not None:
        out["cards"] = [c.text for c in action.cards]
    if action.act == "bid":
        out["points"] = action.points
    elif action.act == "trump":
        out["suit"] = action.suit
    elif action.act == "auto":
        out["on"] = action.on
    return out


def record_of(hand: ErqiwangHand) -> dict[str, Any]:
    return {
        "game": "erqiwang",
        "rules": {"preset": hand.rules.preset, "options": hand.rules.options()},
        "deal": {
            "hands": [[c.text for c in h] for h in hand.deal.hands],
            "bottom": [c.text for c in hand.deal.bottom],
        },
        "first": hand.first,
        "actions": [action_to_json(a) for a in hand.history],
    }


def partial_result(hand: ErqiwangHand) -> dict[str, Any]:
    if hand.result is not None:
        return hand.result
    return {
        "phase": hand.phase,
        "to_act": hand.to_act,
        "declarer": hand.declarer,
        "bid": hand.bid,
        "trump": "none" if hand.trump_named and hand.trump is None else hand.trump,
        "defender_points": hand.trick_points_for_defenders,
        "tricks": hand.tricks_done,
    }


def replay(record: dict[str, Any], raw_actions: list[Any]) -> dict[str, Any]:
    hand = hand_from_record(record)
    parsed = [read_action(raw) for raw in raw_actions]
    verdicts: list[dict[str, Any]] = []
    for action in parsed:
        if isinstance(action, str):
            verdicts.append({"ok": False, "error": "bad_action", "message": action})
            continue
        try:
            hand.apply(action)
        except IllegalAction as refusal:
            verdicts.append({"ok": False, "error": refusal.code, "message": refusal.message})
        else:
            verdicts.append({"ok": True})
    return {"actions": verdicts, "over": hand.over, "result": partial_result(hand)}

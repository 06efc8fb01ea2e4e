"""二七王 hand records (hand-record.md): reading, writing and replaying them."""

from __future__ import annotations

from typing import Any

from engine.cards import Card, parse_card
from engine.erqiwang.actions import Action
from engine.erqiwang.deal import BOTTOM_SIZE, HAND_SIZE, Deal, deal_from_seed, erqiwang_deck
from engine.erqiwang.rules import Rules
from engine.erqiwang.state import ErqiwangHand
from engine.records import (
    deal_or_seed,
    read_dealt_cards,
    read_rules_spec,
    read_seat,
    replay_actions,
)


def read_cards(raw: Any) -> tuple[Card, ...] | None:
    """Cards of an action (a list of texts, or one string); None when not a list of texts."""
    tokens = raw.replace(",", " ").split() if isinstance(raw, str) else raw
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        return None
    return tuple(parse_card(t) for t in tokens)


def read_deal(raw: Any) -> Deal:
    hands, bottom = read_dealt_cards(raw, HAND_SIZE, BOTTOM_SIZE, erqiwang_deck(), "二七王")
    return Deal(hands, bottom)


def read_rules(raw: Any) -> Rules:
    preset, options = read_rules_spec(raw, "classic")
    return Rules.from_preset(preset, **options)


def read_action(raw: Any) -> Action | str:
    """An action from its JSON form, or why it is not a well-formed 二七王 action."""
    if not isinstance(raw, dict):
        return "an action is an object"
    seat, act = raw.get("seat"), raw.get("act")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        return f"no seat {seat!r}"
    if act == "play" or act == "bury":
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
    deal = deal_or_seed(record, read_deal, deal_from_seed)
    return ErqiwangHand(rules, deal, read_seat(record.get("first", 0), "first"))


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
    verdicts = replay_actions(hand, [read_action(raw) for raw in raw_actions])
    return {"actions": verdicts, "over": hand.over, "result": partial_result(hand)}

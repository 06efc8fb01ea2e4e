"""二七王 hand records (hand-record.md): reading, writing and replaying them."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, action_from_json, read_card_tokens
from engine.cards import Card, parse_card
from engine.erqiwang.deal import BOTTOM_SIZE, HAND_SIZE, Deal, deal_from_seed, erqiwang_deck
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.rules import Rules
from engine.records import (
    deal_or_seed,
    read_dealt_cards,
    read_rules_spec,
    read_seat,
    replay_actions,
)


def read_cards(raw: Any) -> tuple[Card, ...] | None:
    """Cards of an action (a list of texts, or one string); None when not a list of texts."""
    tokens = read_card_tokens(raw)
    return None if tokens is None else tuple(parse_card(t) for t in tokens)


def read_deal(raw: Any) -> Deal:
    hands, bottom = read_dealt_cards(raw, HAND_SIZE, BOTTOM_SIZE, erqiwang_deck(), "二七王")
    return Deal(hands, bottom)


def read_rules(raw: Any) -> Rules:
    preset, options = read_rules_spec(raw, "classic")
    return Rules.from_preset(preset, **options)


def read_action(raw: Any) -> Action | str:
    """An action from its JSON form, or why it is not a well-formed 二七王 action."""
    return action_from_json(raw, by_rank=False)


def hand_from_record(record: dict[str, Any]) -> ErqiwangHand:
    rules = read_rules(record.get("rules"))
    deal = deal_or_seed(record, read_deal, deal_from_seed)
    return ErqiwangHand(rules, deal, read_seat(record.get("first", 0), "first"))


def start_record(hand: ErqiwangHand) -> dict[str, Any]:
    return {
        "game": "erqiwang",
        "rules": {"preset": hand.rules.preset, "options": hand.rules.options()},
        "deal": {
            "hands": [[c.text for c in h] for h in hand.deal.hands],
            "bottom": [c.text for c in hand.deal.bottom],
        },
        "first": hand.first,
    }


def record_of(hand: ErqiwangHand) -> dict[str, Any]:
    record = start_record(hand)
    record["actions"] = [a.to_json() for a in hand.history]
    return record


def partial_result(hand: ErqiwangHand) -> dict[str, Any]:
    if hand.result is not None:
        return hand.result.to_json()
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

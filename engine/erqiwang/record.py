"""二七王 hand records (hand-record.md): reading, writing and replaying them."""

from __future__ import annotations

from typing import Any

from engine.actions import Action, NameTrump, action_from_json, read_card_tokens
from engine.cards import Card, parse_cards, parse_suit
from engine.erqiwang.deal import Deal, bottom_size, deal_from_seed, erqiwang_deck, hand_size
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.rules import Rules
from engine.records import (
    deal_or_seed,
    read_actions,
    read_dealt_cards,
    read_rules_spec,
    read_seat,
    replay_actions,
)


def read_cards(raw: Any) -> tuple[Card, ...] | None:
    """Cards of an action (a list of texts, or one string); None when not a list of texts."""
    tokens = read_card_tokens(raw)
    return None if tokens is None else tuple(parse_cards(tokens))


def read_deal(raw: Any, decks: int = 2) -> Deal:
    """A deal of ``decks`` packs: 25 cards each and a bottom of 8, or (one deck) 12 and 6."""
    hands, bottom = read_dealt_cards(
        raw,
        hand_size(decks),
        bottom_size(decks),
        erqiwang_deck(decks),
        "二七王" if decks == 2 else "二七王 with one deck",
    )
    return Deal(hands, bottom)


def read_rules(raw: Any) -> Rules:
    preset, options = read_rules_spec(raw, "classic")
    return Rules.from_preset(preset, **options)


def read_action(raw: Any) -> Action:
    """A 二七王 action from its JSON form (`engine.actions.action_from_json`: `RecordError`
    ``bad_action`` when it is not a well-formed action, ``unknown_card`` for a card)."""
    action = action_from_json(raw, by_rank=False)
    if isinstance(action, NameTrump):
        suit = parse_suit(action.suit)  # 红桃, ♥, h …: one spelling in the record, "H"
        if suit is not None and suit != action.suit:
            return NameTrump(action.seat, suit)
    return action


def hand_from_record(record: dict[str, Any]) -> ErqiwangHand:
    rules = read_rules(record.get("rules"))
    deal = deal_or_seed(
        record,
        lambda raw: read_deal(raw, rules.decks),
        lambda seed: deal_from_seed(seed, rules.decks),
    )
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
    verdicts = replay_actions(hand, read_actions(read_action, raw_actions))
    return {"actions": verdicts, "over": hand.over, "result": partial_result(hand)}

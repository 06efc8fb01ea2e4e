"""四团 hand records (hand-record.md): reading, writing and replaying them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engine.actions import Action, Play, action_from_json, read_card_tokens, read_play
from engine.cards import Card
from engine.errors import RecordError
from engine.records import (
    deal_or_seed,
    read_actions,
    read_dealt_cards,
    read_rules_spec,
    read_seat,
    replay_actions,
)
from engine.situan.combos import RANK_INDEX
from engine.situan.deal import BOTTOM_SIZE, DEALT, HAND_SIZE, Deal, deal_from_seed, situan_deck
from engine.situan.hand import SituanHand
from engine.situan.outcome import team_of
from engine.situan.rules import Rules


def read_deal(raw: Any) -> Deal:
    """A deal from its JSON form; wrong shapes or card counts raise ``bad_deal``."""
    hands, bottom = read_dealt_cards(raw, HAND_SIZE, BOTTOM_SIZE, situan_deck(), "四团")
    return Deal(hands, bottom)


def read_play_cards(raw: Any) -> tuple[tuple[Card, ...] | None, tuple[int, ...] | None]:
    """A play's cards: exact cards (``S7 H7``), or ranks alone (``7777``, ``10 10``).

    Returns (cards, None) or (None, rank indices); an unknown token raises ``unknown_card``.
    """
    tokens = read_card_tokens(raw)
    if tokens is None:
        raise ValueError("cards must be a list of card texts")
    play = read_play(0, tokens, by_rank=True)
    if play.cards:
        return play.cards, None
    return None, tuple(RANK_INDEX[r] for r in play.ranks)


def read_action(raw: Any) -> Action:
    """A 四团 action from its JSON form (`engine.actions.action_from_json`: `RecordError`
    ``bad_action`` when it is not a well-formed action, ``unknown_card`` for a card)."""
    action = action_from_json(raw, by_rank=True)
    if isinstance(action, Play) and not action.cards and not action.ranks:
        raise RecordError("bad_action", "a play needs its cards")
    return action


RECORDED_BEFORE_TIMEOUT_OPTION = {"timeouts_for_auto": 3}
"""A record written before ``timeouts_for_auto`` was an option lists every other option: it
was played with the three time-outs then in force, and replays so."""


def read_rules(raw: Any) -> Rules:
    preset, options = read_rules_spec(raw, "nanchang")
    if options and "timeouts_for_auto" not in options:
        options = {**RECORDED_BEFORE_TIMEOUT_OPTION, **options}
    return Rules.from_preset(preset, **options)


def hand_from_record(record: dict[str, Any]) -> SituanHand:
    """The hand a record starts from (before its actions)."""
    rules = read_rules(record.get("rules"))
    deal = deal_or_seed(record, read_deal, deal_from_seed)
    first = record.get("first")
    if first is not None:
        first = read_seat(first, "first")
    carry = _read_carry(record.get("carry"))
    if "flipped" in record:  # the first hand of a match, led by the card turned up (翻牌)
        deal = replace(deal, flipped_position=_read_flipped(record["flipped"], rules))
        if first is not None and first != deal.flip_leader():
            raise RecordError("bad_record", "first is not the seat dealt the flipped card")
        return SituanHand(rules, deal, None, carry)
    return SituanHand(rules, deal, first, carry)


def _read_flipped(raw: Any, rules: Rules) -> int:
    if rules.first_leader != "flip":
        raise RecordError("bad_record", "flipped is for first_leader flip only")
    if not isinstance(raw, int) or isinstance(raw, bool) or not 0 <= raw < DEALT:
        raise RecordError("bad_record", f"flipped is a deck position, 0 to {DEALT - 1}")
    return raw


def _read_carry(raw: Any) -> tuple[int, int] | None:
    if raw is None:
        return None
    if (
        not isinstance(raw, dict)
        or not all(isinstance(raw.get(k), int) and not isinstance(raw.get(k), bool) for k in "AB")
        or raw["A"] < 0
        or raw["B"] < 0
    ):
        raise RecordError("bad_record", 'carry is {"A": points, "B": points}')
    return (raw["A"], raw["B"])


def start_record(hand: SituanHand) -> dict[str, Any]:
    """What a hand started from: rules, deal, first and carry (its record without actions)."""
    record: dict[str, Any] = {
        "game": "situan",
        "rules": {"preset": hand.rules.preset, "options": hand.rules.options()},
        "deal": {
            "hands": [[c.text for c in h] for h in hand.deal.hands],
            "bottom": [c.text for c in hand.deal.bottom],
        },
        "first": hand.first,
    }
    if hand.flipped is not None:
        # Which card was turned is part of the hand's story ("Flipped card: … leads"): a
        # copy rebuilt from the record, after a restart or on another process, tells it too.
        record["flipped"] = hand.deal.flipped_position
    if hand.carry is not None:
        record["carry"] = {"A": hand.carry[0], "B": hand.carry[1]}
    return record


def record_of(hand: SituanHand) -> dict[str, Any]:
    """The record of a hand so far: rules, deal, first, carry and every accepted action."""
    record = start_record(hand)
    record["actions"] = [a.to_json() for a in hand.history]
    return record


def partial_result(hand: SituanHand) -> dict[str, Any]:
    """`result` while the hand is still running: the state so far."""
    if hand.result is not None:
        return hand.result.to_json()
    team = [0, 0]
    for seat, points in enumerate(hand.captured):
        team[team_of(seat)] += points
    return {
        "finish": list(hand.finish),
        "ended_by": None,
        "captured": list(hand.captured),
        "team_points": {"A": team[0], "B": team[1]},
        "winner": None,
        "turn": hand.turn,
        "phase": hand.phase,
        "shown": None if hand.show_by is None else {"by": hand.show_by, "revealed": hand.revealed},
    }


def replay(record: dict[str, Any], raw_actions: list[Any]) -> dict[str, Any]:
    hand = hand_from_record(record)
    verdicts = replay_actions(hand, read_actions(read_action, raw_actions))
    return {"actions": verdicts, "over": hand.over, "result": partial_result(hand)}

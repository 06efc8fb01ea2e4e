"""四团 hand records (hand-record.md): reading, writing and replaying them."""

from __future__ import annotations

from typing import Any

from engine.cards import Card, parse_card, parse_rank_run
from engine.errors import RecordError
from engine.records import (
    deal_or_seed,
    read_dealt_cards,
    read_rules_spec,
    read_seat,
    replay_actions,
)
from engine.situan.actions import Action
from engine.situan.combos import RANK_INDEX, RANKS
from engine.situan.deal import BOTTOM_SIZE, HAND_SIZE, Deal, deal_from_seed, situan_deck
from engine.situan.outcome import team_of
from engine.situan.rules import Rules
from engine.situan.state import OVER, SituanHand


def read_deal(raw: Any) -> Deal:
    """A deal from its JSON form; wrong shapes or card counts raise ``bad_deal``."""
    hands, bottom = read_dealt_cards(raw, HAND_SIZE, BOTTOM_SIZE, situan_deck(), "四团")
    return Deal(hands, bottom)


def read_play_cards(raw: Any) -> tuple[tuple[Card, ...] | None, tuple[int, ...] | None]:
    """A play's cards: exact cards (``S7 H7``), or ranks alone (``7777``, ``10 10``).

    Returns (cards, None) or (None, rank indices); an unknown token raises ``unknown_card``.
    """
    tokens = raw.replace(",", " ").split() if isinstance(raw, str) else raw
    if not isinstance(tokens, list) or not all(isinstance(t, str) for t in tokens):
        raise ValueError("cards must be a list of card texts")
    cards: list[Card] = []
    ranks: list[int] = []
    by_rank = False
    for token in tokens:
        try:
            c = parse_card(token)
        except RecordError:
            by_rank = True
            ranks.extend(RANK_INDEX[r] for r in parse_rank_run(token))
        else:
            cards.append(c)
            ranks.append(RANK_INDEX[c.rank])
    if by_rank:
        return None, tuple(ranks)
    return tuple(cards), None


def read_action(raw: Any) -> Action | str:
    """An action from its JSON form, or the reason it is not a well-formed 四团 action.

    Unknown cards raise `RecordError` (the record is malformed); any other defect is returned
    as text and becomes a ``bad_action`` verdict.
    """
    if not isinstance(raw, dict):
        return "an action is an object"
    seat, act = raw.get("seat"), raw.get("act")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < 4:
        return f"no seat {seat!r}"
    if act == "play":
        try:
            cards, ranks = read_play_cards(raw.get("cards"))
        except ValueError as error:
            return str(error)
        return Action(seat, "play", cards=cards, ranks=ranks)
    if act in ("pass", "show_start", "timeout"):
        return Action(seat, act)
    if act == "show_pick":
        return Action(seat, act, reveal=raw.get("reveal"))
    if act == "auto":
        return Action(seat, act, on=raw.get("on"))
    return f"{act!r} is not a 四团 action"


def read_rules(raw: Any) -> Rules:
    preset, options = read_rules_spec(raw, "nanchang")
    return Rules.from_preset(preset, **options)


def hand_from_record(record: dict[str, Any]) -> SituanHand:
    """The hand a record starts from (before its actions)."""
    rules = read_rules(record.get("rules"))
    deal = deal_or_seed(record, read_deal, deal_from_seed)
    first = record.get("first")
    if first is not None:
        first = read_seat(first, "first")
    return SituanHand(rules, deal, first, _read_carry(record.get("carry")))


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


def action_to_json(action: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"seat": action.seat, "act": action.act}
    if action.act == "play":
        if action.cards is not None:
            out["cards"] = [c.text for c in action.cards]
        else:
            out["cards"] = [RANKS[r] for r in action.ranks or ()]
    elif action.act == "show_pick":
        out["reveal"] = action.reveal
    elif action.act == "auto":
        out["on"] = action.on
    return out


def record_of(hand: SituanHand) -> dict[str, Any]:
    """The record of a hand so far: rules, deal, first, carry and every accepted action."""
    record: dict[str, Any] = {
        "game": "situan",
        "rules": {"preset": hand.rules.preset, "options": hand.rules.options()},
        "deal": {
            "hands": [[c.text for c in h] for h in hand.deal.hands],
            "bottom": [c.text for c in hand.deal.bottom],
        },
        "first": hand.first,
    }
    if hand.carry is not None:
        record["carry"] = {"A": hand.carry[0], "B": hand.carry[1]}
    record["actions"] = [action_to_json(a) for a in hand.history]
    return record


def partial_result(hand: SituanHand) -> dict[str, Any]:
    """`result` while the hand is still running: the state so far."""
    if hand.result is not None:
        return hand.result
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


def is_over(hand: SituanHand) -> bool:
    return hand.phase == OVER


def replay(record: dict[str, Any], raw_actions: list[Any]) -> dict[str, Any]:
    hand = hand_from_record(record)
    verdicts = replay_actions(hand, [read_action(raw) for raw in raw_actions])
    return {"actions": verdicts, "over": is_over(hand), "result": partial_result(hand)}

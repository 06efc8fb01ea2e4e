"""Invariants over random 二七王 games of the seeds' remaining variants: one deck (cards and
100 points conserved), ``bonus_scoring`` either way; every game ends; replay reproduces; and
records of every new notation form replay through ``python -m engine replay``."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.erqiwang import ErqiwangHand, Rules, deal_from_seed, erqiwang_deck
from engine.erqiwang.bonus import bonus_of
from engine.erqiwang.record import record_of
from engine.replay import replay_record
from tests.record_actions import Action, outcome

VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("one_deck", {}),
    ("one_deck", {"scoring": "online"}),
    ("one_deck", {"scoring": "proportional", "bonus_scoring": "points"}),
    ("online", {"decks": 1, "bid_max": 60, "surrender_above": 40}),
    ("classic", {}),  # bonus_scoring: points
    ("online", {"bonus_scoring": "points"}),
    ("proportional", {"bonus_scoring": "points", "bottom_multiplier": "doubling"}),
]
variants = st.sampled_from(VARIANTS)


def random_action(hand: ErqiwangHand, rng: random.Random) -> Action:
    """Any action the rules allow, now and then a time-out, 托管, 冲关 or a surrender."""
    seat = hand.to_act
    roll = rng.random()
    if roll < 0.06:
        return Action(seat, "timeout")
    if roll < 0.07:
        return Action(rng.randrange(4), "auto", on=rng.random() < 0.5)
    if hand.phase == "play":
        for s in range(4):
            if (
                hand.bonus_window_open(s)
                and rng.random() < 0.7
                and bonus_of(hand.hands[s], hand.trump)
            ):
                return Action(s, "declare_bonus")
        return Action(seat, "play", cards=rng.choice(hand.legal_plays()))
    if hand.phase == "bidding":
        bids = hand.allowed_bids()
        pick = rng.randrange(len(bids) + 2 * hand.may_pass_bidding())
        return Action(seat, "bid", points=bids[pick]) if pick < len(bids) else Action(seat, "pass")
    if hand.phase == "trump":
        if hand.bid is not None and hand.bid > hand.rules.surrender_above and roll < 0.1:
            return Action(seat, "surrender")
        choices = ("S", "H", "C", "D", "none") if hand.rules.allow_no_trump else ("S", "H", "C")
        return Action(seat, "trump", suit=rng.choice(choices))
    return Action(seat, "bury", cards=tuple(rng.sample(hand.hands[seat], hand.bottom_size)))


def new_hand(variant: tuple[str, dict[str, Any]], seed: int) -> ErqiwangHand:
    preset, options = variant
    return ErqiwangHand.from_seed(Rules.from_preset(preset, **options), seed, first=seed % 4)


def play_out(hand: ErqiwangHand, rng: random.Random, check: Any = None) -> None:
    for _ in range(1000):
        if hand.over:
            return
        hand.apply(random_action(hand, rng))
        if check is not None:
            check(hand)
    raise AssertionError("the hand does not end")


def assert_conserved(hand: ErqiwangHand) -> None:
    held = Counter(c for h in hand.hands for c in h)
    undealt = Counter() if hand.declarer is not None else Counter(hand.deal.bottom)
    everything = held + Counter(hand.played_cards) + Counter(hand.buried) + undealt
    assert everything == Counter(erqiwang_deck(hand.rules.decks))
    assert sum(c.points for c in everything.elements()) == hand.rules.deck_points


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), variant=variants)
def test_cards_and_points_are_conserved_at_every_step(seed, variant):
    hand = new_hand(variant, seed)
    play_out(hand, random.Random(seed), assert_conserved)
    result = outcome(hand)
    assert result is not None
    if not result.get("redeal") and not result["surrendered"]:
        trick_points = sum(c.points for c in hand.played_cards)
        assert trick_points + result["bottom_points"] == hand.rules.deck_points


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), variant=variants)
def test_every_random_game_ends_with_a_settled_result(seed, variant):
    hand = new_hand(variant, seed)
    play_out(hand, random.Random(seed ^ 91))
    result = outcome(hand)
    assert result is not None
    if result.get("redeal"):
        assert result == {"redeal": True}
        return
    assert sum(Fraction(x) for x in result["total"]) == 0
    assert result["declarer_won"] == (Fraction(result["stakes"][result["declarer"]]) > 0)
    if hand.rules.decks == 1:
        assert result["bonuses"] == [] and len(hand.buried) in (0, 6)
    points_mode = hand.rules.bonus_scoring == "points"
    if result["surrendered"] or not points_mode:
        assert result["bonus_points"] == 0
    else:
        assert result["bonus"] == ["0"] * 4
        caught = result["bottom_points"] * result["bottom_multiplier"]
        card_points = hand.trick_points_for_defenders + caught
        assert result["defender_points"] == card_points + result["bonus_points"] >= 0


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), variant=variants, cut=st.floats(0, 1))
def test_replaying_a_record_reproduces_the_state_and_result(seed, variant, cut):
    full = new_hand(variant, seed)
    play_out(full, random.Random(seed))
    output = replay_record(json.loads(json.dumps(record_of(full))))
    assert all(v["ok"] for v in output["actions"]) and output["over"]
    assert output["result"] == outcome(full)
    part = new_hand(variant, seed)
    for action in full.history[: int(len(full.history) * cut)]:
        part.apply(action)
    partial = replay_record(json.loads(json.dumps(record_of(part))))
    assert partial["over"] == part.over


def test_a_one_deck_record_of_every_seed_is_dealt_like_its_hand():
    rules = Rules.from_preset("one_deck")
    hand = ErqiwangHand.from_seed(rules, 17)
    assert hand.deal == deal_from_seed(17, decks=1)
    assert record_of(hand)["rules"]["options"]["decks"] == 1


# ------------------------------------------------------------------ python -m engine replay


def engine_replay(record: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    run = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        check=False,
    )
    return run.returncode, json.loads(run.stdout)


def _joined(cards: list[str], how: str) -> list[str] | str:
    """One hand or bottom written in one of the new forms."""
    symbols = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
    if how == "together":
        return ["".join(cards)]
    if how == "spaced":
        return " ".join(cards)
    if how == "symbols":
        return [
            "".join(
                symbols.get(c[0], "") + c[1:]
                if c not in ("LJ", "BJ")
                else {"LJ": "小王", "BJ": "大王"}[c]
                for c in cards
            ).lower()
        ]
    return cards


def _in_list(written: list[str] | str) -> list[str]:
    """A deal's hands and bottom are lists (of strings, each holding one card or more)."""
    return [written] if isinstance(written, str) else written


def test_replay_of_records_in_every_new_form():
    deal = deal_from_seed(4, decks=1)
    texts = [[c.text for c in h] for h in deal.hands]
    bottom = [c.text for c in deal.bottom]
    declarer_cards = texts[0] + bottom
    base: dict[str, Any] = {"game": "erqiwang", "rules": {"preset": "one_deck"}}
    verdicts = []
    for how in ("together", "spaced", "symbols"):
        record = {
            **base,
            "deal": {"hands": [_in_list(_joined(h, how)) for h in texts],
                     "bottom": _in_list(_joined(bottom, how))},
            "actions": [
                {"seat": 0, "act": "bid", "points": 60},
                *({"seat": s, "act": "pass"} for s in (1, 2, 3)),
                {"seat": 0, "act": "trump", "suit": "红桃"},
                {"seat": 0, "act": "bury", "cards": _joined(declarer_cards[:6], how)},
            ],
        }  # fmt: skip
        code, output = engine_replay(record)
        assert code == 0, output
        assert [v["ok"] for v in output["actions"]] == [True] * 6
        assert output["result"]["trump"] == "H" and output["result"]["phase"] == "play"
        verdicts.append(output)
    assert verdicts[0] == verdicts[1] == verdicts[2]


def test_replay_names_an_unknown_token_in_a_run():
    record = {"game": "erqiwang", "seed": 1, "actions": [
        {"seat": 0, "act": "bury", "cards": ["D3D4 S10X5"]}]}  # fmt: skip
    code, output = engine_replay(record)
    assert code == 2 and output["error"] == "unknown_card" and "S10X5" in output["message"]


def test_replay_of_a_situan_record_with_suits_that_mean_ranks():
    from engine.situan import deal_from_seed as situan_deal

    deal = situan_deal(3)
    held = {c.text for c in deal.hands[0]}
    written = next(
        s + c.rank
        for c in deal.hands[0]
        for s in "SHCD"
        if not c.is_joker and s + c.rank not in held
    )
    record = {"game": "situan", "seed": 3, "first": 0,
              "actions": [{"seat": 0, "act": "play", "cards": written}]}  # fmt: skip
    code, output = engine_replay(record)
    assert code == 0 and output["actions"] == [{"ok": True}]

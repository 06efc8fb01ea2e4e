"""hand-record.md: records and ``python -m engine replay`` for 四团."""

import json
import subprocess
import sys

import pytest

from engine.replay import replay_record, replay_text
from engine.situan import deal_from_seed
from tests.record_actions import outcome

K12 = ["K"] * 12


def small_record(actions, **extra):
    """A legal 160-card deal built from a seed, with the actions given."""
    deal = deal_from_seed(9)
    record = {
        "game": "situan",
        "rules": {"preset": "nanchang"},
        "deal": {
            "hands": [[c.text for c in h] for h in deal.hands],
            "bottom": [c.text for c in deal.bottom],
        },
        "first": 0,
        "actions": actions,
    }
    record.update(extra)
    return record, deal


def run_cli(text: str) -> tuple[int, dict]:
    done = subprocess.run(
        [sys.executable, "-m", "engine", "replay", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stderr == ""
    return done.returncode, json.loads(done.stdout)


def lowest_single(deal, seat):
    from engine.situan.combos import RANK_INDEX

    return min(deal.hands[seat], key=lambda c: RANK_INDEX[c.rank]).text


def test_every_action_gets_a_verdict_in_order_and_illegal_ones_are_not_applied():
    record, deal = small_record([])
    lead = lowest_single(deal, 0)
    record["actions"] = [
        {"seat": 1, "act": "pass"},
        {"seat": 0, "act": "pass"},
        {"seat": 0, "act": "play", "cards": [lead]},
        {"seat": 1, "act": "pass"},
    ]
    output = replay_record(record)
    assert [v["ok"] for v in output["actions"]] == [False, False, True, True]
    assert [v.get("error") for v in output["actions"][:2]] == ["not_your_turn", "must_lead"]
    assert all(isinstance(v["message"], str) and v["message"] for v in output["actions"][:2])
    assert output["over"] is False
    assert output["result"]["turn"] == 2


def test_the_cli_prints_one_json_object_and_exits_0():
    record, _ = small_record([])
    code, output = run_cli(json.dumps(record))
    assert code == 0 and set(output) == {"actions", "over", "result"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("{not json", "bad_json"),
        (
            '{"game": "situan", "seed": 1, "actions": '
            '[{"seat": 0, "act": "play", "cards": ["X9"]}]}',
            "unknown_card",
        ),
        ('{"game": "situan", "seed": 1, "rules": {"preset": "tangren"}}', "bad_rules"),
        ('{"game": "situan", "seed": 1, "rules": {"options": {"colour": 1}}}', "bad_rules"),
        ('{"game": "situan", "deal": {"hands": [["S3"], [], [], []], "bottom": []}}', "bad_deal"),
        ('{"game": "chess", "seed": 1}', "bad_record"),
        ('{"game": "situan"}', "bad_record"),
        ('{"game": "situan", "seed": 1, "first": 9}', "bad_record"),
        ("[1, 2]", "bad_record"),
    ],
)
def test_a_malformed_record_prints_an_error_and_exits_2_never_a_traceback(text, code):
    exit_code, output = run_cli(text)
    assert exit_code == 2
    assert output["error"] == code and output["message"]


def test_a_deal_with_wrong_card_counts_is_bad_deal():
    record, _ = small_record([])
    hands = record["deal"]["hands"]
    # A second big joker (or a fourth small one) in place of a dealt card.
    hands[0][0] = "LJ" if hands[0][0] == "BJ" else "BJ"
    code, output = replay_text(json.dumps(record))
    assert code == 2 and json.loads(output)["error"] == "bad_deal"
    record, _ = small_record([])
    record["deal"]["hands"][2].pop()
    code, output = replay_text(json.dumps(record))
    assert code == 2 and json.loads(output)["error"] == "bad_deal"


def test_a_record_with_a_seed_deals_deterministically():
    record = {"game": "situan", "seed": 77, "actions": []}
    first = replay_record(dict(record))
    second = replay_record(dict(record))
    assert first == second
    assert first["result"]["turn"] == deal_from_seed(77).flip_leader()


def test_a_play_may_be_written_by_ranks_alone():
    record, deal = small_record([])
    rank = lowest_single(deal, 0)[1:]
    record["actions"] = [{"seat": 0, "act": "play", "cards": [rank]}]
    assert replay_record(record)["actions"] == [{"ok": True}]
    record["actions"] = [{"seat": 0, "act": "play", "cards": rank}]
    assert replay_record(record)["actions"] == [{"ok": True}]


def test_a_malformed_action_is_bad_action_and_replay_goes_on():
    record, deal = small_record([])
    lead = lowest_single(deal, 0)
    record["actions"] = [
        {"seat": "zero", "act": "pass"},
        {"seat": 0, "act": "bid", "points": 80},
        {"seat": 0, "act": "play", "cards": 7},
        {"seat": 0, "act": "play", "cards": [lead]},
    ]
    verdicts = replay_record(record)["actions"]
    assert [v.get("error") for v in verdicts] == ["bad_action", "bad_action", "bad_action", None]


def test_show_actions_in_a_record():
    record, deal = small_record([])
    record["actions"] = [
        {"seat": 2, "act": "show_start"},
        {"seat": 0, "act": "play", "cards": [lowest_single(deal, 0)]},
        {"seat": 2, "act": "show_pick", "reveal": 0},
        {"seat": 2, "act": "show_pick", "reveal": 0},
    ]
    verdicts = replay_record(record)["actions"]
    assert [v.get("error") for v in verdicts] == [None, "wrong_phase", None, "wrong_phase"]
    assert replay_record(record)["result"]["shown"] == {"by": 2, "revealed": 0}


def test_timeout_and_auto_actions_in_a_record():
    record, _ = small_record([])
    record["actions"] = [
        {"seat": 0, "act": "auto", "on": True},
        {"seat": 0, "act": "timeout"},
        {"seat": 1, "act": "timeout"},
        {"seat": 3, "act": "timeout"},
    ]
    verdicts = replay_record(record)["actions"]
    assert [v.get("error") for v in verdicts] == [None, None, None, "not_your_turn"]


def test_a_finished_record_reports_the_full_result_fields():
    from engine.ai.situan.normal import SituanAI
    from engine.situan import Rules, SituanHand
    from engine.situan.record import record_of

    hand = SituanHand.from_seed(Rules.from_preset(), 21)
    ai = SituanAI()
    while not hand.over:
        seat = hand.show_by if hand.phase == "show_pick" else hand.turn
        hand.apply(ai.decide(hand.view(seat), hand.legal_actions(seat)))
    output = replay_record(json.loads(json.dumps(record_of(hand))))
    assert output["over"] is True
    result = output["result"]
    for field in (
        "finish",
        "ended_by",
        "captured",
        "team_points",
        "winner",
        "dun",
        "shown",
        "stakes",
        "bonus",
        "total",
    ):
        assert field in result
    assert result == outcome(hand)
    assert sorted(result["finish"]) == [0, 1, 2, 3]


def test_the_flipped_card_of_a_first_hand_is_in_its_record_and_its_copies():
    """A match's first hand under ``first_leader flip`` is led by the card turned up; its
    record says which (``flipped``, a deck position), so that a hand rebuilt from it — after a
    restart, or on another process — still tells "Flipped card: … leads"."""
    from engine import game_of
    from engine.situan.hand import SituanHand
    from engine.situan.record import hand_from_record, record_of

    game = game_of("situan")
    dealt = game.deal(game.rules(), seed=12)
    assert dealt.flipped is not None
    record = record_of(dealt)
    assert record["flipped"] == dealt.deal.flipped_position
    copy = hand_from_record(json.loads(json.dumps(record)))
    assert copy.flipped == dealt.flipped and copy.first == dealt.first == copy.turn
    # A later hand is led by the last 上游: nothing was turned, and its record says nothing.
    later = SituanHand(dealt.rules, dealt.deal, first=(dealt.first + 1) % 4)
    assert later.flipped is None and "flipped" not in record_of(later)
    assert hand_from_record(record_of(later)).flipped is None


@pytest.mark.parametrize(
    "flipped, rules",
    [(-1, {"preset": "nanchang"}), (156, {"preset": "nanchang"}), (True, {"preset": "nanchang"}),
     (3, {"preset": "nanchang", "options": {"first_leader": "spade3"}})],
)  # fmt: skip
def test_a_bad_flipped_position_is_a_bad_record(flipped, rules):
    record, _ = small_record([], flipped=flipped, rules=rules)
    record.pop("first")
    code, output = replay_text(json.dumps(record))
    assert code == 2 and json.loads(output)["error"] == "bad_record"


def test_a_flipped_card_dealt_to_another_seat_than_first_is_a_bad_record():
    record, deal = small_record([], flipped=deal_from_seed(9).flipped_position)
    record["first"] = (deal.flip_leader() + 1) % 4
    code, output = replay_text(json.dumps(record))
    assert code == 2 and json.loads(output)["error"] == "bad_record"
    record["first"] = deal.flip_leader()  # the seat dealt the card: a good record
    assert replay_record(record)["over"] is False

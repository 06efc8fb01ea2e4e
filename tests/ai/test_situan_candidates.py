"""What the ``hard`` 四团 player weighs: the ``normal`` choice first, then whole groups and the
few beats worth a playout, all legal and distinct."""

from engine.actions import Pass, Play
from engine.ai.situan.candidates import situan_candidates
from engine.ai.situan.normal import SituanAI
from engine.situan.combos import RANK_INDEX, combo_of_ranks
from tests.ai.helpers import deal


def decisions(seed, count):
    """(view, turn actions, normal choice) at each of the first ``count`` turns of a hand
    played by ``normal``."""
    hand = deal("situan", seed)
    normal = SituanAI()
    for _ in range(count):
        if hand.over:
            return
        seat = hand.to_act
        view, legal = hand.view(seat), hand.legal_actions(seat)
        choice = normal.decide(view, legal)
        yield view, [a for a in legal if isinstance(a, (Play, Pass))], choice
        hand.apply(choice)


def combo(action):
    return combo_of_ranks([RANK_INDEX[r] for r in action.ranks])


def test_candidates_are_legal_distinct_and_start_with_the_normal_choice():
    seen = 0
    for seed in range(6):
        for view, turn, choice in decisions(seed, 120):
            candidates = situan_candidates(view, turn, choice, 6)
            assert candidates[0] == choice
            assert len(candidates) == len(set(candidates)) <= 6
            assert all(c in turn for c in candidates)
            seen += len(candidates) > 1
    assert seen > 100


def test_a_lead_weighs_whole_groups_only():
    leads = 0
    for seed in range(6):
        for view, turn, choice in decisions(seed, 120):
            if view.round_combo is not None:
                continue
            leads += 1
            counts = view.hand_counts
            for action in situan_candidates(view, turn, choice, 6)[1:]:
                played = combo(action)
                whole = played.kind == "kings" or counts[played.rank] == played.size
                assert whole, (action, counts)
    assert leads > 20


def test_a_follow_weighs_the_pass_and_the_cheapest_whole_beat():
    checked = 0
    for seed in range(6):
        for view, turn, choice in decisions(seed, 120):
            last = view.round_combo
            if last is None or last.is_bomb or isinstance(choice, Pass):
                continue
            candidates = situan_candidates(view, turn, choice, 6)
            assert Pass(view.seat) in candidates
            counts = view.hand_counts
            exact = [
                r for r in range(last.rank + 1, len(counts)) if counts[r] == last.size
            ]  # the cheapest beat that splits nothing
            if exact:
                wanted = combo_of_ranks([exact[0]] * last.size)
                assert any(isinstance(c, Play) and combo(c) is wanted for c in candidates)
                checked += 1
    assert checked > 10

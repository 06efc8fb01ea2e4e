"""bench/ai_strength.py: the whole-hand 二七王 comparison puts the level under test in each
seat in turn against the same deal with the baseline in that seat; ``hard@KINDS`` searches
only the decisions of those kinds."""

from bench.ai_strength import HardAt, erqiwang_whole
from engine import game_of
from engine.ai import player


def test_the_same_level_in_the_seat_gains_nothing_on_any_deal_or_seat():
    gains = erqiwang_whole(range(3), "easy", "easy", None, "classic")
    assert gains == [0.0] * 12


def test_a_bidder_in_the_seat_gains_over_a_seat_that_only_passes(capsys):
    # 托管 passes every auction, so with 托管 in all four seats every deal is void; a normal
    # player in one seat declares where its hand is worth it and wins points there.
    gains = erqiwang_whole(range(10), "normal", "tuoguan", None, "classic")
    assert len(gains) == 40 and sum(gains) > 0
    out = capsys.readouterr().out
    assert "tuoguan in the seat declares   0.0% ± 0.0% (0/40)" in out
    assert "void (all passed) 100.0% ± 0.0% (40/40)" in out


class Recorder:
    """A player that records the kinds it was asked and answers as ``normal`` would."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.normal = player("erqiwang", "normal")

    def decide(self, view, legal):
        self.asked.append(
            view.phase if view.phase != "play" else ("follow" if view.trick else "lead")
        )
        return self.normal.decide(view, legal)


def test_hard_at_some_kinds_leaves_only_those_to_the_search():
    searched, plain = Recorder(), Recorder()
    mixed = HardAt(searched, plain, frozenset({"trump", "lead"}))
    game = game_of("erqiwang")
    hand = game.deal(game.rules("classic", first_must_bid=True), seed=5)
    while not hand.over:
        seat = hand.to_act
        hand.apply(mixed.decide(hand.view(seat), hand.legal_actions(seat)))
    assert set(searched.asked) == {"trump", "lead"}
    assert set(plain.asked) == {"bidding", "bury", "follow"}
    assert searched.asked.count("trump") == 1

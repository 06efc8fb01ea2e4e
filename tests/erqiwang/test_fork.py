"""A forked hand plays on alone: the ``hard`` player plays every candidate out from one
sampled deal, so a fork must neither see nor change what happens to the hand it came from."""

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ai import player
from engine.erqiwang import ErqiwangHand
from tests.ai.helpers import deal


def public_state(hand: ErqiwangHand) -> list[object]:
    """Everything every seat may see, and every seat's cards."""
    views = [hand.view(s) for s in range(4)]
    seen = [repr(getattr(v, name, None)) for v in views for name in type(v).__slots__]
    return [*seen, *(list(h) for h in hand.hands)]


def play_out(hand: ErqiwangHand) -> list[object]:
    normal = player("erqiwang", "normal")
    while not hand.over:
        seat = hand.to_act
        hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
    return [repr(a) for a in hand.history] + [repr(hand.result)]


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 110))
def test_a_fork_plays_on_as_the_hand_would_and_leaves_it_untouched(seed, steps):
    hand = deal("erqiwang", seed, first_must_bid=True)
    normal = player("erqiwang", "normal")
    for _ in range(steps):
        if hand.over:
            break
        seat = hand.to_act
        hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
    before = public_state(hand)
    twin = hand.fork()
    forked = play_out(twin)
    assert public_state(hand) == before  # the fork's whole hand changed nothing here
    assert play_out(hand) == forked  # and the hand, played on, goes the same way
    assert twin.over and twin.result is not None

"""Driving whole hands with AI players, for the AI tests."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from engine import game_of
from engine.actions import Action, Bury
from tests.hard_players import PLAYOUTS, fixed_hard


class FakeClock:
    """A clock that moves ``step`` seconds each time it is read: budgets without timing."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


def fast_hard(game: str, seed: int = 0, playouts: int = PLAYOUTS) -> Any:
    """A ``hard`` player that stops after ``playouts`` sampled deals, whatever the time."""
    return fixed_hard(game, seed, playouts)


def assert_legal(hand: Any, seat: int, action: Action) -> None:
    """The action is one of the listed ones, or a bury of the bottom's size; and the engine
    accepts it (`check`)."""
    if isinstance(action, Bury):
        assert len(action.cards) == len(hand.view(seat).bottom_shown)
    else:
        assert action in hand.legal_actions(seat)
    hand.check(action)


def drive(
    hand: Any,
    driver: Any,
    probes: dict[str, Any],
    every: int = 1,
    on_decision: Callable[[Any, int, Action], None] | None = None,
) -> Iterator[int]:
    """Play the hand out with ``driver``; at every ``every``-th decision also ask each probe
    player and check that its answer is legal. Yields the decision numbers."""
    step = 0
    while not hand.over:
        seat = hand.to_act
        if step % every == 0:
            for probe in probes.values():
                assert_legal(hand, seat, probe.decide(hand.view(seat), hand.legal_actions(seat)))
        action = driver.decide(hand.view(seat), hand.legal_actions(seat))
        assert_legal(hand, seat, action)
        if on_decision is not None:
            on_decision(hand, seat, action)
        hand.apply(action)
        yield step
        step += 1


def deal(game: str, seed: int, **options: Any) -> Any:
    g = game_of(game)
    return g.deal(g.rules(**options), seed=seed)

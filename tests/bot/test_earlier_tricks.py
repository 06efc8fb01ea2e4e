"""The table message lists every trick closed since the group last saw the table (people
who play fast can close several within one of the group's slots), cut only to a length that
keeps the message inside Discord's 2,000 characters."""

from __future__ import annotations

from bot.games.erqiwang.texts import table_text
from bot.views.shared_texts import EARLIER_CHARACTERS, newest_within
from engine.ai import player
from engine.erqiwang import ErqiwangHand
from engine.erqiwang.events import TrickWon
from tests.ai.helpers import deal

EARLIER = "Earlier trick: "


def hand_with_tricks(count: int) -> tuple[ErqiwangHand, list[TrickWon]]:
    """A 二七王 hand played by `normal` players until ``count`` tricks have closed."""
    hand = deal("erqiwang", 8, first_must_bid=True)
    normal = player("erqiwang", "normal")
    closed: list[TrickWon] = []
    while len(closed) < count:
        seat = hand.to_act
        events = hand.apply(normal.decide(hand.view(seat), hand.legal_actions(seat)))
        closed += [e for e in events if isinstance(e, TrickWon) and e.plays]
    return hand, closed


def test_seven_tricks_closed_unseen_are_all_listed_above_the_last():
    hand, closed = hand_with_tricks(8)
    names = ("Ann", "Bob", "Cai", "Dee")
    text = table_text("en", hand.view(None), names, 1, None, closed)
    earlier = [line for line in text.splitlines() if line.startswith(EARLIER)]
    assert len(earlier) == 7  # the eighth is the last trick, shown below them
    assert [line.rsplit(" → ", 1)[1].split(" wins")[0] for line in earlier] == [
        names[trick.seat] for trick in closed[:7]
    ]


def test_with_the_longest_names_only_the_newest_that_fit_are_kept():
    hand, closed = hand_with_tricks(8)
    names = tuple(f"{letter}" * 64 for letter in "ABCD")
    text = table_text("en", hand.view(None), names, 1, None, closed)
    earlier = [line for line in text.splitlines() if line.startswith(EARLIER)]
    assert 0 < len(earlier) < 7
    assert sum(len(line) + 1 for line in earlier) <= EARLIER_CHARACTERS
    winners = [line.rsplit(" → ", 1)[1].split(" wins")[0] for line in earlier]
    assert winners == [names[trick.seat] for trick in closed[7 - len(earlier) : 7]]  # newest
    assert len(text) <= 2000


def test_newest_within_keeps_the_newest_lines_that_fit():
    assert newest_within(["a" * 5, "b" * 5, "c" * 5], 12) == ["b" * 5, "c" * 5]
    assert newest_within(["a" * 5], 5) == []
    assert newest_within([], 100) == []

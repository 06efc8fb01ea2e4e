"""bench/erqiwang_digest.py: the digest of random 二七王 play under six rule sets is the same
for the same engine and changes with any listing, event, view or result."""

import pytest

from bench import erqiwang_digest
from engine.erqiwang import legal


def test_the_digest_is_the_same_twice_and_covers_every_rule_set():
    first, actions = erqiwang_digest.digest(2)
    assert erqiwang_digest.digest(2) == (first, actions)
    assert actions > 6 * 2 * 80  # six rule sets, whole hands of 80 actions and more


def test_a_listing_in_another_order_changes_the_digest(monkeypatch: pytest.MonkeyPatch):
    before, _ = erqiwang_digest.digest(1)
    listed = legal.legal_actions

    def reversed_listing(hand, seat):  # the same actions, the plays in the other order
        return list(reversed(list(listed(hand, seat))))

    monkeypatch.setattr(erqiwang_digest.ErqiwangHand, "legal_actions", reversed_listing)
    assert erqiwang_digest.digest(1)[0] != before

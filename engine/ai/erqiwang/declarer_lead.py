"""The ``normal`` 二七王 declarer's lead (`keeping_lead`): trumps in pairs and tractors first,
side winners kept back as stoppers.

Two habits of the ``easy`` plan (`engine.ai.erqiwang.leading.pulling_lead`) cost the declarer
most, measured on duplicate deals against the same defenders:

- It pulls trumps one at a time. A pair or tractor of trumps makes each defender follow with a
  pair of trumps too, or break its pairs: twice the defenders' trumps leave per trick.
- It cashes a side ace as soon as it is sure to win. Led early, the ace takes a trick the
  defenders follow low to; kept, it captures the points the defenders lead into that suit or
  feed onto a partner's card later. A sure pair or tractor is still cashed (the defenders must
  spend pairs of the suit on it), and single winners once the declarer's trumps are gone.
"""

from __future__ import annotations

from collections import Counter

from engine.ai.erqiwang.leading import Lead, lowest_side_lead, top_key
from engine.cards import Card
from engine.erqiwang.order import TRUMP, TrumpOrder


def keeping_lead(
    by_suit: dict[str, list[Card]],
    leads: list[Lead],
    sure: list[Lead],
    unseen: Counter[Card],
    order: TrumpOrder,
) -> Lead:
    """The declarer's lead: trump pairs and tractors, the longest and highest first, while
    they pull the defenders' trumps or nothing better is sure; sure single trumps while the
    defenders hold trumps; sure side pairs and tractors; sure side singles only once out of
    trumps; else the highest trump while holding the larger share, or a low side card."""
    trumps = by_suit.get(TRUMP, [])
    outstanding = sum(n for c, n in unseen.items() if order.suit[c] == TRUMP)

    def longest_then_highest(lead: Lead) -> tuple[int, tuple[int, int, int]]:
        return len(lead), top_key(lead, order)

    trump_multiples = [lead for lead in leads if order.suit[lead[0]] == TRUMP and len(lead) >= 2]
    if trump_multiples and outstanding:
        return max(trump_multiples, key=longest_then_highest)
    sure_trumps = [lead for lead in sure if order.suit[lead[0]] == TRUMP]
    if sure_trumps and outstanding:
        return max(sure_trumps, key=longest_then_highest)
    side_sure = [lead for lead in sure if order.suit[lead[0]] != TRUMP]
    side_multiples = [lead for lead in side_sure if len(lead) >= 2]
    if side_multiples:
        return max(side_multiples, key=longest_then_highest)
    if side_sure and not trumps:
        return max(side_sure, key=longest_then_highest)
    if trump_multiples:
        return max(trump_multiples, key=longest_then_highest)
    if trumps and 3 * len(trumps) >= outstanding:
        return (max(trumps, key=order.key.__getitem__),)
    low = lowest_side_lead(by_suit, order)
    if low is not None:
        return low
    return min(leads, key=lambda lead: top_key(lead, order))

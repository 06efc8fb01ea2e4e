"""A seat's page state holds its own cards and what is public, never another seat's cards —
at every step of whole hands of both games; a spectator's holds no private card at all; 四团
counts above ``announce_at`` read ``>11`` as the chat table writes them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from bot.hosting.manager import PageState
from bot.i18n import t
from tests.bot.harness import CHAT, FakeClock, Harness
from tests.web.world import card_texts, public_cards

PEOPLE = ["ann", "bob", "cat", "dan"]


@pytest.mark.parametrize(("game", "seed"), [("situan", 3), ("erqiwang", 5), ("erqiwang", 8)])
async def test_no_page_state_ever_holds_another_seats_cards(tmp_path: Path, game: str, seed: int):
    harness = await Harness.open(str(tmp_path / "s.sqlite3"), FakeClock(), seed=seed)
    checked: list[int] = []
    counts_seen: set[str] = set()

    def step(chat: str, state_of: PageState) -> None:
        table = harness.manager.tables.get(chat) or harness.seen.get(chat)
        hand = table.hand if table is not None else None
        if hand is None:
            return
        public = public_cards(hand)
        for seat, user in enumerate(PEOPLE):
            state = state_of(user, None)
            if state["board"] is None:
                continue
            view = hand.view(seat)
            assert state["you"] == seat
            assert state["board"]["hand"] == [str(c) for c in view.hand]
            known = Counter(str(c) for c in view.known_cards()) + public
            assert Counter(card_texts(state)) <= known, (seat, state)
            counts_seen.update(state["board"]["counts"])
        watching = state_of(None, None)
        assert watching["you"] is None and watching["controls"] == []
        if watching["board"] is not None:
            assert watching["board"]["hand"] == []
            assert Counter(card_texts(watching)) <= public
        checked.append(1)

    harness.manager.listen_to_steps(step)
    await harness.say("ann", f"/new {game}", lang="en")
    await harness.say("ann", "/settings max_hands 1")
    for user in PEOPLE[1:]:
        await harness.say(user, "/join")
    await harness.say("ann", "/start")
    hand = harness.table().hand
    bids = [a for a in hand.legal_actions(hand.to_act) if a.act == "bid"]
    if bids:  # on 托管 everyone would pass the auction, hand after hand: one bid is made
        await harness.say(PEOPLE[hand.to_act], f"/bid {bids[0].points}")
    for user in PEOPLE:
        await harness.say(user, "/auto on")
    await harness.run_until(lambda: harness.table().hand is None or harness.table().hand.over)
    assert len(checked) > 40  # every step of the hand was looked at
    if game == "situan":
        assert ">11" in counts_seen and any(c.isdigit() for c in counts_seen)


async def test_situan_counts_above_announce_at_read_as_the_chat_table_writes_them(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "s.sqlite3"), FakeClock(), seed=2)
    await harness.say("ann", "/new situan", lang="en")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    sent = await harness.say("ann", "/start")
    state: dict[str, Any] | None = harness.manager.page_state(CHAT, "ann", None)
    assert state is not None
    assert state["board"]["counts"] == [">11"] * 4
    assert [s["count"] for s in state["seats"]] == [">11"] * 4
    table_text = next(m.text for m in sent if m.kind == "table")
    assert table_text.count(">11") == 4  # the chat's table message says it alike


@pytest.mark.parametrize(("game", "seed"), [("situan", 3), ("erqiwang", 5)])
async def test_every_page_shows_who_passed_or_bid_in_the_round_now(
    tmp_path: Path, game: str, seed: int
):
    """四团: each pass (不要) of the round being played is on the board, as a pass, for every
    page; 二七王: each bid and 不叫 of the auction, as its words."""
    harness = await Harness.open(str(tmp_path / "s.sqlite3"), FakeClock(), seed=seed)
    seen: list[tuple[Any, Any]] = []  # (what the board says, what the view says)

    def step(chat: str, state_of: PageState) -> None:  # (a listener's failure is only logged)
        hand = harness.manager.tables[chat].hand if chat in harness.manager.tables else None
        if hand is None or hand.over:
            return
        view = hand.view(None)
        for user in [*PEOPLE, None]:
            state = state_of(user, None)
            trick = state["board"]["trick"]
            if game == "situan":
                passed = [seat for seat, combo in view.round_plays if combo is None]
                shown = [p["seat"] for p in trick if p["pass"]]
                seen.append((shown, passed))
                seen.append((all(p["cards"] for p in trick if not p["pass"]), True))
            elif view.phase == "bidding":
                no_bid = t(state["lang"], "no bid")
                said = [(s, no_bid if b is None else str(b), b is None) for s, b in view.bids]
                seen.append(([(p["seat"], p["said"], p["pass"]) for p in trick], said))

    harness.manager.listen_to_steps(step)
    await harness.say("ann", f"/new {game}", lang="en")
    await harness.say("ann", "/settings max_hands 1")
    for user in PEOPLE[1:]:
        await harness.say(user, "/join", lang="zh-Hans")
    await harness.say("ann", "/start")
    hand = harness.table().hand
    if game == "erqiwang":  # a bid (not the last one can make), then 不叫 on 托管
        bids = [a for a in hand.legal_actions(hand.to_act) if a.act == "bid"]
        await harness.say(PEOPLE[hand.to_act], f"/bid {bids[len(bids) // 2].points}")
    for user in PEOPLE:
        await harness.say(user, "/auto on")
    await harness.run_until(lambda: harness.table().hand is None or harness.table().hand.over)
    assert [shown for shown, _ in seen] == [expected for _, expected in seen]
    flat = [play for shown, _ in seen if isinstance(shown, list) for play in shown]
    if game == "situan":
        assert flat  # some pass was seen
    else:
        assert any(said[2] for said in flat) and any(not said[2] for said in flat), flat

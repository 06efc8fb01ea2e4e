"""Issue 11: a table a group can follow — every trick seen whole, every turn noticed, 托管
not counted as timing out, prompts that say what to do, 亮墩 and the flipped card shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.pacing import GroupPacer
from bot.table.hand_views import NOTICE_QUIET_SECONDS
from bot.table.state import BETWEEN, CLOSED
from bot.views.outgoing import Outgoing
from bot.views.shared_texts import cards_text
from engine.erqiwang.order import TRUMP
from tests.bot.harness import (
    CHAT,
    FakeClock,
    Harness,
    Recorder,
    latest_hand_message,
    start_ai_match,
)
from tests.telegram.world import typed_move
from tests.trick_lines import expected_tricks, shown_tricks, watch_finished_tricks


async def ai_match(tmp_path: Path, game: str, human_on_auto: bool) -> Harness:
    harness = await Harness.open(str(tmp_path / "f.sqlite3"), seed=8)
    await start_ai_match(harness, game, on_auto=human_on_auto)
    return harness


async def dealt(tmp_path: Path, game: str, lang: str = "en") -> tuple[Harness, list]:
    """Ann opens a table (seed 8), seats three AI players and deals: the harness and what
    the deal sent."""
    harness = await Harness.open(str(tmp_path / f"{game}.sqlite3"), seed=8)
    await harness.say("ann", f"/new {game}", lang=lang)
    for _ in range(3):
        await harness.say("ann", "/addbot")
    return harness, await harness.say("ann", "/start")


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_player_on_tuoguan_from_the_start_never_times_out(tmp_path, game):
    harness = await ai_match(tmp_path, game, human_on_auto=True)
    try:
        await harness.run_until(lambda: harness.table().state in (CLOSED, BETWEEN))
        lines = [t for t in harness.recorder.texts("group") if "timed out" in t]
        assert lines == []
        assert harness.table().hand is None or not any(harness.table().hand.view(None).timeouts)
    finally:
        await harness.db.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_every_finished_trick_shows_whole_with_its_winner(tmp_path, monkeypatch, game):
    finished = watch_finished_tricks(monkeypatch)
    harness = await ai_match(tmp_path, game, human_on_auto=True)
    table = harness.table()
    try:
        await harness.run_until(lambda: table.state in (CLOSED, BETWEEN))
        expected = expected_tricks(finished, table.seat_names())
        assert len(expected) > 3
        # Every trick, the hand's last one too, in the table messages in order, whole.
        assert shown_tricks(harness.recorder.texts("table")) == expected
    finally:
        await harness.db.close()


class PacedRecorder(Recorder):
    """What the group is actually sent: its posts and table states go through a `GroupPacer`
    on the tables' clock (one call per 3 s slot, only the latest table state), so the AI
    players' pauses and the slots run on one clock; private messages go as they come."""

    def __init__(self, clock: FakeClock) -> None:
        super().__init__()
        self.pacer = GroupPacer(clock)

    async def __call__(self, message: Outgoing) -> None:
        if message.kind not in ("group", "table"):
            self.sent.append(message.resolved())
            return
        self.pacer.submit(message)
        self.release()

    def release(self) -> None:
        self.sent += [message.resolved() for message in self.pacer.due()]


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_tricks_closed_within_one_slot_are_all_shown_to_the_group(
    tmp_path, monkeypatch, game
):
    """AI players pausing 0.5 s close a trick in 2 s (a 四团 round of a play and a pass in
    1 s), quicker than the group's 3 s slot: the state showing a trick is then superseded
    before its turn, and the next state sent lists it above the last one."""
    finished = watch_finished_tricks(monkeypatch)
    harness = await Harness.open(str(tmp_path / "f.sqlite3"), seed=8)
    paced = PacedRecorder(harness.clock)
    harness.recorder = harness.manager.send = paced
    table = None
    try:
        await start_ai_match(harness, game, "ai_delay 0.5")
        table = harness.table()
        while table.state == "playing":
            harness.clock.now = max(harness.clock.now, table.deadline)
            await harness.manager.tick()
            paced.release()
        while (at := paced.pacer.next_time()) is not None:  # what still waits for a slot
            harness.clock.now = max(harness.clock.now, at)
            paced.release()
        texts = [m.text for m in paced.sent if m.kind in ("group", "table")]
        expected = expected_tricks(finished, table.seat_names())
        assert len(expected) > 3
        assert shown_tricks(texts) == expected
        earlier = [
            line
            for text in texts
            for line in text.splitlines()
            if line.startswith(("Earlier round:", "Earlier trick:"))
        ]
        assert earlier  # the case this is about did happen
    finally:
        await harness.db.close()


async def test_a_person_gets_a_new_private_message_when_their_turn_comes(tmp_path):
    harness = await Harness.open(str(tmp_path / "t.sqlite3"), seed=8)
    try:
        await harness.say("ann", "/new erqiwang", lang="en")
        await harness.say("ann", "/settings ai_delay 3")
        for _ in range(3):
            await harness.say("ann", "/addbot")
        await harness.say("ann", "/start")
        table = harness.table()
        notices, turns, acted_at = 0, 0, -1e9
        for _ in range(400):
            if table.state != "playing":
                break
            if table.hand.to_act == 0:
                new = [
                    m
                    for m in harness.recorder.sent
                    if m.kind == "private" and m.slot is None and m.user == "ann"
                ]
                # One new message per turn, unless she acted a moment ago (she won the
                # trick and leads at once): she is looking at the table already.
                fresh = harness.clock.now - acted_at >= NOTICE_QUIET_SECONDS
                assert len(new) == notices + fresh, [m.text for m in new]
                notices += fresh
                turns += 1
                assert new[-1].text.startswith("Your turn · ")
                acted_at = harness.clock.now + 10
                harness.clock.advance(10)  # she takes her time: the next turn is news again
                sent = await harness.say("ann", move_of(table))
                assert not [m for m in sent if m.kind == "reply"], [m.text for m in sent]
                continue
            harness.clock.now = max(harness.clock.now, table.deadline or 0)
            await harness.manager.tick()
        assert notices >= 2 and turns >= notices
    finally:
        await harness.db.close()


def move_of(table) -> str:
    """A legal move for seat 0 (the first), typed."""
    view = table.hand.view(0)
    legal = table.hand.legal_actions(0)
    if view.phase == "bidding":
        return "/pass" if any(a.act == "pass" for a in legal) else f"/bid {legal[0].points}"
    if view.phase == "trump":
        return "/trump S"
    if view.phase == "bury":
        return "/bury " + " ".join(c.text for c in view.hand[-len(view.bottom_shown) :])
    return "/play " + table.front.suggestions(table.hand, 0)[0]


async def test_the_private_prompt_says_what_to_do_next(tmp_path):
    harness, sent = await dealt(tmp_path, "erqiwang", "en")
    try:
        hand = next(m for m in sent if m.kind == "private" and m.slot)
        assert "Bid from 120 down to 0 in steps of 5" in hand.text and "/pass" in hand.text
    finally:
        await harness.db.close()


async def test_surrender_asks_for_a_second_press(tmp_path):
    from engine.actions import Bid, Pass

    harness, _ = await dealt(tmp_path, "erqiwang", "en")
    try:
        table = harness.table()
        hand = table.hand
        while hand.view(None).phase == "bidding":  # ann declares at 120
            seat = hand.to_act
            hand.apply(
                Bid(seat, 120)
                if seat == 0 and Bid(0, 120) in hand.legal_actions(0)
                else Pass(seat)
                if Pass(seat) in hand.legal_actions(seat)
                else hand.legal_actions(seat)[0]
            )
        assert hand.view(None).declarer == 0  # seed 8: the others pass
        table.turn_seat = 0
        first = await harness.say("ann", "/surrender")
        assert [m.kind for m in first] == ["reply"] and "again" in first[0].text
        assert not hand.over
        await harness.say("ann", "/surrender")
        assert hand.over and hand.result.surrendered
    finally:
        await harness.db.close()


async def test_the_prompt_to_follow_says_what_was_led(tmp_path):
    harness = await ai_match(tmp_path, "erqiwang", human_on_auto=False)
    table = harness.table()
    try:
        for _ in range(400):  # Ann bids and plays what the engine lists first
            view = table.hand.view(0)
            if table.hand.to_act == 0 and view.phase == "play" and view.trick:
                break
            if table.hand.to_act == 0:
                await harness.say("ann", move_of(table))
            else:
                harness.clock.now = max(harness.clock.now, table.deadline)
                await harness.manager.tick()
        led = table.hand.view(0).trick[0][1]
        prompt = latest_hand_message(harness, "ann").text.splitlines()[-1]
        cards = cards_text("en", led)  # as the table renders them: ♥2, BJ
        assert prompt.startswith(f"Your turn. Led {cards}: follow with {len(led)} card")
    finally:
        await harness.db.close()


async def test_surrender_where_it_is_not_allowed_is_refused_at_once_with_the_rule(tmp_path):
    harness, _ = await dealt(tmp_path, "erqiwang", "en")
    try:
        before = harness.table().turn_count
        for attempt in ("/surrender", "/surrender", "/surrender yes"):  # in the bidding
            (answer,) = await harness.say("ann", attempt)
            assert answer.text == (
                "Only the declarer may surrender, from taking the bottom until the first card "
                "is played, and only with a bid above 80."
            )  # never "press it again" for what cannot be done
        assert harness.table().turn_count == before and harness.table().confirming is None
    finally:
        await harness.db.close()


async def test_the_flipped_card_that_chose_the_leader_is_shown(tmp_path):
    """Said with the deal: a post always reaches the group, while the first table state may
    be overtaken by the first plays before its slot comes (a play-test saw it never shown)."""
    harness, sent = await dealt(tmp_path, "situan", "en")
    try:
        deal_post = next(m.text for m in sent if m.kind == "group" and "is dealt" in m.text)
        assert "\nFlipped card: " in deal_post and " leads." in deal_post
        table_text = next(m.text for m in sent if m.kind == "table")
        assert "Flipped card:" not in table_text  # said once, not again under it
        assert "team A (Ann, AI 3) 0 · team B (AI 2, AI 4) 0" in table_text  # who partners whom
        assert CHAT
    finally:
        await harness.db.close()


async def test_a_command_of_the_other_game_names_this_games_commands(tmp_path):
    harness, sent = await dealt(tmp_path, "situan", "zh-Hans")
    try:
        table_text = next(m.text for m in sent if m.kind == "table")
        assert "得分：A 队（Ann、电脑 3）0 · B 队（电脑 2、电脑 4）0" in table_text
        (answer,) = await harness.say("ann", "/bid 100")
        assert answer.text == "四团没有 /bid：它的命令是 /consent /pass /play /reveal /show。"
        assert "轮到：Ann（剩 60 秒）" in table_text  # seed 8: Ann leads; one line, no gap
    finally:
        await harness.db.close()


def test_the_settlement_says_where_the_bottoms_points_went():
    from fractions import Fraction

    from bot.games.erqiwang.settling import settlement_text
    from engine.erqiwang.result import ErqiwangResult

    zero = (Fraction(0),) * 4
    result = ErqiwangResult(
        declarer=0,
        bid=0,
        trump="S",
        defender_points=180,
        bottom_points=35,
        bottom_multiplier=1,
        last_trick_winner=3,
        stakes=zero,
        bonus=zero,
        total=zero,
    )
    names = ["Ann", "AI 2", "AI 3", "AI 4"]
    text = settlement_text("en", result, names, zero, zero)
    assert (
        "Ann lost the bid: the defenders' 145 in tricks, the bottom +35, make 180 against a bid "
        "of 0."
    ) in text
    # who caught it and what it came to (the line now names the winner and the product)
    assert "AI 4 won the last trick with trumps: the bottom's 35 points ×1 = 35 go to" in text
    chinese = settlement_text("zh-Hans", result, names, zero, zero)
    assert "闲家抓底：底牌 35 分 ×1 = 35 分归闲家。" in chinese
    kept = ErqiwangResult(
        declarer=0,
        bid=0,
        trump="S",
        defender_points=145,
        bottom_points=35,
        bottom_multiplier=1,
        last_trick_winner=0,
        stakes=zero,
        bonus=zero,
        total=zero,
    )
    # The bottom kept by the declarer is now said too (it used to go unmentioned).
    kept_text = settlement_text("en", kept, names, zero, zero)
    assert "Declarer Ann won the last trick: the bottom stays with the declarer." in kept_text
    assert "抓底" not in kept_text


def test_the_situan_settlement_says_what_the_first_out_took_beyond_their_own():
    from fractions import Fraction

    from bot.games.situan.settling import settlement_text
    from engine.situan.result import SituanResult

    zero = (Fraction(0),) * 4
    # Ann (A) out first, AI 2 (B) last with 30 captured and 15 still in hand; bottom 10.
    # Team A: 90 + 30 + 10 (Ann) + 60 (AI 3) + 15 (AI 2's hand) = 205.
    result = SituanResult(
        finish=(0, 2, 3, 1),
        ended_by="points",
        captured=(90, 30, 60, 105),
        team_points=(205, 105),
        winner="A",
        carry=None,
        dun=((),) * 4,
        shown=None,
        stakes=zero,
        bonus=zero,
        total=zero,
        bottom_points=10,
        remaining=15,
    )
    names = ["Ann", "AI 2", "AI 3", "AI 4"]
    text = settlement_text("en", result, names, zero, zero)
    assert (
        "Ann went out first (上游): Ann also takes AI 2's 30 captured points and the bottom's 10."
        in text
    )
    assert "AI 2 still held 15 points: they go to team A." in text
    chinese = settlement_text("zh-Hans", result, names, zero, zero)
    assert "Ann 是上游：另得 AI 2 抓的 30 分和底牌的 10 分。" in chinese
    nothing = SituanResult(
        finish=(0, 2, 3, 1),
        ended_by="points",
        captured=(120, 0, 80, 100),
        team_points=(200, 100),
        winner="A",
        carry=None,
        dun=((),) * 4,
        shown=None,
        stakes=zero,
        bonus=zero,
        total=zero,
    )
    assert "上游" not in settlement_text("en", nothing, names, zero, zero)
    no_bottom = SituanResult(
        finish=(0, 2, 3, 1),
        ended_by="points",
        captured=(90, 30, 80, 100),
        team_points=(200, 100),
        winner="A",
        carry=None,
        dun=((),) * 4,
        shown=None,
        stakes=zero,
        bonus=zero,
        total=zero,
    )
    assert "Ann went out first (上游): Ann also takes AI 2's 30 captured points.\n" in (
        settlement_text("en", no_bottom, names, zero, zero)
    )
    only_bottom = SituanResult(
        finish=(0, 2, 3, 1),
        ended_by="points",
        captured=(120, 0, 70, 100),
        team_points=(200, 100),
        winner="A",
        carry=None,
        dun=((),) * 4,
        shown=None,
        stakes=zero,
        bonus=zero,
        total=zero,
        bottom_points=10,
    )
    chinese = settlement_text("zh-Hans", only_bottom, names, zero, zero)
    assert "Ann 是上游：另得底牌的 10 分。" in chinese
    double = SituanResult(
        finish=(0, 2),
        ended_by="double",
        captured=(90, 30, 60, 105),
        team_points=(150, 135),
        winner="A",
        carry=None,
        dun=((),) * 4,
        shown=None,
        stakes=zero,
        bonus=zero,
        total=zero,
        bottom_points=10,
    )
    assert "上游" not in settlement_text("en", double, names, zero, zero)
    assert "A 队双关获胜：两人先出完，分数（A 150，B 135）不计。" in settlement_text(
        "zh-Hans", double, names, zero, zero
    )


def test_the_situan_prompt_says_when_the_round_is_the_partners():
    """The group's table may be a slot behind: a player asked to beat a play is told when
    it is the partner's, where passing is mostly right."""
    from bot.games.situan.front import SituanFront
    from tests.situan.helpers import pass_, play, table

    hand = table("3 9 9", "4 8 8", "5 7 7", "6 10 10")
    play(hand, 0, "3")
    play(hand, 1, "4")
    front = SituanFront()
    view = hand.view(2)  # the opponent's 4 holds the round
    assert front.prompt("en", view, hand.legal_actions(2)) == ("Beat single 4 (/play …) or /pass.")
    play(hand, 2, "5")
    pass_(hand, 3)
    view = hand.view(0)  # the partner's 5 holds the round
    assert front.prompt("en", view, hand.legal_actions(0)) == (
        "Your partner's single 5 holds the round: beat it (/play …) or /pass."
    )
    assert front.prompt("zh-Hans", view, hand.legal_actions(0)).startswith("对家的 单张5 最大")


def test_the_trump_prompt_says_what_each_letter_means():
    from bot.games.erqiwang.front import ErqiwangFront
    from engine.actions import NameTrump

    front = ErqiwangFront()

    class Naming:  # the declarer's view at the moment of naming trump
        phase = "trump"

    legal = [NameTrump(0, s) for s in ("S", "H", "C", "D", "none")]
    assert front.prompt("zh-Hans", Naming(), legal) == (
        "定主：/trump S ♠、H ♥、C ♣、D ♦、none（无主）。"
    )
    assert front.prompt("en", Naming(), legal).endswith("D ♦, none (no trump).")


def test_the_deal_names_each_dun_shown_with_its_owner():
    from bot.games.situan.texts import opening_lines
    from tests.situan.helpers import table

    hand = table("7777777 3", "4", "5", "6 8888888")
    names = ["Ann", "AI 2", "AI 3", "AI 4"]
    (line,) = opening_lines("zh-Hans", hand.view(None), names)
    assert line == "亮墩：Ann（7 张同点） · AI 4（7 张同点）"
    assert opening_lines("en", hand.view(None), names) == [
        "Duns dealt: Ann (7 of one rank) · AI 4 (7 of one rank)"
    ]


async def test_a_follow_refused_for_the_suit_names_the_players_own_cards_of_it(tmp_path):
    """二七王: a card of another suit, played while holding the led suit, is refused with the
    rule and the player's own cards of that suit (said to the player alone)."""
    harness = await Harness.open(str(tmp_path / "e.sqlite3"), seed=8)
    try:
        await harness.say("ann", "/new erqiwang", lang="en")
        for _ in range(3):
            await harness.say("ann", "/addbot")
        await harness.say("ann", "/start")
        table = harness.table()
        hand = table.hand
        for _ in range(200):
            if hand.to_act != 0:
                harness.clock.now = max(harness.clock.now, table.deadline)
                await harness.manager.tick()
                continue
            if hand.phase == "play" and hand.lead_suit is not None:
                mine = hand.by_suit[0].get(hand.lead_suit, [])
                other = [c for c in hand.hands[0] if hand.order.suit[c] != hand.lead_suit]
                if mine and other and hand.lead_shape.size == 1:
                    break
            await harness.say("ann", typed_move(table), private=True)
        else:
            raise AssertionError("Ann never followed a single card holding the suit")
        before = len(hand.history)
        (refused,) = await harness.say("ann", f"/play {other[0].text}", private=True)
        suit = (
            "trump"
            if hand.lead_suit == TRUMP
            else {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}[hand.lead_suit]
        )
        held = " ".join(c.symbol() for c in hand.order.sorted_cards(mine))
        assert refused.kind == "reply" and refused.user == "ann" and not refused.public
        assert refused.text == (
            f"Follow {suit}: play as many {suit} cards as you can. You hold: {held}."
        )
        assert len(hand.history) == before  # nothing changed
        await harness.say("ann", "/lang zh-Hans", private=True)
        (refused,) = await harness.say("ann", f"/play {other[0].text}", private=True)
        zh_suit = "主牌" if suit == "trump" else suit
        assert refused.text == f"要跟{zh_suit}：能出多少张{zh_suit}就出多少张。你手里有：{held}。"
    finally:
        await harness.db.close()

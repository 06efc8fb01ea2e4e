"""Issue 55, item 1: /hint and the Hint button give the move the ``hard`` AI player would make
in the asking seat, from that seat's view alone, with one line of why in the player's
language; told to the player alone, its cards chosen in their hand, counted against the
table's ``hints_per_hand`` and marked in the hand record once played."""

from __future__ import annotations

import asyncio
import itertools
import threading
from pathlib import Path
from typing import Any

import pytest

from bot.ai_seats.worker_pool import Job
from bot.games import front_of
from bot.hosting import hinting
from bot.i18n import LANGUAGES
from bot.table import ai_turns
from bot.table.hint_answers import Advice, hint_job
from engine import game_of
from engine.actions import Bid, Pass, Play, action_from_json
from engine.ai.search_decision import Weighing
from engine.errors import IllegalAction
from tests.bot.harness import FakeClock, Harness, latest_hand_message, press, until_seat_zero_acts

GAMES = ("situan", "erqiwang")


async def hinted_table(tmp_path: Path, game: str, lang: str = "en", hints: str = "unlimited"):
    harness = await Harness.open(str(tmp_path / "hints.sqlite3"), FakeClock(), seed=4)
    await harness.say("ann", f"/new {game}", lang=lang)
    await harness.say("ann", f"/settings hints_per_hand {hints}")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    await until_seat_zero_acts(harness)
    return harness


def buttons_of(message: Any) -> list[str]:
    return [button.command for row in message.buttons for button in row]


@pytest.mark.parametrize("game", GAMES)
async def test_a_hint_is_the_hard_players_move_told_to_the_player_alone(tmp_path, game):
    harness = await hinted_table(tmp_path, game)
    try:
        table = harness.table()
        view, legal = table.hand.view(0), tuple(table.hand.legal_actions(0))
        hard = ai_turns.ai_player(game, "hard").decide(view, legal)
        out = await press(harness, "ann", latest_hand_message(harness, "ann"), "/hint")
        told = table.hints.told(table.hand_number, table.turn_count, 0)
        assert told == hard and told in legal
        assert [m.kind for m in out] == ["private", "private"]  # the hint, then the hand
        assert all(m.user == "ann" for m in out)  # the group is never told
        assert out[0].text.startswith("Hint: ") and "Why: " in out[0].text
        if isinstance(hard, Play):  # its cards are chosen in the hand, ready for Play
            assert "Chosen: " in out[1].text
            assert "/go" in buttons_of(out[1])
    finally:
        await harness.db.close()


async def test_the_hinted_move_is_marked_in_the_hand_record_and_replays(tmp_path):
    harness = await hinted_table(tmp_path, "situan")
    try:
        table = harness.table()
        await press(harness, "ann", latest_hand_message(harness, "ann"), "/hint")
        told = table.hints.told(table.hand_number, table.turn_count, 0)
        assert isinstance(told, (Play, Pass))
        await harness.say("ann", "/pass" if isinstance(told, Pass) else "/go", private=True)
        (stored,) = await harness.db.hands_of(table.chat, since_number=table.hand_number)
        marked = [a for a in stored.actions if a.get("hinted")]
        assert marked and marked[0]["seat"] == 0 and marked[0]["act"] == told.act
        assert action_from_json(marked[0], by_rank=True).act == told.act  # replay reads past it
    finally:
        await harness.db.close()


async def test_hints_are_off_at_a_table_by_default_and_the_refusal_says_what_to_do(tmp_path):
    harness = await hinted_table(tmp_path, "erqiwang", hints="0")
    try:
        assert "/hint" not in buttons_of(latest_hand_message(harness, "ann"))
        before = harness.table().turn_count
        out = await harness.say("ann", "/hint", private=True)
        assert [m.text for m in out] == [
            "This table gives no hints. The host may allow some: /settings hints_per_hand 3"
        ]
        assert harness.table().turn_count == before
    finally:
        await harness.db.close()


async def test_a_table_allowing_one_hint_per_hand_refuses_the_second(tmp_path):
    harness = await hinted_table(tmp_path, "situan", hints="1")
    try:
        out = await press(harness, "ann", latest_hand_message(harness, "ann"), "/hint")
        assert out[0].text.endswith("\nHints left in this hand: 0")
        assert "/hint" not in buttons_of(latest_hand_message(harness, "ann"))
        out = await harness.say("ann", "/hint", private=True)
        assert [m.text for m in out] == [
            "You have had this hand's 1 hints: play on your own (the host may allow more: "
            "/settings hints_per_hand)."
        ]
    finally:
        await harness.db.close()


async def test_a_hint_out_of_turn_is_refused_and_changes_nothing(tmp_path):
    harness = await hinted_table(tmp_path, "situan")
    try:
        table = harness.table()
        await harness.say("ann", "/pass" if table.hand.view(0).round_combo else "/play 3")
        assert table.turn_seat != 0
        out = await harness.say("ann", "/hint", private=True)
        assert [m.text for m in out] == ["A hint is for your own turn: ask again when it comes."]
        assert table.hints.used[0] == 0
    finally:
        await harness.db.close()


# ----------------------------------------------------------------- only the seat's view


def played_to_seat_zero(game: str, seed: int, turns: int) -> tuple[Any, list[Any]]:
    """A hand played by ``normal`` players until seat 0's ``turns``-th play (after bidding
    and burying in 二七王), and the actions that led there."""
    engine = game_of(game)
    hand = engine.deal(engine.rules(), seed=seed)
    normal = ai_turns.ai_player(game, "normal")
    actions: list[Any] = []
    seen = 0
    while not hand.over:
        seat = hand.to_act
        legal = hand.legal_actions(seat)
        if (
            seat == 0
            and str(hand.view(0).phase) in ("play", "Phase.PLAY")
            and any(isinstance(a, Play) for a in legal)
        ):
            seen += 1
            if seen == turns:
                return hand, actions
        action = normal.decide(hand.view(seat), legal)
        hand.apply(action)
        actions.append(action)
    raise AssertionError("the hand ended first")


def slots_of(view: Any) -> dict[str, Any]:
    return {name: getattr(view, name) for name in type(view).__slots__ if name != "rules"}


def replayed(game: str, record: dict[str, Any], actions: list[Any]) -> Any:
    hand = game_of(game).hand_from_record(record)
    for action in actions:
        hand.apply(action)
    return hand


def same_view_other_cards(game: str, played: Any, actions: list[Any]) -> tuple[Any, Any]:
    """The hand as its record rebuilds it, and the same hand with two cards swapped between
    seats 1–3 that neither has played (nor buried): a deal that seat 0's view cannot tell
    from the first at this point."""
    record = played.start_record()
    hand = replayed(game, record, actions)
    used = {(a.seat, c.text) for a in actions for c in getattr(a, "cards", ())}
    for x, y in itertools.combinations((1, 2, 3), 2):
        dealt = record["deal"]["hands"]
        for i, j in itertools.product(range(len(dealt[x])), range(len(dealt[y]))):
            a, b = dealt[x][i], dealt[y][j]
            if a == b or (x, a) in used or (y, b) in used:
                continue
            hands = [list(h) for h in dealt]
            hands[x][i], hands[y][j] = b, a
            try:
                other = replayed(
                    game, {**record, "deal": {**record["deal"], "hands": hands}}, actions
                )
            except IllegalAction:  # a play the swap made impossible
                continue
            if other.to_act == 0 and slots_of(other.view(0)) == slots_of(hand.view(0)):
                assert other.cards_of(x) != hand.cards_of(x)
                return hand, other
    raise AssertionError("no swap keeps seat 0's view")


@pytest.mark.parametrize(("game", "seed", "turns"), [("situan", 7, 3), ("erqiwang", 2, 4)])
def test_two_deals_identical_in_the_seats_view_give_the_same_hint(game, seed, turns):
    played, actions = played_to_seat_zero(game, seed, turns)
    hand, other = same_view_other_cards(game, played, actions)
    hints = []
    for each in (hand, other):
        job = Job(game, "hard", 1.0, each.view(0), tuple(each.legal_actions(0)))
        advice = hint_job(job)
        hints.append(
            (advice, front_of(game).hint_text("en", each.view(0), advice.move, advice.weighing))
        )
    assert hints[0] == hints[1]
    assert hints[0][0].weighing.samples > 0  # the search weighed sampled deals of the rest


# ----------------------------------------------------------------- the why-line's words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_why_line_is_said_in_each_language(lang):
    engine = game_of("situan")
    hand = engine.deal(engine.rules(), seed=11)
    view = hand.view(hand.to_act)
    move = Play(hand.to_act, ranks=("K", "K"))
    text = front_of("situan").hint_text(lang, view, move, Weighing(4, 5, False))
    assert text.startswith(
        {
            "zh-Hans": "提示：出 K×2。理由：",
            "zh-Hant": "提示：出 K×2。理由：",
            "en": "Hint: play K×2. Why: ",
        }[lang]
    )
    search = {
        "zh-Hans": "把你看不到的牌模拟发了 4 次，没有别的出法明显更好",
        "zh-Hant": "把你看不到的牌模擬發了 4 次，沒有別的出法明顯更好",
        "en": "played out on 4 deals of the cards you cannot see, no other move did clearly better",
    }[lang]
    assert search in text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_erqiwang_bid_hint_says_what_the_hand_holds(lang):
    engine = game_of("erqiwang")
    hand = engine.deal(engine.rules(), seed=3)
    view = hand.view(0)
    fixed = sum(1 for c in view.hand if c.rank in ("LJ", "BJ", "7", "2"))
    points = sum(c.points for c in view.hand)
    text = front_of("erqiwang").hint_text(lang, view, Bid(0, 80), Weighing())
    expected = {
        "zh-Hans": f"提示：叫 80 分。理由：你的牌里有 {fixed} 张王、7 和 2，共 {points} 分。",
        "zh-Hant": f"提示：叫 80 分。理由：你的牌裡有 {fixed} 張王、7 和 2，共 {points} 分。",
        "en": f"Hint: bid 80. Why: your hand holds {fixed} jokers, 7s and 2s and {points} points.",
    }
    assert text == expected[lang]


def test_the_advice_carries_the_search_it_came_from():
    engine = game_of("erqiwang")
    hand = engine.deal(engine.rules(), seed=3)
    advice = hint_job(Job("erqiwang", "hard", 1.0, hand.view(0), tuple(hand.legal_actions(0))))
    assert isinstance(advice, Advice)
    assert advice.weighing == Weighing()  # a bid is the normal player's: nothing weighed


async def test_a_hint_being_thought_out_holds_no_lock_of_its_table(tmp_path, monkeypatch):
    harness = await hinted_table(tmp_path, "situan")
    try:
        thinking, go_on = threading.Event(), threading.Event()

        def slow_hint(job: Job) -> Advice:  # in the worker thread: waits to be let go
            thinking.set()
            assert go_on.wait(30)
            return hint_job(job)

        monkeypatch.setattr(hinting, "hint_job", slow_hint)  # where Hints.give looks it up
        asked = asyncio.create_task(harness.say("ann", "/hint", private=True))
        await asyncio.to_thread(thinking.wait, 30)
        out = await harness.say("ann", "/score")  # the same table answers meanwhile
        assert out and not asked.done()
        go_on.set()
        answered = await asked  # what was sent since the hint was asked, /score's too
        assert [m.user for m in answered if m.text.startswith("Hint: ")] == ["ann"]
    finally:
        await harness.db.close()


async def test_a_hint_whose_search_fails_is_said_so_and_changes_nothing(tmp_path, monkeypatch):
    harness = await hinted_table(tmp_path, "erqiwang")
    try:

        def failing(job: Job) -> Advice:
            raise RuntimeError("a search that broke")

        monkeypatch.setattr(hinting, "hint_job", failing)
        table = harness.table()
        turn = table.turn_count
        out = await harness.say("ann", "/hint", private=True)
        assert [m.text for m in out] == [
            "No hint could be worked out this time: play as you see fit, or ask again."
        ]
        assert table.turn_count == turn and table.hints.used[0] == 0
    finally:
        await harness.db.close()


async def test_the_hints_had_in_a_hand_are_kept_across_a_restart(tmp_path):
    harness = await hinted_table(tmp_path, "situan", hints="1")
    try:
        await press(harness, "ann", latest_hand_message(harness, "ann"), "/hint")
        number = harness.table().hand_number
    finally:
        await harness.db.close()
    again = await Harness.open(str(tmp_path / "hints.sqlite3"), FakeClock(), seed=4)
    try:
        await again.manager.restore()
        table = again.table()
        assert table.hints.left(number, 0, 1) == 0  # the one hint of this hand is spent
        out = await again.say("ann", "/hint", private=True)
        assert out[0].text.startswith("You have had this hand's 1 hints")
    finally:
        await again.db.close()

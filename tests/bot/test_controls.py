"""Buttons: a human who only presses buttons plays whole matches; stale, foreign and repeated
presses change nothing."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import pytest

from bot.i18n import t
from bot.table.state import BETWEEN, CLOSED
from bot.views.controls import Stamp
from engine.situan.combos import RANKS
from tests.bot.harness import (
    CHAT,
    FakeClock,
    Harness,
    latest_hand_message,
    press,
    table_with_three_bots,
)

HUMAN = "ann"


def button_commands(message) -> list[str]:
    return [b.command for row in message.buttons for b in row]


async def take_turn_by_buttons(harness: Harness, rng: random.Random) -> None:
    """Ann's turn, pressed button by button from her latest private hand message."""
    table = harness.table()
    hand = table.hand

    def latest():
        return latest_hand_message(harness, HUMAN)

    if table.game == "situan":
        if hand.phase == "show_pick":
            await press(harness, HUMAN, latest(), "/reveal me")
            return
        plays = hand.legal_plays()
        if hand.can_pass and (not plays or rng.random() < 0.3):
            await press(harness, HUMAN, latest(), "/pass")
            return
        combo = rng.choice(plays)
        for rank, count in Counter(RANKS[r] for r in combo.ranks).items():
            await press(harness, HUMAN, latest(), f"/pick {rank}")
            await press(harness, HUMAN, latest(), f"/pick {rank} {count}")
        await press(harness, HUMAN, latest(), "/go")
        return
    if hand.phase == "bidding":
        command = "/pass" if hand.may_pass_bidding() else f"/bid {hand.allowed_bids()[-1]}"
        await press(harness, HUMAN, latest(), command)
        return
    if hand.phase == "trump":
        await press(harness, HUMAN, latest(), "/trump H")
        return
    cards = hand.hands[0][:8] if hand.phase == "bury" else rng.choice(hand.legal_plays())
    for c in cards:
        await press(harness, HUMAN, latest(), f"/pick {c.text}")
    await press(harness, HUMAN, latest(), "/go")


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_player_who_only_presses_buttons_finishes_a_match(tmp_path: Path, game: str):
    harness = await Harness.open(str(tmp_path / "bot.sqlite3"), seed=6)
    try:
        opened = await harness.say(HUMAN, f"/new {game}")
        lobby = next(m for m in opened if m.kind == "group" and m.buttons)
        for _ in range(3):
            await press(harness, HUMAN, lobby, "/addbot")
        await harness.say(HUMAN, "/settings max_hands 2")
        await press(harness, HUMAN, lobby, "/start")
        table = harness.table()
        rng = random.Random(2)
        turns = 0
        while table.state != CLOSED:
            if table.hand is not None and table.hand.to_act == 0:
                number, before = table.hand_number, table.turn_count
                await take_turn_by_buttons(harness, rng)
                refusals = [m.text for m in harness.recorder.sent[-3:] if m.kind == "reply"]
                assert not refusals
                # the press moved the game on: a next turn, or the hand it ended
                ended = table.state in (BETWEEN, CLOSED)
                assert table.hand_number != number or table.turn_count > before or ended
                turns += 1
                continue
            if table.state == "between":
                settled = [m for m in harness.recorder.sent if m.kind == "group" and m.buttons]
                await press(harness, HUMAN, settled[-1], "/ready")
                continue
            harness.clock.now = max(harness.clock.now, table.deadline)
            await harness.manager.tick()
        assert turns > 10
        assert table.hand_number == 2
    finally:
        await harness.db.close()


async def test_a_rank_press_offers_each_count_and_the_choice_shows_under_the_hand(tmp_path):
    harness = await table_with_three_bots(str(tmp_path / "b.sqlite3"), FakeClock())
    try:
        table = harness.table()
        rank, held = Counter(c.rank for c in table.hand.cards_of(0)).most_common(1)[0]
        sent = await press(harness, HUMAN, latest_hand_message(harness, HUMAN), f"/pick {rank}")
        counts = [c for c in button_commands(sent[-1]) if c.startswith(f"/pick {rank} ")]
        assert counts == [f"/pick {rank} {n}" for n in range(held + 1)]
        sent = await press(harness, HUMAN, sent[-1], f"/pick {rank} {held}")
        assert "/go" in button_commands(sent[-1]) and "/clear" in button_commands(sent[-1])
        assert f"{rank}×{held}" in sent[-1].text.splitlines()[1]
        sent = await press(harness, HUMAN, sent[-1], "/clear")
        assert "/go" not in button_commands(sent[-1])
    finally:
        await harness.db.close()


async def test_a_button_from_an_earlier_turn_is_refused_and_changes_nothing(tmp_path):
    harness = await table_with_three_bots(str(tmp_path / "b.sqlite3"), FakeClock())
    try:
        table = harness.table()
        old = latest_hand_message(harness, HUMAN)
        rank = table.hand.cards_of(0)[0].rank
        await press(harness, HUMAN, old, f"/pick {rank}")
        await press(harness, HUMAN, latest_hand_message(harness, HUMAN), f"/pick {rank} 1")
        chosen = latest_hand_message(harness, HUMAN)
        await harness.say(HUMAN, "/auto on")  # the turn moves on without these buttons
        await harness.say(HUMAN, "/auto off")
        held, turn = table.hand.cards_of(0), table.turn_count
        actions = len((await harness.db.hands_of(CHAT))[-1].actions)
        sent = await press(harness, HUMAN, chosen, "/go")
        assert [m.kind for m in sent] == ["reply"]
        assert sent[0].text == "这个按钮已过期：牌局已经往下进行了。"
        assert table.hand.cards_of(0) == held and table.turn_count == turn
        assert len((await harness.db.hands_of(CHAT))[-1].actions) == actions
    finally:
        await harness.db.close()


async def test_foreign_and_malformed_presses_change_nothing(tmp_path):
    harness = await table_with_three_bots(str(tmp_path / "b.sqlite3"), FakeClock())
    try:
        table = harness.table()
        message = latest_hand_message(harness, HUMAN)
        held = table.hand.cards_of(0)
        combo = table.hand.legal_plays()[0]
        for rank, count in Counter(RANKS[r] for r in combo.ranks).items():
            await press(harness, HUMAN, latest_hand_message(harness, HUMAN), f"/pick {rank}")
            await press(
                harness, HUMAN, latest_hand_message(harness, HUMAN), f"/pick {rank} {count}"
            )
        message = latest_hand_message(harness, HUMAN)
        sent = await press(harness, "bob", message, "/go")  # bob has no seat
        assert [m.user for m in sent] == ["bob"]
        assert sent[0].text == "你在这桌没有座位。"
        for bad in ("", "x", "zz.1.2.3", f"{table.tag}.x", f"{table.tag}.{table.hand_number}.q"):
            stamped = next(b for row in message.buttons for b in row if b.command == "/go")
            command = await _command(stamped.command, bad)
            await harness.deliver(command)
            assert harness.recorder.sent[-1].text in (
                "这个按钮无效。",
                "这个按钮属于之前的一局。",
            )
        assert table.hand.cards_of(0) == held
        # A repeated press: the first plays, the second is out of date.
        await press(harness, HUMAN, message, "/go")
        assert len(table.hand.cards_of(0)) == len(held) - len(combo.ranks)
        sent = await press(harness, HUMAN, message, "/go")
        assert sent[0].text == "这个按钮已过期：牌局已经往下进行了。"
    finally:
        await harness.db.close()


async def _command(text: str, stamp: str):
    from dataclasses import replace

    from bot.reading.command import parse_command

    parsed = parse_command(text, HUMAN, "Ann", CHAT, True)
    assert parsed is not None
    return replace(parsed, stamp=stamp)


def test_stamps_read_back_what_they_write():
    for stamp in (Stamp("abc12", 3), Stamp("abc12", 3, 17)):
        assert Stamp.read(stamp.text()) == stamp
    for bad in ("", "abc", ".1", "a.b", "a.1.2.3", "a.1.x"):
        assert Stamp.read(bad) is None


async def test_erqiwang_bidding_and_burying_buttons_follow_the_phase(tmp_path):
    harness = await table_with_three_bots(str(tmp_path / "b.sqlite3"), FakeClock(), "erqiwang")
    try:
        table = harness.table()
        hand = table.hand
        assert hand.phase == "bidding"
        commands = button_commands(latest_hand_message(harness, HUMAN))
        bids = [c for c in commands if c.startswith("/bid ")]
        # highest first, as the auction goes down
        assert bids == [f"/bid {p}" for p in sorted(hand.allowed_bids(), reverse=True)]
        assert not any(c.startswith("/pick") for c in commands)
    finally:
        await harness.db.close()


async def test_a_turn_button_sent_before_a_restart_still_acts_after_it(tmp_path):
    path = str(tmp_path / "b.sqlite3")
    clock = FakeClock()
    harness = await table_with_three_bots(path, clock)
    table = harness.table()
    assert table.turn_count > 0 and table.hand.can_pass  # others played first
    message = latest_hand_message(harness, HUMAN)
    turn = table.turn_count
    await harness.db.close()
    restarted = await Harness.open(path, clock, seed=4)
    try:
        await restarted.manager.restore()
        assert restarted.table().turn_count == turn
        sent = await press(restarted, HUMAN, message, "/pass")
        assert not [m for m in sent if m.kind == "reply"]
        assert restarted.table().turn_count == turn + 1
    finally:
        await restarted.db.close()


async def test_lobby_buttons_serve_the_whole_match_but_not_a_later_one(tmp_path):
    harness = await Harness.open(str(tmp_path / "b.sqlite3"), seed=6)
    try:
        opened = await harness.say(HUMAN, "/new situan")
        lobby = next(m for m in opened if m.kind == "group" and m.buttons)
        for _ in range(3):
            await press(harness, HUMAN, lobby, "/addbot")
        await press(harness, HUMAN, lobby, "/start")
        table = harness.table()
        assert table.hand_number == 1
        sent = await press(harness, "bob", lobby, "/join")  # the lobby's stamp says hand 0
        assert [m.text for m in sent] == [t("zh-Hans", "A hand is running; join when it is over.")]
        await harness.say(HUMAN, "/stop")
        harness.clock.advance(1)
        await harness.say(HUMAN, "/new situan")
        sent = await press(harness, "bob", lobby, "/join")  # the old match's lobby post
        assert [m.text for m in sent] == ["这个按钮属于之前的一局。"]
        assert harness.table().seat_of("bob") is None
    finally:
        await harness.db.close()

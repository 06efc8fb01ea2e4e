"""What a quick table says as it goes (issue 54), each line read by each player in their own
language: an English reader and a 简体 reader at one table get a time-out, 托管 turned on and
off, a player leaving mid-hand and the table restored after a restart each in their own words
(`Outgoing.said`, set where the line is made), never in the table's language."""

from __future__ import annotations

import re
from pathlib import Path

from bot.i18n import N_
from bot.reading.command import parse_command
from bot.table import dealing, lobby
from bot.table.state import Table
from bot.views.outgoing import Kind, Outgoing
from storage import Database
from tests.bot.harness import Harness
from tests.bot.test_quick_room import PEOPLE, queued_three

READERS = {"tg:u1": "en", "dc:u2": "zh-Hans"}
"""Ann reads English (Telegram), Bob 简体 (Discord); Cy (the console) reads English too."""
PRIVATE_CHATS = {user: chat for user, chat, *_ in PEOPLE}
NAMES = {user: name for user, _, name, _ in PEOPLE}
GAME_NAMES = ("四团", "二七王")
"""The games' own names: the English texts keep them (docs/glossary.md)."""


async def quick_table(tmp_path: Path) -> tuple[Harness, Table]:
    harness = await queued_three(tmp_path)
    harness.manager.quick.quick_wait = 1.0
    (chat,) = await harness.manager.quick.match()
    return harness, harness.table(chat)


def narration(sent: list[Outgoing], user: str) -> str:
    """The trick's message ``user`` was last shown: the posts of it above the table."""
    shown = [m.text for m in sent if m.user == user and (m.slot or "").startswith("quick")]
    assert shown, f"{user} was shown nothing of the table"
    return shown[-1]


def assert_in_own_language(text: str, lang: str) -> None:
    """English: no Chinese but the games' names. 简体: no English word (the players' names
    aside, which are theirs)."""
    if lang == "en":
        for name in GAME_NAMES:
            text = text.replace(name, "")
        assert not re.search(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]", text), text
    else:
        for name in NAMES.values():
            text = re.sub(rf"\b{name}\b", "", text)
        assert not re.search(r"[A-Za-z]{2,}", text), text


async def a_persons_turn(harness: Harness, table: Table) -> str:
    """Let the AI seat play until a person is to act; returns that person."""
    for _ in range(50):
        seat = table.turn_seat
        occupant = None if seat is None else table.seats[seat]
        if occupant is not None and not occupant.ai and occupant.user is not None:
            return occupant.user
        harness.clock.now = max(harness.clock.now, table.deadline or harness.clock.now)
        await harness.manager.tick()
    raise AssertionError("no person came to act")


async def test_a_time_out_is_noted_to_each_reader_in_their_own_language(tmp_path: Path):
    harness, table = await quick_table(tmp_path)
    user = await a_persons_turn(harness, table)
    harness.recorder.clear()
    harness.clock.now = table.deadline + 1  # their clock runs out
    await harness.manager.tick()
    assert table.hand.timeouts[table.seat_of(user)] == 1
    said = {
        "en": f"{NAMES[user]} has timed out once.",
        "zh-Hans": f"{NAMES[user]} 已超时 1 次。",
    }
    for reader, lang in READERS.items():
        shown = narration(harness.recorder.sent, reader)
        assert said[lang] in shown.splitlines(), (reader, shown)
        assert_in_own_language(shown, lang)
    await harness.db.close()


async def test_auto_play_on_and_off_is_shown_to_each_reader_in_their_own_language(
    tmp_path: Path,
):
    harness, table = await quick_table(tmp_path)
    user = "you"  # Cy, at the console: both readers watch
    name = NAMES[user]
    marks = {"en": rf"\b{name} [^·\n]*\(auto\)", "zh-Hans": rf"{name} [^·\n]*（托管）"}
    seat = table.seat_of(user)
    await harness.say(user, "/auto on", chat=PRIVATE_CHATS[user], private=True)
    assert table.hand.auto[seat]
    for reader, lang in READERS.items():
        shown = narration(harness.recorder.sent, reader)
        assert re.search(marks[lang], shown), (reader, shown)
        assert_in_own_language(shown, lang)
    harness.recorder.clear()
    await harness.say(user, "/auto off", chat=PRIVATE_CHATS[user], private=True)
    assert not table.hand.auto[seat]
    for reader, lang in READERS.items():
        shown = narration(harness.recorder.sent, reader)
        assert not re.search(marks[lang], shown), (reader, shown)
        assert_in_own_language(shown, lang)
    await harness.db.close()


async def test_a_player_leaving_mid_hand_is_told_to_each_reader_in_their_own_language(
    tmp_path: Path,
):
    harness, table = await quick_table(tmp_path)
    user = "you"
    harness.recorder.clear()
    await harness.say(user, "/leave", chat=PRIVATE_CHATS[user], private=True)
    assert table.seats[table.seat_of(user)].left and table.hand.auto[table.seat_of(user)]
    said = {
        "en": f"{NAMES[user]} left; the table plays for them until the hand is over.",
        "zh-Hans": f"{NAMES[user]} 离开了，本局余下的牌由系统托管。",
    }
    for reader, lang in READERS.items():
        shown = narration(harness.recorder.sent, reader)
        assert said[lang] in shown.split("\n\n"), (reader, shown)
        assert_in_own_language(shown, lang)
    await harness.db.close()


async def test_the_table_restored_after_a_restart_is_told_to_each_reader_in_their_own_language(
    tmp_path: Path,
):
    harness, table = await quick_table(tmp_path)
    await a_persons_turn(harness, table)
    await harness.db.close()
    again = Harness(await Database.open(str(tmp_path / "quick.db")), harness.clock, seed=3)
    await again.manager.restore()
    said = {"en": "Table restored after a restart.", "zh-Hans": "机器人重启，牌桌已恢复。"}
    for reader, lang in READERS.items():
        shown = narration(again.recorder.sent, reader)
        assert said[lang] in shown.split("\n\n"), (reader, shown)
        assert_in_own_language(shown, lang)
    await again.db.close()


async def test_a_pause_and_the_score_carry_each_readers_words(tmp_path: Path):
    """Posts a quick table's players could get besides the narration above: the score said
    in the group, and the pause when nobody played (its Continue button with it)."""
    harness, table = await quick_table(tmp_path)
    asked = parse_command("/score", "tg:u1", "Ann", table.chat, False, "en")
    assert asked is not None
    (score,) = lobby.score(table, asked).out
    assert score.text_in("en") == "No hand has been settled yet."
    assert score.text_in("zh-Hans") == "还没有结算过的牌局。"
    minutes = table.table_options.idle_minutes
    effects = dealing.hold(
        table, N_("Nobody at the table played this hand, so the table has paused.")
    )
    (paused,) = [m for m in effects.out if m.kind == Kind.GROUP]
    assert paused.buttons
    assert paused.text_in("en") == (
        "Nobody at the table played this hand, so the table has paused. Press Continue (or say "
        f"/ready) to deal the next hand; otherwise the match ends in {minutes} minutes."
    )
    assert paused.text_in("zh-Hans") == (
        "这一局桌上没有人自己出过牌，牌桌暂停了。"
        f"按“继续”（或说 /ready）发下一局；否则本场在 {minutes} 分钟后结束。"
    )
    await harness.db.close()

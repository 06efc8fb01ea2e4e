"""/quick (issue 54): joining a quick queue privately, where one stands, leaving; refusals
in a group and for an unknown game in all three languages, changing nothing."""

from __future__ import annotations

import itertools
from pathlib import Path

from bot.community.quick_seating import seat_waiting
from bot.games import FRONTS
from tests.bot.harness import Harness

DEFAULT = FRONTS["situan"].game.default_preset


async def test_join_see_where_you_stand_and_leave(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "q.db"))
    (joined,) = await harness.say("tg:1", "/quick situan", private=True, lang="en")
    assert joined.text.startswith("You are in the quick queue for Situan (四团) (")
    assert "after 90 s with two or three of you and AI players" in joined.text
    entry = await harness.db.queue_entry("tg:1")
    assert entry is not None and (entry.game, entry.mu, entry.accepts_ai) == ("situan", 25.0, True)
    harness.clock.advance(12)
    (where,) = await harness.say("tg:1", "/quick", private=True, lang="zh-Hans")
    assert where.text.startswith("你已等 四团（") and "快速匹配 12 秒，目前只有你一人" in where.text
    await harness.say("dc:5", "/quick situan", private=True, lang="en")
    (two,) = await harness.say("tg:1", "/quick", private=True, lang="en")
    assert (
        "12 s for a quick Situan (四团) table" in two.text and "; 1 more wait with you" in two.text
    )
    (again,) = await harness.say("tg:1", "/quick erqiwang", private=True, lang="en")
    assert again.text.startswith("You are waiting for a quick table already")
    assert (await harness.db.queue_entry("tg:1")).game == "situan"  # unchanged
    (left,) = await harness.say("tg:1", "/quick stop", private=True, lang="en")
    assert left.text == "You left the quick queue."
    (nowhere,) = await harness.say("tg:1", "/quick", private=True, lang="en")
    assert nowhere.text.startswith("You are in no quick queue. Say /quick and a game")
    (no_ai,) = await harness.say("dc:2", "/quick erqiwang noai", private=True, lang="zh-Hant")
    assert "不用電腦玩家" in no_ai.text
    assert not (await harness.db.queue_entry("dc:2")).accepts_ai
    await harness.db.close()


async def test_refusals_in_three_languages_change_nothing(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "r.db"))
    group = {
        "zh-Hans": "/quick 要在和机器人的私聊里说：在那里发给我，我帮你找一桌来自各处的牌友。",
        "zh-Hant": "/quick 要在和機器人的私訊裡說：在那裡發給我，我幫你找一桌來自各處的牌友。",
        "en": "/quick is for a private chat with the bot: write it to me there, and I find you "
              "a table of players from anywhere.",
    }  # fmt: skip
    unknown = {"zh-Hans": "请说 /quick 加游戏：", "zh-Hant": "請說 /quick 加遊戲：",
               "en": "Say /quick and a game: "}  # fmt: skip
    for lang in group:
        (said,) = await harness.say("tg:1", "/quick situan", lang=lang)  # in the group
        assert said.text == group[lang]
        (said,) = await harness.say("tg:1", "/quick chess", private=True, lang=lang)
        assert said.text.startswith(unknown[lang])
    (preset,) = await harness.say("tg:1", "/quick situan nosuch", private=True, lang="en")
    assert preset.text.startswith("Unknown preset nosuch. Presets:")
    assert await harness.db.queue_entry("tg:1") is None
    await harness.db.close()


async def test_four_who_said_quick_are_seated_at_one_table(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "s.db"))
    for user in ("tg:1", "dc:2", "console:3", "tg:4"):
        await harness.say(user, "/quick situan", private=True, lang="en")
    preset = (await harness.db.queue_entry("tg:1")).preset  # the game's default
    opened = await seat_waiting(
        harness.db, "situan", preset, harness.clock(), 90.0, lambda: "quick:1"
    )
    assert [(chat, {p.user for p in people}, ai) for chat, people, ai in opened] == [
        ("quick:1", {"tg:1", "dc:2", "console:3", "tg:4"}, 0)
    ]
    (nowhere,) = await harness.say("tg:1", "/quick", private=True, lang="en")
    assert nowhere.text.startswith("You are in no quick queue")
    await harness.db.close()


async def test_block_keeps_two_apart_from_then_on(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "b.db"))
    (early,) = await harness.say("tg:1", "/block Bob", private=True, lang="en")
    assert early.text.startswith("/block is for the players of your last quick table")
    for user, name in (("tg:1", "Ann"), ("dc:2", "Bob"), ("tg:3", "Cy"), ("tg:4", "Di")):
        await harness.say(user, "/quick situan", private=True, lang="en")
        async with harness.db.transaction() as tx:
            await tx.set_player(user, name)
    preset = (await harness.db.queue_entry("tg:1")).preset
    numbers = itertools.count()
    assert await seat_waiting(
        harness.db, "situan", preset, harness.clock(), 90.0, lambda: f"quick:{next(numbers)}"
    )
    (wrong,) = await harness.say("tg:1", "/block Zed", private=True, lang="zh-Hans")
    assert wrong.text == "请说 /block 加你上一桌快速匹配的牌友名字：Bob、Cy、Di。"
    (done,) = await harness.say("tg:1", "/block bob", private=True, lang="en")
    assert done.text == "You will not be matched with Bob again."
    (group,) = await harness.say("tg:1", "/block Bob", lang="en")
    assert group.text.startswith("/block is for a private chat")
    # Ann and Bob never meet again, whoever else waits, over 50 matches (they still play).
    met = played = 0
    for _ in range(50):
        for user in ("tg:1", "dc:2", "tg:3", "tg:4", "tg:5", "tg:6", "tg:7", "tg:8"):
            await harness.say(user, "/quick situan", private=True, lang="en")
        harness.clock.advance(100)
        for _, people, _ in await seat_waiting(
            harness.db, "situan", preset, harness.clock(), 90.0, lambda: f"quick:{next(numbers)}"
        ):
            users = {p.user for p in people}
            met += {"tg:1", "dc:2"} <= users
            played += bool(users & {"tg:1", "dc:2"})
    assert met == 0 and played >= 50
    await harness.db.close()


async def test_block_keeps_two_apart_over_fifty_quick_room_matches(tmp_path: Path):
    """Through the quick room itself: each round eight people say /quick, the room's
    matching step opens and deals their tables, and Ann, who blocked Bob, never sits with
    him. Between rounds the tables are taken away (`close_chat`, as when the bot loses a
    chat), which frees the people without playing fifty hands out."""
    harness = await Harness.open(str(tmp_path / "b.db"))
    people = [("tg:1", "Ann"), ("dc:2", "Bob")] + [(f"tg:{n}", f"P{n}") for n in range(3, 9)]
    for user, name in people:
        async with harness.db.transaction() as tx:
            await tx.set_player(user, name)
    async with harness.db.transaction() as tx:
        assert await tx.block("tg:1", "dc:2", harness.clock())
    room = harness.manager.quick
    met = played = tables = 0
    for _ in range(50):
        for user, _name in people:
            (queued,) = await harness.say(user, "/quick situan", private=True, lang="en")
            assert queued.text.startswith("You are in the quick queue"), queued.text
        harness.clock.advance(100)
        opened = await room.match()
        assert opened and await harness.db.waiting_in("situan", DEFAULT) == 0
        for chat in opened:
            table = harness.table(chat)
            seated = {seat.user for seat in table.seats if seat is not None and not seat.ai}
            assert table.hand is not None  # dealt: a real table of the room
            met += {"tg:1", "dc:2"} <= seated
            played += bool(seated & {"tg:1", "dc:2"})
            tables += 1
            await harness.manager.close_chat(chat)
    assert met == 0 and played >= 50 and tables >= 100
    await harness.db.close()


async def test_three_leaves_within_a_day_pause_the_queue_for_an_hour(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "p.db"))
    start = harness.clock()
    async with harness.db.transaction() as tx:
        for hours in (0, 20):  # two leaves: no pause yet
            await tx.note_leave("tg:1", start + hours * 3600)
    harness.clock.now = start + 20 * 3600 + 60
    (two,) = await harness.say("tg:1", "/quick situan", private=True, lang="en")
    assert two.text.startswith("You are in the quick queue")
    await harness.say("tg:1", "/quick stop", private=True, lang="en")
    async with harness.db.transaction() as tx:
        await tx.note_leave("tg:1", harness.clock())  # the third within 24 hours
    harness.clock.advance(15 * 60)
    said = {
        "zh-Hans": "你一天内有三局中途离开：快速匹配暂停，还有 45 分钟。",
        "zh-Hant": "你一天內有三局中途離開：快速配對暫停，還有 45 分鐘。",
        "en": "You left three hands before their end within a day: your quick queue is paused "
              "for 45 more minutes.",
    }  # fmt: skip
    for lang, text in said.items():
        (refused,) = await harness.say("tg:1", "/quick situan", private=True, lang=lang)
        assert refused.text == text
    assert await harness.db.queue_entry("tg:1") is None  # refused: nothing changed
    harness.clock.advance(45 * 60)  # the hour is over
    (back,) = await harness.say("tg:1", "/quick situan", private=True, lang="en")
    assert back.text.startswith("You are in the quick queue")
    await harness.db.close()

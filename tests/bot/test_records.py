"""Records and achievements (issue 42): counted from stored hands, the same live as rebuilt;
each achievement announced once, in the post that ends the hand, also after a restart."""

from __future__ import annotations

import time
from pathlib import Path

from bot.commands.chat import PERIODS
from bot.community.player_records import PlayerRecord, SeatFacts, fold, ranking
from bot.community.record_book import RECENT_SECONDS
from bot.games import RECORD_READERS
from storage.rows import FinishedHand
from tests.bot.harness import CHAT, FakeClock, Harness

PEOPLE = ("ann", "bob", "cid", "dan")


async def four_on_auto(harness: Harness, game: str, hands: int, lang: str = "zh-Hans") -> None:
    """Four people sit down and go on 托管: the table plays their hands for them."""
    await harness.say("ann", f"/new {game}", lang=lang)
    await harness.say("ann", f"/settings max_hands {hands}", lang=lang)
    for user in PEOPLE[1:]:
        await harness.say(user, "/join", lang=lang)
    await harness.say("ann", "/start", lang=lang)
    for user in PEOPLE:
        await harness.say(user, "/auto on", lang=lang)


def achievement_lines(harness: Harness) -> list[str]:
    return [
        line
        for text in harness.recorder.texts("group")
        for line in text.split("\n")
        if line.startswith(("成就：", "Achievements:"))
    ]


async def play_hands(harness: Harness, count: int) -> None:
    """Play ``count`` hands on 托管; between them the four say /ready and go on 托管 again."""
    for _ in range(count):
        if harness.table().state == "between":
            for user in PEOPLE:
                await harness.say(user, "/ready")
            for user in PEOPLE:
                await harness.say(user, "/auto on")
        goal = harness.table().hand_number

        def ended(goal: int = goal) -> bool:
            table = harness.table()
            return table.state == "closed" or (
                table.hand_number >= goal and table.state == "between"
            )

        await harness.run_until(ended)


async def test_an_achievement_is_posted_once_in_the_post_ending_the_hand_also_after_a_restart(
    tmp_path: Path,
):
    path = str(tmp_path / "records.sqlite3")
    clock = FakeClock()
    harness = await Harness.open(path, clock, seed=2)
    await four_on_auto(harness, "situan", 0)
    await play_hands(harness, 1)
    lines = achievement_lines(harness)
    assert len(lines) == 1 and "首次上游" in lines[0]
    settlement = next(t for t in harness.recorder.texts("group") if lines[0] in t)
    assert settlement.index(lines[0]) > 0  # a line of the settlement, not a post of its own
    first = lines[0].split(" — ")[0].removeprefix("成就：")
    announced = await harness.db.announced(CHAT)
    await harness.db.close()

    restarted = await Harness.open(path, clock, seed=2)
    await restarted.manager.restore()
    await play_hands(restarted, 3)
    later = achievement_lines(restarted)
    assert all(f"{first} — 首次上游" not in line for line in later)  # never again
    assert announced <= await restarted.db.announced(CHAT)
    await restarted.db.close()


async def test_records_rebuilt_from_stored_hands_equal_those_counted_live(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "live.sqlite3"), FakeClock(), seed=3)
    await four_on_auto(harness, "situan", 4)
    book = harness.manager.records
    await book.history(CHAT)  # counted from here on, hand by hand as each is stored
    kept = []
    for _ in range(4):
        await play_hands(harness, 1)
        kept.append(len((await book.history(CHAT)).recent))
        if harness.table().state == "closed":
            break
    assert kept == sorted(kept) and kept[-1] >= 3
    live = (await book.history(CHAT)).records
    assert live == await book.rebuilt(CHAT)
    assert (
        sum(record.hands for record in live.values())
        == 4 * kept[-1]
        - sum(1 for h in (await book.history(CHAT)).recent if h.result.get("redeal")) * 4
    )
    await harness.db.close()


async def test_only_the_last_thirty_days_of_hands_are_kept_and_all_time_stays_whole(
    tmp_path: Path,
):
    """A group's hands are not all kept in memory: past `RECENT_SECONDS` they leave, and the
    all-time standings (folded as they came) still equal a ranking over every stored hand.
    Storage stamps a hand's start with the wall clock, so the book's clock starts there."""
    clock = FakeClock(time.time())
    harness = await Harness.open(str(tmp_path / "kept.sqlite3"), clock, seed=4)
    await four_on_auto(harness, "situan", 3)
    book = harness.manager.records
    await book.history(CHAT)
    await play_hands(harness, 3)
    history = await book.history(CHAT)
    assert len(history.recent) >= 3
    stored = await harness.db.finished_hands(CHAT)
    every_game = ranking(stored, None, None, RECORD_READERS)
    assert every_game and history.top(None, None, RECORD_READERS) == every_game
    assert history.top(None, "situan", RECORD_READERS) == every_game
    assert history.top(None, "erqiwang", RECORD_READERS) == []
    assert history.top(clock() - 7 * 86_400, None, RECORD_READERS) == every_game

    clock.advance(RECENT_SECONDS + 3600)  # the hands started within the hour
    history = await book.history(CHAT)
    assert history.recent == []  # gone from memory, still in storage
    assert history.top(None, None, RECORD_READERS) == every_game
    assert history.top(clock() - 30 * 86_400, None, RECORD_READERS) == []
    assert history.records == await book.rebuilt(CHAT)
    await harness.db.close()


def test_every_top_period_short_of_all_time_is_within_the_kept_hands():
    assert max(p for p in PERIODS.values() if p is not None) <= RECENT_SECONDS


def test_a_record_counts_streaks_and_the_biggest_win():
    record = PlayerRecord()
    for amount in (2, 3, -1, 5, 1, 1):
        record.add("Ann", "situan", amount, SeatFacts())
    assert (record.hands, record.wins, record.streak, record.best_streak) == (6, 5, 3, 3)
    assert record.best_hand == 5 and record.total == 11


def test_situan_facts_read_first_out_double_and_dun():
    result = {"finish": [2, 0, 1, 3], "ended_by": "double", "winner": "A",
              "dun": [[7], [], [8, "LJ3"], []]}  # fmt: skip
    reader = RECORD_READERS["situan"]
    assert reader.seat_facts(result, 2) == SeatFacts(("first_out", "double"), (("dun", 8),))
    assert reader.seat_facts(result, 1) == SeatFacts()


def test_erqiwang_facts_read_bonus_levels_and_bid_bands():
    result = {"declarer": 1, "bid": 60, "declarer_won": True,
              "bonuses": [{"seat": 1, "name": "皇后", "value": 5}]}  # fmt: skip
    hand = FinishedHand(
        1,
        0.0,
        "erqiwang",
        result,
        [("u0", "A", "-1"), ("u1", "B", "3"), ("u2", "C", "-1"), ("ai:3", "", "-1")],
    )
    records = fold({}, [hand], RECORD_READERS)
    assert set(records) == {"u0", "u1", "u2"}  # no record for an AI seat
    assert records["u1"].marks == {"bonus:皇后": 1, "made:≤60": 1}
    feats = [a.code for a in RECORD_READERS["erqiwang"].achievements if a.earned(records["u1"])]
    assert feats == ["huanghou", "bid60"]


async def test_stats_and_top_week_after_a_short_match_in_both_scripts_and_english(
    tmp_path: Path,
):
    harness = await Harness.open(str(tmp_path / "stats.sqlite3"), FakeClock(), seed=2)
    await four_on_auto(harness, "situan", 2)
    await play_hands(harness, 2)
    shown = {}
    for lang in ("zh-Hans", "zh-Hant", "en"):
        stats = await harness.say("ann", "/stats", lang=lang)
        top = await harness.say("ann", "/top week situan", lang=lang)
        shown[lang] = (stats[-1].text, top[-1].text)
    assert shown["zh-Hans"][0].startswith("Ann 在本群：2 局")
    assert "四团：上游" in shown["zh-Hans"][0]
    assert shown["en"][0].startswith("Ann here: 2 hands")
    assert shown["zh-Hans"][1].startswith("排行榜（最近 7 天、四团）：\n1. ")
    assert shown["en"][1].startswith("Leaderboard (the last 7 days, Situan (四团)):\n1. ")
    assert shown["zh-Hant"][1].count("（2 局）") == 4
    refused = await harness.say("ann", "/top year", lang="en")
    assert refused[-1].text.startswith("Say /top with week, month or all")
    for lang, (stats, top) in shown.items():
        print(f"--- {lang}\n{stats}\n{top}")
    await harness.db.close()


async def test_the_achievements_line_is_said_in_each_readers_language(tmp_path: Path):
    """A quick table's players each read the post ending the hand in their own language
    (`Outgoing.said`): its achievements line too, not the table's language."""
    harness = await Harness.open(str(tmp_path / "records.sqlite3"), FakeClock(), seed=2)
    await four_on_auto(harness, "situan", 0)
    await play_hands(harness, 1)
    (line,) = achievement_lines(harness)
    (ended,) = [m for m in harness.recorder.sent if m.kind == "group" and line in m.text]
    english = ended.text_in("en").split("\n")
    assert english[-1].startswith("Achievements: ") and "first time" in english[-1]
    assert ended.text_in("zh-Hans") == ended.text
    await harness.db.close()

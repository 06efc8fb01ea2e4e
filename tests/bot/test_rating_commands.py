"""/rating and /top rating (issue 54 item 1) as players read them, in 简体 and English."""

from __future__ import annotations

import re
from pathlib import Path

from bot.community.skill_ratings import Rating, display
from storage.ratings import RatingMove
from tests.bot.harness import Harness

DAY = 86_400.0


async def rated(harness: Harness, at: float, moves: list[RatingMove], game: str = "situan"):
    async with harness.db.transaction() as tx:
        await tx.ratings_to_update(game, [m.user for m in moves], 25.0, 25 / 3)
        await tx.save_ratings(game, 1, at, moves)


async def test_rating_says_the_value_the_title_and_mu_sigma(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "r.db"))
    said = await harness.say("ann", "/rating", private=True, lang="en")
    assert [m.text for m in said] == [
        "You have no rating yet: it comes with your first hand at a rated table."
    ]
    await rated(harness, harness.clock(), [RatingMove("ann", "Ann", 25, 25 / 3, 40.0, 2.5)])
    value = display(Rating(40.0, 2.5))  # (40 − 7.5) × 60 = 1950
    assert value == 1950
    (english,) = await harness.say("ann", "/rating", private=True, lang="en")
    assert (
        english.text == "Ann's ratings:\nSituan (四团): 1950 Master (μ 40.0, σ 2.5; rated hands: 1)"
    )
    (chinese,) = await harness.say("ann", "/rating situan", private=True, lang="zh-Hans")
    assert chinese.text == "Ann 的等级分：\n四团：1950 大师（μ 40.0，σ 2.5；计分 1 局）"
    (other,) = await harness.say("ann", "/rating erqiwang", private=True, lang="en")
    assert other.text.startswith("You have no rating yet")
    (bad,) = await harness.say("ann", "/rating chess", private=True, lang="zh-Hans")
    assert bad.text.startswith("请说 /rating，或 /rating 加游戏：")
    await harness.db.close()


async def test_top_rating_orders_by_the_display_value_and_week_shows_the_movers(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "t.db"))
    now = harness.clock()
    (empty,) = await harness.say("ann", "/top rating", private=True, lang="en")
    assert empty.text == "Nobody has a rating yet."
    await rated(
        harness,
        now - 10 * DAY,
        [
            RatingMove("ann", "Ann", 25, 25 / 3, 45.0, 2.0),  # 2340, all of it long ago
            RatingMove("bob", "Bob", 25, 25 / 3, 30.0, 3.0),  # 1260
        ],
    )
    await rated(
        harness,
        now - DAY,
        [
            RatingMove("bob", "Bob", 30.0, 3.0, 35.0, 2.0),  # 1260 → 1740 this week
            RatingMove("cy", "Cy", 25, 25 / 3, 26.0, 8.0),  # 0 → 120
        ],
    )
    (board,) = await harness.say("ann", "/top rating situan", private=True, lang="en")
    assert board.text.splitlines() == [
        "Rating leaderboard, Situan (四团):",
        "1. Ann 2340 Master",
        "2. Bob 1740 Expert",
        "3. Cy 120 Novice",
    ]
    (week,) = await harness.say("ann", "/top rating week", private=True, lang="zh-Hans")
    assert week.text.splitlines() == [
        "近 7 天等级分涨幅榜，四团：",
        "1. Bob +480（现为 1740）",
        "2. Cy +120（现为 120）",
    ]
    (bad,) = await harness.say("ann", "/top rating soon", private=True, lang="en")
    assert bad.text.startswith("Say /top rating, with a game and week if you like:")
    (plain,) = await harness.say("ann", "/top", lang="en")  # the group's own board is still there
    assert not re.search("Rating", plain.text)
    await harness.db.close()

"""二七王 as the group reads it: the auction's end in one post before the first card, no
message after it showing the auction open, the trump and the burying told, a settlement
that says where every figure came from, and /bid read as players write it."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest

from bot.games.erqiwang import ErqiwangFront
from bot.games.erqiwang.bids import read_bid
from bot.games.erqiwang.settling import settlement_text
from bot.games.game_front import BadInput
from bot.table.state import BETWEEN, CLOSED
from engine.actions import Bid, Pass
from engine.erqiwang.result import ErqiwangResult
from engine.errors import IllegalAction
from tests.bot.harness import Harness, start_ai_match, table_with_three_bots
from tests.erqiwang.helpers import cards, dealt, playing, trick
from tests.record_actions import Action

NAMES = ["Ann", "AI 1", "AI 2", "AI 3"]
ZERO = (Fraction(0),) * 4
BOTTOM_25 = "SK S10 S5 D3 D4 D6 D8 D9"


async def one_ai_hand(tmp_path: Path) -> Harness:
    harness = await Harness.open(str(tmp_path / "e.sqlite3"), seed=3)
    await start_ai_match(harness, "erqiwang", on_auto=True)
    await harness.run_until(lambda: harness.table().state in (CLOSED, BETWEEN))
    return harness


def first_index(texts: list[str], needle: str) -> int:
    return next(i for i, text in enumerate(texts) if needle in text)


async def test_the_auctions_end_is_one_post_with_every_bid_before_the_first_card(tmp_path):
    harness = await one_ai_hand(tmp_path)
    try:
        sent = [m for m in harness.recorder.sent if m.kind in ("group", "table")]
        texts = [m.text for m in sent]
        end = first_index(texts, "Bidding over:")
        post = texts[end]
        assert sent[end].kind == "group"
        assert " is declarer at " in post and "takes the bottom: " in post
        bids = post.split("Bidding over: ")[1].split(".\n")[0].split(" · ")
        assert bids[0].startswith("Ann ") and len(bids) >= 4  # in order, from the first bidder
        assert end < first_index(texts, "This trick:")
    finally:
        await harness.db.close()


async def test_no_message_after_the_auction_shows_it_open(tmp_path):
    harness = await one_ai_hand(tmp_path)
    try:
        texts = [m.text for m in harness.recorder.sent if m.kind in ("group", "table")]
        end = first_index(texts, "Bidding over:")
        assert not [text for text in texts[end + 1 :] if "Bids:" in text]
        named = first_index(texts, "names trump:")
        buried = first_index(texts, "has buried")
        # while the declarer alone acts, the table says what it is doing, not whose turn
        assert any("is naming trump" in text for text in texts[end:named])
        assert any("is burying 8 cards" in text for text in texts[named:buried])
        assert not [text for text in texts[end:buried] if "Turn:" in text]
    finally:
        await harness.db.close()


async def test_trump_and_the_burying_are_told_but_not_the_buried_cards(tmp_path):
    harness = await one_ai_hand(tmp_path)
    try:
        posts = harness.recorder.texts("group")
        auction = next(p for p in posts if "Bidding over:" in p)
        declarer = auction.split("\n")[1].split(" is declarer at ")[0]
        (named,) = [p for p in posts if "names trump:" in p]
        assert re.fullmatch(f"Declarer {declarer} names trump: [♠♥♣♦]\\.", named), named
        (buried,) = [p for p in posts if "has buried" in p]
        assert buried == f"Declarer {declarer} has buried 8 cards."  # how many, not which
    finally:
        await harness.db.close()


def test_a_side_card_taking_the_last_trick_is_said_with_the_bid_levels_and_multiplier():
    # seat 1 wins the last trick with ♦5, a side card (trump ♥): the bottom is void for them
    hand = playing("S3 C3", "SA D5", "S8 C4", "SJ C6", bottom=BOTTOM_25, bury=BOTTOM_25)
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "D5", "C4", "C6", "C3")
    result = hand.result
    assert isinstance(result, ErqiwangResult)
    text = settlement_text("en", result, NAMES, list(result.total), list(result.total))
    assert "Ann made the bid: the defenders took 5 against a bid of 80." in text
    assert "The bottom: ♠K ♠10 ♠5 ♦3 ♦4 ♦6 ♦8 ♦9 (25 points)." in text
    assert "AI 1 won the last trick with a side card: the bottom does not count" in text
    assert "(副牌不扣底)" in text
    # bid 80 (multiplier 2), 5 points: |5 - 80| = 75, one level of 40 more: 2 levels
    assert "Ann wins: 2 levels × bid multiplier 2 = 4 from each defender, +12 in all." in text
    # ...and where the 2 levels come from, in the same message (issue 49)
    assert (
        "+12 in all. Levels: 1, and 1 more for each full 40 points between the defenders' "
        "5 and the bid 80."
    ) in text
    chinese = settlement_text("zh-Hans", result, NAMES, list(result.total), list(result.total))
    assert "庄家 Ann 赢：2 级 × 叫分倍数 2 = 每位闲家付 4，共 +12。" in chinese
    assert "级数：1 级，闲家 5 分与叫分 80 每差满 40 分再加 1 级。" in chinese
    assert "副牌不扣底" in chinese


def test_the_bottom_caught_with_trumps_is_said_with_its_multiplier():
    hand = playing("S3 S4 S4", "SA H3 H3", "S8 S9 S9", "SJ SQ SQ", bottom=BOTTOM_25, bury=BOTTOM_25)
    trick(hand, "S3", "SA", "S8", "SJ")
    trick(hand, "H3 H3", "S9 S9", "SQ SQ", "S4 S4")
    result = hand.result
    assert isinstance(result, ErqiwangResult)
    text = settlement_text("zh-Hans", result, NAMES, list(result.total), list(result.total))
    assert "AI 1 用主牌赢了最后一轮，闲家抓底：底牌 25 分 ×2 = 50 分归闲家。" in text


def test_a_declared_chongguan_says_its_points():
    # classic: 冲关 as card points, 40 a 关; AI 1's three jokers (1 关) add 40 for the defenders
    hand = dealt("S3 S4 S5", "BJ LJ LJ", "S8 S9 S10", "SJ SQ SK", bottom=BOTTOM_25)
    hand.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    hand.apply(Action(0, "bury", cards=cards(BOTTOM_25)))
    hand.apply(Action(1, "declare_bonus"))
    trick(hand, "S3", "LJ", "S8", "SJ")
    trick(hand, "BJ", "S9", "SQ", "S4")
    trick(hand, "LJ", "S10", "SK", "S5")
    result = hand.result
    assert isinstance(result, ErqiwangResult) and result.bonuses
    text = settlement_text("en", result, NAMES, list(result.total), list(result.total))
    assert "AI 1's bonus (冲关) of 1: 40 points to the defenders." in text
    assert "Bonus (冲关) +40: defenders 50 → 90" in text
    assert "Ann loses: 1 level × bid multiplier 2 = 2 to each defender, -6 in all." in text
    assert ", 冲关 0," not in text  # no empty 冲关 column when none was paid apart


def test_the_settlement_picture_footer_gives_the_reason():
    front = ErqiwangFront()
    side = ErqiwangResult(
        declarer=0,
        bid=80,
        trump="H",
        defender_points=5,
        bottom_points=25,
        bottom_multiplier=0,
        last_trick_winner=1,
        declarer_won=True,
        stakes=ZERO,
        bonus=ZERO,
        total=ZERO,
        bottom=cards("SK S10 S5"),
    )
    footer = front.settlement_picture("zh-Hans", side, NAMES, ZERO, ZERO, 1).footer
    assert footer.startswith("叫分 80 · 闲家 5 分") and "副牌不扣底" in footer
    assert footer.endswith("底牌 ♠K ♠10 ♠5")
    caught = ErqiwangResult(
        declarer=0,
        bid=80,
        trump="H",
        defender_points=90,
        bottom_points=25,
        bottom_multiplier=2,
        last_trick_winner=1,
        stakes=ZERO,
        bonus=ZERO,
        total=ZERO,
    )
    assert "抓底 25×2" in front.settlement_picture("en", caught, NAMES, ZERO, ZERO, 1).footer


@pytest.mark.parametrize(
    ("said", "action"),
    [
        (("100",), Bid(0, 100)),
        (("100分",), Bid(0, 100)),
        (("100", "分"), Bid(0, 100)),
        (("１００",), Bid(0, 100)),
        (("不叫",), Pass(0)),
        (("pass",), Pass(0)),
        (("PASS",), Pass(0)),
        (("不要",), Pass(0)),
    ],
)
def test_bid_reads_what_players_write(said, action):
    assert read_bid(0, said) == action


@pytest.mark.parametrize("said", [(), ("²",), ("-5",), ("100", "200"), ("ten",)])
def test_bid_that_is_no_bid_says_both_forms(said):
    with pytest.raises(BadInput) as refusal:
        read_bid(0, said)
    assert "/bid 75" in refusal.value.key and "/bid pass" in refusal.value.key


async def test_a_pass_in_the_auction_reads_bu_jiao(tmp_path):
    harness = await table_with_three_bots(str(tmp_path / "p.sqlite3"), _clock(), "erqiwang")
    try:
        sent = await harness.say("ann", "/bid 不叫")
        table = next(m.text for m in reversed(sent) if m.kind == "table")
        assert "Ann 不叫" in table and "不要" not in table
    finally:
        await harness.db.close()


def test_the_declarer_is_told_what_to_do_not_that_the_declarer_is_burying():
    hand = dealt("S3 S4", "S5 S6", "S8 S9", "SJ SQ", bottom=BOTTOM_25)
    hand.apply(Action(0, "bid", points=80))
    for seat in (1, 2, 3):
        hand.apply(Action(seat, "pass"))
    hand.apply(Action(0, "trump", suit="H"))
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(Action(0, "play", cards=cards("S3")))
    front = ErqiwangFront()
    said = front.explain("zh-Hans", refusal.value, hand.view(0))
    assert said == "现在不行：先选 8 张牌埋底（/bury …）。"
    assert "正在埋底" in front.explain("zh-Hans", refusal.value, hand.view(1))


def _clock():
    from tests.bot.harness import FakeClock

    return FakeClock()

"""四团 as the group and the player read it: one notation, the points in the round, a
carried-over series' totals, why a hand was won, and round lines that fit a phone."""

from __future__ import annotations

from fractions import Fraction

from bot.games.game_front import Stamps
from bot.games.situan.front import SituanFront
from bot.games.situan.settling import settlement_text
from bot.games.situan.texts import table_text
from bot.views.controls import Selection, Stamp
from engine.situan.result import SituanResult
from tests.situan.helpers import pass_, play, table

NAMES = ["Ann", "AI 1", "AI 2", "AI 3"]
ZERO = (Fraction(0),) * 4
FRONT = SituanFront()


def result(**given: object) -> SituanResult:
    facts: dict[str, object] = {
        "finish": (1, 3, 0, 2), "ended_by": "points", "captured": (60, 70, 65, 70),
        "team_points": (125, 140), "winner": None, "carry": None, "dun": ((),) * 4,
        "shown": None, "stakes": ZERO, "bonus": ZERO, "total": ZERO,
    }  # fmt: skip
    facts.update(given)
    return SituanResult(**facts)  # type: ignore[arg-type]


def test_three_4s_are_4x3_in_the_table_the_hand_and_the_buttons():
    hand = table("4 4 4 4 4 4 9", "5 5 5 3", "6 6 6 3", "7 7 7 3")
    play(hand, 0, "4 4 4")
    shown = table_text("zh-Hans", hand.view(None), NAMES, 1, None)
    assert "本轮：Ann：4×3" in shown and "3×4" not in shown
    cards, _ = FRONT.hand_text("en", hand.view(0), NAMES)
    assert cards == "4×3 9"
    stamps = Stamps(Stamp("t", 1), Stamp("t", 1, 2))
    buttons = FRONT.hand_buttons("en", hand.view(0), [], Selection(), stamps)
    assert [b.label for b in buttons[0]] == ["4×3", "9"]
    chosen = Selection(open_rank="4")
    counts = FRONT.hand_buttons("en", hand.view(0), [], chosen, stamps)[1]
    assert [b.label for b in counts] == ["no 4", "4", "4×2", "4×3"]  # "no 4": none of them


def test_the_points_lying_in_the_open_round_are_on_the_table():
    hand = table("5 5 3", "10 10 3", "K K 3", "4 4 3")
    play(hand, 0, "5 5")
    play(hand, 1, "10 10")
    assert "Points in this round: 30" in table_text("en", hand.view(None), NAMES, 1, None)
    play(hand, 2, "K K")
    assert "本轮分：50" in table_text("zh-Hans", hand.view(None), NAMES, 1, None)


def test_a_carried_over_series_shows_its_totals_while_the_hand_is_played():
    hand = table("K K 3", "4 4 3", "5 5 3", "6 6 3", carry=(125, 85))
    play(hand, 0, "K K")
    for seat in (1, 2, 3):
        pass_(hand, seat)
    shown = table_text("en", hand.view(None), NAMES, 2, None)
    assert "Series: earlier hands A 125 · B 85; with this hand A 145 · B 85" in shown
    fresh = table("K K 3", "4 4 3", "5 5 3", "6 6 3")
    assert "Series" not in table_text("en", fresh.view(None), NAMES, 1, None)


def test_a_series_decided_on_points_is_settled_with_the_series_totals():
    decided = result(winner="B", carried_in=(125, 175))
    text = settlement_text("en", decided, NAMES, ZERO, ZERO)
    assert "Team B wins (three out, on points)" in text
    assert "Series: A 250, B 315 (this hand: A 125, B 140)." in text
    chinese = settlement_text("zh-Hans", decided, NAMES, ZERO, ZERO)
    assert "B 队获胜（三家出完，算分）" in chinese and "连打累计：A 250，B 315" in chinese
    footer = FRONT.settlement_picture("en", decided, NAMES, ZERO, ZERO, 2).footer
    assert footer == "Team B wins (three out, on points) · series A 250 · B 315"


def test_a_level_series_says_so_and_goes_on():
    level = result(carried_in=(150, 140), team_points=(150, 160), carry=(300, 300))
    text = settlement_text("en", level, NAMES, ZERO, ZERO)
    assert "The series is level (A 300, B 300; this hand A 150, B 160): one more hand." in text


def test_the_engine_hands_the_series_it_started_from_to_the_result():
    hand = table("K 3", "4 4", "5", "6 6", carry=(140, 100))
    while not hand.over:
        hand.apply(hand.legal_actions(hand.to_act)[0])
    assert hand.result is not None and hand.result.carried_in == (140, 100)


def test_a_double_is_named_in_the_settlement_and_under_its_picture():
    double = result(finish=(0, 2), ended_by="double", winner="A", team_points=(90, 160))
    assert "A 队双关获胜" in settlement_text("zh-Hans", double, NAMES, ZERO, ZERO)
    assert FRONT.settlement_picture("zh-Hans", double, NAMES, ZERO, ZERO, 1).footer == (
        "A 队获胜（双关：两人先出完） · 得分 A 90 · B 160"
    )
    assert "double win" in FRONT.settlement_picture("en", double, NAMES, ZERO, ZERO, 1).footer


def test_an_early_end_is_named_as_such():
    """The settlement says why the hand could end early: who went out first, and the points
    the winner has whatever is still played (issue 49)."""
    early = result(finish=(0,), ended_by="decided", winner="A", team_points=(205, 40))
    assert (
        f"Team A wins before the end: {NAMES[0]} went out first, and the team has at least 200 "
        "points whatever is still played."
    ) in settlement_text("en", early, NAMES, ZERO, ZERO)
    assert f"A 队提前获胜：{NAMES[0]} 是上游，无论剩下的牌怎么打，A 队都至少有 200 分。" in (
        settlement_text("zh-Hans", early, NAMES, ZERO, ZERO)
    )
    footer = FRONT.settlement_picture("zh-Hans", early, NAMES, ZERO, ZERO, 1).footer
    assert footer.startswith("A 队获胜（提前定胜负）")


def test_places_are_said_as_players_say_them():
    won = result(winner="B", team_points=(95, 205), finish=(1, 3, 0, 2))
    rows = FRONT.settlement_picture("zh-Hans", won, NAMES, ZERO, ZERO, 3).rows
    assert [r.result.split(" · ")[0] for r in rows] == ["三游", "上游", "下游", "二游"]
    rows = FRONT.settlement_picture("en", won, NAMES, ZERO, ZERO, 3).rows
    assert [r.result.split(" · ")[0] for r in rows] == ["third", "first out", "last", "second"]
    assert FRONT.settlement_picture("zh-Hans", won, NAMES, ZERO, ZERO, 3).title == "四团 · 第 3 局"


def test_a_bomb_fight_stays_a_few_short_lines():
    hand = table(
        "3 3 3 3 7 7 7 7 7 J J J J J J J J J J Q",
        "4 4 4 4 8 8 8 8 8 8 Q",
        "5 5 5 5 9 9 9 9 9 9 9 Q",
        "6 6 6 6 10 10 10 10 10 10 10 10 Q",
    )
    for seat, move in [
        (0, "3 3 3 3"),
        (1, "4 4 4 4"),
        (2, ""),
        (3, "6 6 6 6"),
        (0, "7 7 7 7 7"),
        (1, "8 8 8 8 8 8"),
        (2, "9 9 9 9 9 9 9"),
        (3, ""),
        (0, ""),
    ]:
        play(hand, seat, move) if move else pass_(hand, seat)
    for lang in ("en", "zh-Hans"):
        shown = table_text(lang, hand.view(None), ["AI 0", *NAMES[1:]], 1, 30)
        assert len(shown.splitlines()) <= 6 and len(shown) <= 300, shown
    round_line = table_text("en", hand.view(None), NAMES, 1, None).splitlines()[2]
    assert round_line == (  # passes folded, the oldest plays left out
        "This round: … AI 2: pass · AI 3: 6×4 · Ann: 7×5 · AI 1: 8×6 · AI 2: 9×7 · AI 3, Ann: pass"
    )
    chinese = table_text("zh-Hans", hand.view(None), NAMES, 1, None)
    assert "AI 3、Ann：不要" in chinese
    pass_(hand, 1)
    play(hand, 2, "Q")  # AI 2 took the round and leads
    shown = table_text("en", hand.view(None), NAMES, 1, None)
    assert "Last round: AI 2 took it with 9×7, 0 points" in shown  # one line, not the fight
    assert "4×4" not in shown

"""What people read of the two options: the 亮牌 consent (四团 ``show_consent``) and a failed
throw (二七王 ``failed_throw``), in the group and privately, in Chinese and English."""

from __future__ import annotations

import pytest

from bot.games.erqiwang import ErqiwangFront
from bot.games.game_front import BadInput, Stamps
from bot.games.situan import SituanFront
from bot.views.controls import Selection, Stamp
from engine.actions import AnswerShow, StartShow
from engine.errors import IllegalAction
from tests.erqiwang.helpers import play, playing
from tests.record_actions import Action
from tests.situan.helpers import table

NAMES = ["Ann", "Bob", "Cai", "Dee"]
SITUAN, ERQIWANG = SituanFront(), ErqiwangFront()


def told(front, lang: str, events) -> list[str]:
    return [text for e in events if (text := front.narrate(lang, e, NAMES)) is not None]


def consenting():
    return table("3 4 5", "6 7 8", "9 10 J", "Q K A", show_consent="partner")


def stamps() -> Stamps:
    return Stamps(Stamp("t1", 1), Stamp("t1", 1, 4))


def test_the_group_reads_the_request_the_answer_and_the_pick():
    hand = consenting()
    asked = hand.apply(StartShow(1))
    assert told(SITUAN, "zh-Hans", asked) == ["Bob 请求亮牌，等对家 Dee 同意。"]
    assert "Bob 请求亮牌：等待 Dee 回答。" in SITUAN.table_text(
        "zh-Hans", hand.view(None), NAMES, 1, None
    )
    agreed = hand.apply(AnswerShow(3, True))
    assert told(SITUAN, "en", agreed) == [
        "Dee agrees to Bob's 亮牌 (show): they see each other's hands, and Dee chooses which "
        "is shown."
    ]
    picking = SITUAN.table_text("en", hand.view(None), NAMES, 1, None)
    assert "Dee is choosing which hand to reveal." in picking
    shown = hand.apply(Action(3, "show_pick", reveal=1))
    assert told(SITUAN, "zh-Hans", shown) == ["Bob 的牌亮给大家看。"]


@pytest.mark.parametrize(
    ("timed_out", "lang", "text"),
    [
        (False, "zh-Hans", "Dee 不同意 Bob 亮牌：继续打。"),
        (False, "zh-Hant", "Dee 不同意 Bob 亮牌：繼續打。"),
        (True, "en", "Dee did not answer Bob's 亮牌 (show) in time: no show, the hand goes on."),
    ],
)
def test_the_group_reads_a_refusal_or_a_time_out(timed_out, lang, text):
    hand = consenting()
    hand.apply(StartShow(1))
    events = hand.apply(Action(3, "timeout") if timed_out else AnswerShow(3, False))
    assert text in told(SITUAN, lang, events)


def test_the_partner_alone_gets_the_answer_buttons_and_a_prompt():
    hand = consenting()
    hand.apply(StartShow(1))
    rows = SITUAN.hand_buttons("en", hand.view(3), hand.legal_actions(3), Selection(), stamps())
    assert [(b.label, b.command) for b in rows[0]] == [
        ("Agree to the 亮牌 (show)", "/consent yes"),
        ("Refuse", "/consent no"),
    ]
    assert "/consent yes" in SITUAN.prompt("en", hand.view(3), hand.legal_actions(3))
    for seat in (0, 1, 2):
        assert (
            SITUAN.hand_buttons(
                "en", hand.view(seat), hand.legal_actions(seat), Selection(), stamps()
            )
            == []
        )


@pytest.mark.parametrize(("word", "accept"), [("yes", True), ("同意", True), ("no", False)])
def test_consent_reads_yes_and_no(word, accept):
    hand = consenting()
    assert SITUAN.command_action(hand, 3, "consent", (word,)) == AnswerShow(3, accept)


def test_consent_without_yes_or_no_says_what_to_type():
    with pytest.raises(BadInput, match="/consent yes or /consent no"):
        SITUAN.command_action(consenting(), 3, "consent", ("maybe",))


def test_asking_again_after_a_refusal_is_explained():
    hand = consenting()
    hand.apply(StartShow(1))
    hand.apply(AnswerShow(3, False))
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(StartShow(1))
    assert SITUAN.explain("zh-Hans", refusal.value) == "对家本局已拒绝你的亮牌，不能再请求。"


def test_a_move_while_the_answer_waits_is_explained():
    hand = consenting()
    hand.apply(StartShow(1))
    with pytest.raises(IllegalAction) as refusal:
        hand.apply(Action(0, "play", ranks=("3",)))
    assert SITUAN.explain("en", refusal.value) == (
        "Not now: a 亮牌 (show) waits for the partner's answer."
    )


def test_the_group_reads_a_failed_throw_with_the_cards_tried_and_played():
    hand = playing(
        "BJ BJ H9 H3 S3",
        "HA D5 D6 D8 D9",
        "C5 C6 C8 C9 C10",
        "S4 S5 S6 S8 S9",
        failed_throw="smallest",
    )
    events = play(hand, 0, "BJ BJ H9 H3")
    assert told(ERQIWANG, "zh-Hans", events) == [
        "Ann 甩牌 大王 大王 ♥9 ♥3 失败（有人能打过）：只出 ♥3。"
    ]
    assert told(ERQIWANG, "en", events) == [
        "Ann tried to throw BJ BJ ♥9 ♥3, but it can be beaten: Ann leads ♥3 alone."
    ]


def test_both_options_are_described_in_the_settings():
    from bot.games import setting_text

    assert setting_text("en", "situan", "show_consent").startswith(
        "show_consent (a 亮牌 (show) needs the partner's consent"
    )
    assert setting_text("zh-Hans", "erqiwang", "failed_throw") == (
        "failed_throw（甩牌失败时：refuse（退回重出）或 smallest（只出其中可被打的最小部分））"
    )

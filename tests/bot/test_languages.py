"""Issue 13: languages all the way down, and refusals that say what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games import front_of
from bot.i18n import LANGUAGES, plural_gaps, t
from engine.erqiwang.events import BonusDeclared
from engine.errors import IllegalAction
from tests.bot.harness import CHAT, FakeClock, Harness, table_with_three_bots


async def test_lang_in_private_makes_that_players_messages_english_and_the_group_stays(tmp_path):
    harness = await table_with_three_bots(str(tmp_path / "l.sqlite3"), FakeClock())
    try:
        sent = await harness.say("ann", "/lang en", private=True)
        assert [m.text for m in sent] == ["Language set."]
        help_text = await harness.say("ann", "/help", private=True)
        assert help_text[0].text.startswith("Commands:")
        refusal = await harness.say("ann", "/play 3 4", private=True)
        assert refusal[0].kind == "reply" and refusal[0].text.isascii()
        hand = await harness.say("ann", "/hand", private=True)
        assert hand[0].text.startswith("Your hand · ")
        assert harness.table().lang == "zh-Hans"
        group = await harness.say("ann", "/score")
        assert group[0].kind == "group" and "还没有" in group[0].text
    finally:
        await harness.db.close()


async def test_lang_in_the_group_says_private_messages_keep_their_own_language(tmp_path):
    harness = await Harness.open(str(tmp_path / "a.sqlite3"))
    try:
        await harness.say("ann", "/new situan")
        english = await harness.say("ann", "/lang en")
        assert english[0].kind == "reply" and english[0].text.startswith("The table speaks")
        assert "/lang in a private chat" in english[0].text
        chinese = await harness.say("ann", "/lang zh-Hans")
        assert chinese[0].text.startswith("本桌已改用") and "私聊" in chinese[0].text
        assert harness.table().lang == "zh-Hans"
    finally:
        await harness.db.close()


async def test_ai_players_are_named_in_the_readers_language(tmp_path):
    harness = await Harness.open(str(tmp_path / "a.sqlite3"))
    try:
        await harness.say("ann", "/new situan")
        await harness.say("ann", "/addbot")
        await harness.say("ann", "/lang zh-Hant")
        assert harness.table().seat_names()[1] == "電腦 2"
        assert harness.table().seat_names("en")[1] == "AI 2"
    finally:
        await harness.db.close()


async def test_seat_names_follow_every_change_of_the_seats(tmp_path):
    """The names are kept between actions: a seat taken, left or given to an AI, and a
    reader of another language, each give the names anew."""
    harness = await Harness.open(str(tmp_path / "a.sqlite3"))
    try:
        await harness.say("ann", "/new situan")
        table = harness.table()
        assert table.seat_names() == ["Ann", "—", "—", "—"]
        await harness.say("bob", "/join")
        assert table.seat_names() == ["Ann", "Bob", "—", "—"]
        await harness.say("ann", "/addbot")
        assert table.seat_names() == ["Ann", "Bob", "电脑 3", "—"]  # the table's language
        assert table.seat_names("en")[2] == "AI 3"
        assert table.seat_names()[2] == "电脑 3"
        await harness.say("bob", "/leave")
        assert table.seat_names() == ["Ann", "—", "电脑 3", "—"]
        names = table.seat_names()
        names[0] = "changed by a caller"
        assert table.seat_names()[0] == "Ann"  # each caller gets its own list
    finally:
        await harness.db.close()


@pytest.mark.parametrize(("lang", "expected"), [("zh-Hans", "主7冲关"), ("zh-Hant", "主7衝關")])
def test_bonus_names_follow_the_script(lang, expected):
    text = front_of("erqiwang").narrate(
        lang, BonusDeclared(1, "主7冲关", 2, ()), ["A", "B", "C", "D"]
    )
    assert text is not None and expected in text
    assert ("冲" in text) == (lang == "zh-Hans") and ("衝" in text) == (lang == "zh-Hant")


REFUSALS = [
    ("bid_not_allowed", {"points": 73, "step": 5, "highest": 120, "lowest": 0},
     "Bids go in steps of 5, from 120 down to 0; you said 73."),
    ("wrong_count", {"count": 7, "wanted": 8, "burying": True},
     "Bury exactly 8 cards — you chose 7."),
    ("not_in_hand", {"cards": ["S10"]}, "You do not hold ♠10."),
    ("wrong_phase", {"bonus_window": "before", "declarer": True},
     "Bury first, then declare 冲关 (before your first card)."),
    ("must_follow_suit", {"suit": "H", "count": 2, "held": 3},
     "Follow ♥: play as many ♥ cards as you can."),
    ("surrender_not_allowed", {"bid": 75, "above": 80},
     "Surrender needs a bid above 80; the bid is 75."),
    ("throw_not_allowed", {"reason": "beatable", "kind": "pair", "cards": ["D8", "D8"]},
     "Not safe: another player can beat your pair ♦8 ♦8. Lead it on its own, or throw only "
     "what nobody can beat."),
    ("throw_not_allowed", {"reason": "side_suit"},
     "Side-suit cards are led as a single, a pair or a tractor, not thrown together."),
]  # fmt: skip


@pytest.mark.parametrize(("code", "facts", "english"), REFUSALS)
def test_a_refusal_says_what_was_wrong_and_what_is_allowed(code, facts, english):
    refusal = IllegalAction(code, "engine text", **facts)
    front = front_of("erqiwang")
    assert front.explain("en", refusal) == english
    for lang in ("zh-Hans", "zh-Hant"):
        sentence = front.explain(lang, refusal)
        assert sentence != english and sentence != t(lang, "That is not allowed now.")
        shown = [str(v) for v in facts.values() if isinstance(v, int) and str(v) in english]
        assert all(number in sentence for number in shown)


def test_every_plural_message_has_all_its_forms_in_every_catalogue():
    assert all(plural_gaps(lang) == [] for lang in LANGUAGES)
    assert t("en", "Player") == "Player" and t("zh-Hans", "Player") == "玩家"


async def test_a_table_with_no_finished_hand_says_so_on_top(tmp_path: Path):
    harness = await Harness.open(str(tmp_path / "t.sqlite3"))
    try:
        await harness.say("ann", "/new situan", lang="en")
        sent = await harness.say("ann", "/top", lang="en")
        assert [m.text for m in sent] == ["No hand has been finished here yet."]
        assert CHAT
    finally:
        await harness.db.close()


async def test_a_member_who_is_not_seated_is_told_so_not_to_open_a_private_chat(tmp_path):
    harness = await table_with_three_bots(str(tmp_path / "n.sqlite3"), FakeClock())
    try:
        sent = await harness.say("zed", "/pass", lang="en")
        assert [m.text for m in sent] == ["You have no seat at this table."]
        assert sent[0].public  # names no card: the group may be told where zed has no DM
        refusal = await harness.say("ann", "/play 3 4", private=True)
        assert not refusal[0].public  # a rule's refusal may name cards: private only
    finally:
        await harness.db.close()


EVERY_CODE = [
    ("situan", IllegalAction("wrong_phase", "x", phase="show_pick")),
    ("erqiwang", IllegalAction("wrong_phase", "x", phase="bidding")),
    ("situan", IllegalAction("not_your_turn", "x", turn=2)),
    ("situan", IllegalAction("not_in_hand", "x", rank="7", held=2, wanted=4)),
    ("situan", IllegalAction("not_a_combination", "x", ranks=["7", "8"])),
    ("situan", IllegalAction("cannot_beat", "x", play="7777", last="33333")),
    ("situan", IllegalAction("must_lead", "x")),
    ("erqiwang", IllegalAction("wrong_count", "x", count=2)),
    ("erqiwang", IllegalAction("must_follow_suit", "x", suit="S")),
    ("erqiwang", IllegalAction("must_follow_shape", "x", suit="trump")),
    ("erqiwang", IllegalAction("throw_not_allowed", "x", reason="no_throws")),
    ("erqiwang", IllegalAction("bid_not_allowed", "x", points=125, step=5, highest=120, lowest=0)),
    ("erqiwang", IllegalAction("surrender_not_allowed", "x", bid=80, above=80)),
    ("erqiwang", IllegalAction("no_bonus", "x")),
    ("situan", IllegalAction("show_not_allowed", "x")),
    ("erqiwang", IllegalAction("bad_action", "x", choices=["S", "H"])),
]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_code_has_a_sentence_that_says_what_is_allowed(lang):
    from bot.reading.refusals import REFUSALS

    codes = {refusal.code for _, refusal in EVERY_CODE}
    assert codes == set(REFUSALS)  # all fifteen
    for game, refusal in EVERY_CODE:
        sentence = front_of(game).explain(lang, refusal)
        if refusal.code == "not_your_turn":  # the host names whose turn it is
            continue
        assert sentence and sentence != t(lang, REFUSALS[refusal.code]), (game, refusal.code)


def test_what_players_type_is_read_in_every_form():
    from engine import game_of
    from engine.actions import NameTrump, Play

    erqiwang = game_of("erqiwang").deal(game_of("erqiwang").rules(), seed=1)
    front = front_of("erqiwang")
    for word, suit in (
        ("红桃", "H"),
        ("黑桃", "S"),
        ("梅花", "C"),
        ("方块", "D"),
        ("无主", "none"),
        ("♥", "H"),
        ("d", "D"),
    ):
        assert front.command_action(erqiwang, 0, "trump", (word,)) == NameTrump(0, suit)
    play = front.command_action(erqiwang, 0, "play", ("♥10♠10",))
    assert isinstance(play, Play) and [c.text for c in play.cards] == ["H10", "S10"]
    assert front.command_action(erqiwang, 0, "play", ("小王大王",)).cards[0].text == "LJ"
    situan_front = front_of("situan")
    situan = game_of("situan").deal(game_of("situan").rules(), seed=1)
    seat = situan.to_act
    rank = next(c.rank for c in situan.cards_of(seat) if not c.is_joker)
    missing = next(s for s in "SHCD" if all(c.text != s + rank for c in situan.cards_of(seat)))
    typed = situan_front.command_action(situan, seat, "play", (f"{missing}{rank}",))
    situan.check(typed)  # a suited card means its rank in 四团: a card of that suit is not held


@pytest.mark.parametrize(
    ("game", "lang", "example"),
    [
        ("situan", "en", "Write a rank and its count: 7×4 (four 7s)"),
        ("situan", "zh-Hans", "请写点数和张数：7×4（四张 7）"),
        ("erqiwang", "en", "S10 HA D2"),
        ("erqiwang", "zh-Hans", "请写花色加点数"),
    ],
)
async def test_an_unknown_card_is_answered_with_how_cards_are_written(
    tmp_path, game, lang, example
):
    """Even in the 二七王 auction, ``/play XX`` says how a card is written, not only that XX is
    not one; and nothing changes."""
    harness = await table_with_three_bots(str(tmp_path / "u.sqlite3"), FakeClock(), game, lang)
    try:
        table = harness.table()
        assert table.hand is not None
        before = (table.turn_count, table.turn_seat, list(table.hand.cards_of(0)))
        refusal = await harness.say("ann", "/play XX", private=True, lang=lang)
        assert len(refusal) == 1 and refusal[0].kind == "reply"
        assert "XX" in refusal[0].text and example in refusal[0].text
        assert (table.turn_count, table.turn_seat, list(table.hand.cards_of(0))) == before
    finally:
        await harness.db.close()


def test_play_completions_read_as_the_hand_shows_them():
    assert front_of("erqiwang").suggestion_label("zh-Hans", "H3 H3 LJ") == "♥3 ♥3 小王"
    assert front_of("erqiwang").suggestion_label("en", "S10") == "♠10"
    assert front_of("situan").suggestion_label("zh-Hans", "LJLJ") == "小王×2"
    assert front_of("situan").suggestion_label("en", "10 10 10") == "10×3"
    assert front_of("situan").suggestion_label("en", "S7") == "7"  # a card of the hand
    assert front_of("situan").suggestion_label("en", "XX") == "XX"  # unreadable: as it is


def test_every_catalogue_reads_without_a_broken_entry():
    """Babel skips a broken entry with a warning at every start (a merge once lost a
    ``msgstr``, and the string went untranslated while every test passed): read strictly."""
    from babel.messages.pofile import read_po

    locales = Path(__file__).resolve().parents[2] / "bot" / "i18n" / "locales"
    catalogues = sorted(locales.glob("*.po"))
    assert [path.stem for path in catalogues] == ["en", "zh_Hans", "zh_Hant"]
    for path in catalogues:
        with path.open("rb") as po:
            read_po(po, abort_invalid=True)  # raises PoFileError on a broken entry

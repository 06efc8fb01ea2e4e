"""bot.md: Tables and matches (lobby rules); Languages."""

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir

from bot.commands.registry import help_text
from bot.i18n import missing_translations, t
from bot.reading.table_options import TABLE_OPTION_NAMES
from bot.table.state import LOBBY, PLAYING
from tests.bot.harness import Harness


@pytest.fixture
async def harness(tmp_path: Path):
    h = await Harness.open(str(tmp_path / "bot.sqlite3"))
    yield h
    await h.db.close()


async def test_new_opens_a_lobby_and_the_opener_is_the_host_seated_first(harness):
    sent = await harness.say("ann", "/new situan")
    table = harness.table()
    assert table.state == LOBBY and table.host == "ann"
    assert table.seats[0] is not None and table.seats[0].user == "ann"
    assert any("ann" in m.text.lower() for m in sent if m.kind == "group")


async def test_a_second_new_in_the_same_chat_is_refused(harness):
    await harness.say("ann", "/new situan")
    sent = await harness.say("bob", "/new erqiwang")
    assert [m.kind for m in sent] == ["reply"] and harness.table().game == "situan"


async def test_join_takes_the_next_free_seat_or_a_given_one(harness):
    await harness.say("ann", "/new situan")
    await harness.say("bob", "/join 4")
    await harness.say("cid", "/join")
    seats = [s.user if s else None for s in harness.table().seats]
    assert seats == ["ann", "cid", None, "bob"]


async def test_a_taken_seat_a_full_table_and_a_second_seat_are_refused(harness):
    await harness.say("ann", "/new situan")
    await harness.say("bob", "/join 2")
    assert (await harness.say("cid", "/join 2"))[0].kind == "reply"
    assert (await harness.say("bob", "/join"))[0].kind == "reply"
    await harness.say("cid", "/join")
    await harness.say("dan", "/join")
    refused = await harness.say("eve", "/join")
    assert refused[0].kind == "reply" and refused[0].user == "eve"


async def test_only_the_host_adds_bots_kicks_and_starts(harness):
    await harness.say("ann", "/new situan")
    await harness.say("bob", "/join")
    for command in ("/addbot", "/kick 1", "/start"):
        sent = await harness.say("bob", command)
        assert sent[0].kind == "reply" and sent[0].user == "bob"
    assert harness.table().seats[2] is None and harness.table().state == LOBBY


async def test_start_needs_four_seats_and_deals_the_first_hand(harness):
    await harness.say("ann", "/new situan")
    assert (await harness.say("ann", "/start"))[0].kind == "reply"
    for _ in range(3):
        await harness.say("ann", "/addbot")
    sent = await harness.say("ann", "/start")
    assert harness.table().state == PLAYING
    assert [m for m in sent if m.kind == "private" and m.user == "ann"]
    assert [m for m in sent if m.kind == "table"]


async def test_leave_in_the_lobby_frees_the_seat_and_in_a_hand_puts_the_seat_on_auto(harness):
    await harness.say("ann", "/new situan")
    await harness.say("bob", "/join")
    await harness.say("bob", "/leave")
    assert harness.table().seats[1] is None
    await harness.say("bob", "/join")
    await harness.say("ann", "/addbot")
    await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    await harness.say("bob", "/leave")
    table = harness.table()
    assert table.seats[1] is not None and table.seats[1].left and table.hand.auto[1]


async def test_settings_change_in_the_lobby_only_by_the_host_and_bad_values_are_refused(harness):
    await harness.say("ann", "/new situan")
    await harness.say("ann", "/settings turn_seconds 30")
    assert harness.table().rules.turn_seconds == 30
    await harness.say("ann", "/settings preset baomahui")
    assert harness.table().rules.show_multiplier == 2
    sent = await harness.say("ann", "/settings dun_counted sometimes")
    assert sent[0].kind == "reply" and harness.table().rules.dun_counted == "dealt"
    assert (await harness.say("bob", "/settings turn_seconds 5"))[0].user == "bob"


async def test_stop_by_the_host_ends_the_match_and_posts_the_ledger(harness):
    await harness.say("ann", "/new situan")
    sent = await harness.say("ann", "/stop")
    assert harness.table().state == "closed"
    assert any(m.kind == "group" for m in sent)


async def test_stop_by_a_vote_of_three_seated_players(harness):
    await harness.say("ann", "/new situan")
    for user in ("bob", "cid", "dan"):
        await harness.say(user, "/join")
    await harness.say("bob", "/stop")
    await harness.say("cid", "/stop")
    assert harness.table().state == LOBBY
    await harness.say("dan", "/stop")
    assert harness.table().state == "closed"


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("zh-Hans", "只有房主或本群管理员可以这样做。"),
        ("zh-Hant", "只有房主或本群管理員可以這樣做。"),
        ("en", "Only the host or an admin of this chat can do that."),
    ],
)
async def test_refusals_are_sentences_in_the_players_language(harness, lang, expected):
    await harness.say("ann", "/new situan", lang=lang)
    sent = await harness.say("bob", "/start", lang=lang)
    assert sent[0].text == expected


@pytest.mark.parametrize("lang", ["zh-Hans", "zh-Hant", "en"])
async def test_a_rule_refusal_names_what_was_wrong(harness, lang):
    await harness.say("ann", "/new situan", lang=lang)
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    table = harness.table()
    table.hand.turn = 0  # make sure it is ann's turn to lead
    sent = await harness.say("ann", "/play 3 4")
    assert sent[0].kind == "reply" and sent[0].text == t(
        lang,
        "That is no combination: play one rank (a single, a pair, a triple, or a bomb of 4 to 12) "
        "or the four kings.",
    )


def _message_ids() -> list[str]:
    keywords = {"t": (2,), "N_": None, "BadInput": None, "reply": (2,), "group": None, "say": None}
    root = Path(__file__).resolve().parents[2]
    found = set()
    for folder in ("bot", "adapters"):
        for _, _, message, _, _ in extract_from_dir(str(root / folder), keywords=keywords):
            if isinstance(message, str):
                found.add(message)
    return sorted(found)


def test_every_message_in_the_code_has_a_chinese_translation_in_both_scripts():
    ids = _message_ids()
    assert len(ids) > 100
    assert missing_translations("zh-Hans", ids) == []
    assert missing_translations("zh-Hant", ids) == []


def test_the_long_texts_have_english_versions():
    assert missing_translations("en", ["rules_situan", "rules_erqiwang"]) == []
    assert help_text("en").startswith("Commands:\n/new ")  # /help is made from the registry
    assert t("en", "LJ") == "LJ" and t("zh-Hans", "LJ") == "小王" and t("zh-Hant", "BJ") == "大王"


def test_lang_is_kept_per_chat_and_per_player():
    from bot.i18n import normalize_language

    assert normalize_language("zh-CN") == "zh-Hans" and normalize_language("zh_TW") == "zh-Hant"
    assert normalize_language("en-US") == "en" and normalize_language("fr") is None


async def test_a_lobby_with_no_activity_for_ten_minutes_closes_itself(harness):
    await harness.say("ann", "/new situan")
    harness.clock.advance(599)
    await harness.manager.tick()
    assert harness.table().state == LOBBY
    await harness.say("bob", "/join")  # activity keeps it open
    harness.clock.advance(599)
    await harness.manager.tick()
    assert harness.table().state == LOBBY
    harness.clock.advance(1)
    await harness.manager.tick()
    assert harness.table().state == "closed"


async def test_a_user_who_floods_commands_is_throttled(harness):
    await harness.say("ann", "/new situan")
    answered = 0
    for _ in range(100):
        answered += bool(await harness.say("bob", "/score"))
    assert answered == 30  # a burst, then nothing until time passes
    harness.clock.advance(5)
    assert await harness.say("bob", "/score")
    assert await harness.say("ann", "/score")  # other users are not affected


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_every_setting_is_named_with_what_it_is_in_the_readers_language(harness, game):
    await harness.say("ann", f"/new {game}", lang="zh-Hans")
    (listed,) = await harness.say("bob", "/settings", lang="en")
    lines = listed.text.splitlines()[1:]
    table = harness.table()
    assert len(lines) == 1 + len(table.rules.options()) + len(TABLE_OPTION_NAMES)
    assert all(" — " in line for line in lines), lines  # each says what it is
    assert "max_hands = 0 — hands in the match, 0: until /stop" in lines
    (changed,) = await harness.say("ann", "/settings max_hands 1")
    assert changed.text == "max_hands（本场局数，0 表示打到 /stop 为止）已设为 1。"
    (changed,) = await harness.say("ann", "/settings turn_seconds 30")
    assert changed.text == "turn_seconds（每步限时秒数）已设为 30。"


async def test_a_preset_is_named_with_what_it_is_in_the_readers_language(harness):
    (refused,) = await harness.say("ann", "/new situan nanjing", lang="en")
    assert refused.text == (
        "Unknown preset nanjing. Presets: nanchang (the Nanchang rules); spade3 (♠3 leads the "
        "first hand); baomahui (宝马会: a 亮牌 counts double)."
    )
    assert harness.manager.tables.get(refused.chat) is None  # nothing opened
    (opened, *_) = await harness.say("ann", "/new situan spade3", lang="zh-Hans")
    assert opened.text.startswith("Ann 开了一桌四团，玩法：spade3（首局黑桃3先出）。/join 入座")
    (changed,) = await harness.say("ann", "/settings preset baomahui")
    assert changed.text == "preset（玩法）已设为 baomahui（宝马会：亮牌翻倍）。"
    (listed,) = await harness.say("bob", "/settings", lang="en")
    assert (
        "preset = baomahui (宝马会: a 亮牌 counts double) — the rule set"
        in listed.text.splitlines()
    )
    (wrong,) = await harness.say("ann", "/settings preset classic")  # 二七王's, not 四团's
    assert wrong.text.startswith("可选的玩法：nanchang（南昌规则）；spade3（首局黑桃3先出）；")
    assert harness.table().preset == "baomahui"

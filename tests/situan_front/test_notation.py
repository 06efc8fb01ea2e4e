"""One notation for "n cards of a rank" (rank×count), and every form a player may type."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.games.game_front import BadInput
from bot.games.situan.front import play_from_words
from bot.games.situan.notation import count_text
from bot.i18n import t
from bot.views.shared_texts import rank_text
from engine.actions import Play
from engine.situan import RANKS


def played(*words: str) -> Counter[str]:
    play = play_from_words(0, words)
    assert isinstance(play, Play)
    return Counter(play.ranks or [c.rank for c in play.cards])


@pytest.mark.parametrize(
    ("written", "ranks"),
    [
        ("4×3", "4 4 4"),  # rank, then count
        ("4x3", "4 4 4"),
        ("4X3", "4 4 4"),
        ("4*3", "4 4 4"),
        ("4 × 3", "4 4 4"),
        ("4 x 3", "4 4 4"),
        ("４×３", "4 4 4"),  # full-width digits from a Chinese keyboard
        ("666", "6 6 6"),  # the cards written out, as before
        ("1010", "10 10"),
        ("10×4", "10 10 10 10"),
        ("4个2", "2 2 2 2"),  # count, then rank: the Chinese order
        ("4 个 2", "2 2 2 2"),
        ("4個2", "2 2 2 2"),
        ("三个K", "K K K"),
        ("三個K", "K K K"),
        ("两个A", "A A"),
        ("兩個A", "A A"),
        ("十个5", "5 5 5 5 5 5 5 5 5 5"),
        ("十二个7", " ".join(["7"] * 12)),
        ("12个7", " ".join(["7"] * 12)),
        ("3张K", "K K K"),
        ("三張k", "K K K"),
        ("对K", "K K"),
        ("對K", "K K"),
        ("小王×3", "LJ LJ LJ"),
        ("3个小王", "LJ LJ LJ"),
        ("lj×2 BJ", "LJ LJ BJ"),
        ("LJ×3 大王", "LJ LJ LJ BJ"),
        ("LJLJ", "LJ LJ"),
        ("S7 H7", "7 7"),
        ("7×2, 8", "7 7 8"),
    ],
)
def test_every_written_form_is_read_as_those_cards(written, ranks):
    assert played(written) == Counter(ranks.split())


def test_words_typed_apart_are_one_play():
    assert played("4", "个", "2") == Counter({"2": 4})
    assert played("7×3", "8×2") == Counter({"7": 3, "8": 2})


@pytest.mark.parametrize("lang", ["en", "zh-Hans", "zh-Hant"])
def test_every_token_the_bot_writes_is_read_back_as_the_same_cards(lang):
    for rank in RANKS:
        for count in range(1, 13):
            token = count_text(rank_text(lang, rank), count)
            assert played(token) == Counter({rank: count}), token


def test_the_notation_puts_the_rank_first_and_leaves_out_a_count_of_one():
    assert count_text("4", 3) == "4×3" and count_text("K", 1) == "K"


@pytest.mark.parametrize("written", ["7×13", "7×0", "0个5", "13个5"])
def test_a_count_no_one_can_hold_is_refused_saying_what_counts_are(written):
    with pytest.raises(BadInput) as bad:
        play_from_words(0, (written,))
    assert bad.value.values["token"] == written
    assert "1 to 12" in bad.value.key
    assert "张数只能是 1 到 12" in t("zh-Hans", bad.value.key, **bad.value.values)


@pytest.mark.parametrize(
    ("lang", "allowed"),
    [
        ("en", "7×4 (four 7s), 666, 10×2, K×3, LJ×2 BJ"),
        ("zh-Hans", "7×4（四张 7）、666、10×2、3个K、4个2、小王×2 大王"),
        ("zh-Hant", "7×4（四張 7）、666、10×2、3個K、4個2、小王×2 大王"),
    ],
)
def test_an_unreadable_word_is_refused_with_the_forms_that_are_read(lang, allowed):
    with pytest.raises(BadInput) as bad:
        play_from_words(0, ("7×4", "XX"))
    said = t(lang, bad.value.key, **bad.value.values)
    assert "XX" in said and allowed in said
    for example in ("7×4", "666", "10×2", "LJ×2", "BJ", "3个K", "4个2"):
        play_from_words(0, (example,))  # every example given is itself read


def test_nothing_to_play_is_refused_with_an_example_in_the_notation():
    with pytest.raises(BadInput) as bad:
        play_from_words(0, ())
    assert "/play 7×4" in bad.value.key

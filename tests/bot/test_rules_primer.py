"""Issue 55, item 4: /rules starts with a four-line primer of the table's game in the reader's
language and comes with a picture of real card faces: what beats what."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from bot.games import front_of
from bot.i18n import LANGUAGES
from tests.bot.harness import FakeClock, Harness

FIRST_LINES = {
    ("situan", "zh-Hans"): "四团怎么打，四句话：",
    ("situan", "zh-Hant"): "四團怎麼打，四句話：",
    ("situan", "en"): "How to play Situan (四团), in four lines:",
    ("erqiwang", "zh-Hans"): "二七王怎么打，四句话：",
    ("erqiwang", "zh-Hant"): "二七王怎麼打，四句話：",
    ("erqiwang", "en"): "How to play Er Qi Wang (二七王), in four lines:",
}


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
@pytest.mark.parametrize("lang", LANGUAGES)
async def test_rules_give_the_primer_and_a_picture_of_card_faces(tmp_path, game, lang):
    harness = await Harness.open(str(tmp_path / "rules.sqlite3"), FakeClock())
    try:
        await harness.say("ann", f"/new {game}", lang=lang)
        (answer,) = await harness.say("ann", "/rules", lang=lang)
        lines = answer.text.splitlines()
        assert lines[0] == FIRST_LINES[(game, lang)]
        assert len(lines[1:5]) == 4 and all(lines[1:5])  # deal, what beats what, points, end
        assert "docs/" not in answer.text  # no path to read elsewhere
        assert answer.picture is not None
        png = answer.picture()
        picture = Image.open(io.BytesIO(png))
        assert picture.format == "PNG" and picture.width >= 600
    finally:
        await harness.db.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
def test_the_primer_picture_shows_real_cards_in_the_readers_words(game):
    english = front_of(game).primer_picture("en")
    chinese = front_of(game).primer_picture("zh-Hans")
    assert all(play.cards for play in english.plays) and len(english.plays) >= 5
    assert [p.cards for p in english.plays] == [p.cards for p in chinese.plays]
    assert english.title != chinese.title and english.plays[1].seat == "Pair"
    assert chinese.plays[1].seat == "对子"

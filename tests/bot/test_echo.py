"""Issue 38, item 8: a refusal that repeats what a player typed repeats a short prefix of it
(a 100 KB setting name was echoed whole: a 100,236-character reply)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.reading.echo import ECHOED, echoed
from tests.bot.harness import CHAT, FakeClock, Harness, table_with_three_bots

HUGE = "x" * 100_000
LONGEST_REPLY = 500


def test_shown_cuts_long_input_to_a_prefix_and_leaves_short_input_alone():
    assert echoed("stake") == "stake"
    assert echoed("y" * ECHOED) == "y" * ECHOED
    assert echoed(HUGE) == "x" * ECHOED + "…"
    assert len(echoed("\n".join(["a"] * 1000))) <= ECHOED + 1


def longest(sent) -> int:
    assert sent, "nothing was answered"
    return max(len(message.text or "") for message in sent)


@pytest.mark.parametrize(
    "text",
    [
        f"/settings {HUGE}",
        f"/settings {HUGE} 1",
        f"/settings stake {HUGE}",
        f"/settings preset {HUGE}",
        f"/settings mention_turn {HUGE}",
        f"/lang {HUGE}",
    ],
    ids=["name", "name value", "value", "preset", "yes/no", "lang"],
)
async def test_a_huge_argument_in_the_lobby_gets_a_short_refusal(tmp_path: Path, text: str):
    harness = await Harness.open(str(tmp_path / "e.sqlite3"))
    try:
        await harness.say("ann", "/new situan", lang="en")
        assert longest(await harness.say("ann", text, lang="en")) < LONGEST_REPLY
    finally:
        await harness.db.close()


@pytest.mark.parametrize("text", [f"/new situan {HUGE}", f"/new erqiwang {HUGE}", f"/new {HUGE}"])
async def test_a_huge_game_or_preset_for_a_new_table_gets_a_short_refusal(tmp_path: Path, text):
    harness = await Harness.open(str(tmp_path / "n.sqlite3"))
    try:
        assert longest(await harness.say("ann", text, lang="en")) < LONGEST_REPLY
        assert harness.manager.tables.get(CHAT) is None
    finally:
        await harness.db.close()


@pytest.mark.parametrize(
    ("game", "text"),
    [
        ("situan", f"/play {HUGE}"),
        ("situan", f"/play 3 {HUGE}"),
        ("erqiwang", f"/bid {HUGE}"),
        ("erqiwang", f"/bid 1{HUGE}"),
        ("erqiwang", f"/play {HUGE}"),
        ("situan", f"/{HUGE}"),
    ],
    ids=["play token", "two tokens", "bid word", "bid number", "play a card", "command name"],
)
async def test_a_huge_argument_at_play_gets_a_short_refusal(tmp_path: Path, game: str, text: str):
    harness = await table_with_three_bots(str(tmp_path / "p.sqlite3"), FakeClock(), game, "en")
    try:
        answered = [await harness.say("ann", text, private=p, lang="en") for p in (False, True)]
        assert any(answered)
        for sent in answered:
            if sent:
                assert longest(sent) < LONGEST_REPLY
    finally:
        await harness.db.close()


async def test_a_huge_table_choice_in_private_gets_a_short_refusal(tmp_path: Path):
    harness = await table_with_three_bots(str(tmp_path / "c.sqlite3"), FakeClock(), "situan", "en")
    try:
        sent = await harness.say("ann", f"/play@{HUGE} 3", private=True, lang="en")
        assert longest(sent) < LONGEST_REPLY
    finally:
        await harness.db.close()

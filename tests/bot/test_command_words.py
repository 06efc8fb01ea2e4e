"""Players' first guesses are taken: words for commands in both Chinese scripts and English,
typed without a slash in a private chat with the bot or in the console (bot.reading.words)."""

from __future__ import annotations

import pytest

from bot.reading.command import parse_command
from tests.bot.harness import Harness


def read(text: str, plain: bool = True) -> tuple[str, tuple[str, ...]] | None:
    command = parse_command(text, "ann", "Ann", "c", private=True, plain=plain)
    return None if command is None else (command.name, command.args)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("出 2222", ("play", ("2222",))),
        ("出2222", ("play", ("2222",))),
        ("出牌 4个2", ("play", ("4个2",))),
        ("不要", ("pass", ())),
        ("過", ("pass", ())),
        ("不叫", ("pass", ())),
        ("叫分 100", ("bid", ("100",))),
        ("叫 100", ("bid", ("100",))),
        ("叫分100", ("bid", ("100",))),
        ("埋底 S3 S4", ("bury", ("S3", "S4"))),
        ("定主 H", ("trump", ("H",))),
        ("托管", ("auto", ())),
        ("準備", ("ready", ())),
        ("ready", ("ready", ())),
        ("hand", ("hand", ())),
        ("666", ("play", ("666",))),
        ("三个K", ("play", ("三个K",))),
        ("jjj", ("play", ("jjj",))),
        ("LJ LJ", ("play", ("LJ", "LJ"))),
        ("/出 777", ("play", ("777",))),
    ],
)
def test_a_word_players_type_is_the_command_it_names(typed, meant):
    assert read(typed) == meant


def test_in_a_group_text_without_a_slash_is_chat_not_a_command():
    assert read("不要", plain=False) is None
    assert read("/不要", plain=False) == ("pass", ())  # with a slash it is a command anywhere


async def test_typed_words_play_the_hand_like_commands(tmp_path):
    harness = await Harness.open(str(tmp_path / "w.sqlite3"), seed=5)
    try:
        await harness.say("ann", "/new erqiwang", lang="en")
        for _ in range(3):
            await harness.say("ann", "/addbot")
        await harness.say("ann", "/start")
        table = harness.table()
        await harness.run_until(lambda: table.hand.to_act == 0)
        before = len(table.hand.history)
        command = parse_command("叫分 100", "ann", "Ann", "ann", private=True, plain=True)
        assert command is not None
        await harness.deliver(command)
        assert len(table.hand.history) == before + 1
        assert table.hand.history[-1].to_json()["act"] == "bid"
    finally:
        await harness.db.close()

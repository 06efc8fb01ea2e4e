"""Issue 50 item 4: the page's words are made for the page. Its prompts name no command to
type (its buttons act), at every turn of whole hands of both games, for every seat, in the
three languages — where the chat's say what to type; its buttons' English words begin with
a capital letter, as "Play" and "Ready" do; chosen cards the engine takes for a bury are
"可以埋" (Can be buried), not "可以出"."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import t
from bot.page import seat_view as web_view
from tests.bot.harness import CHAT, FakeClock, Harness

LANGS = ("zh-Hans", "zh-Hant", "en")
COMMAND = re.compile(r"/[a-z]")
"""A command to type (``/play``, ``/pass``, ``/trump``) in a line."""


@pytest.mark.parametrize(("game", "seed"), [("situan", 3), ("erqiwang", 5), ("erqiwang", 8)])
async def test_page_prompts_name_no_command_and_buttons_are_capitalised(
    tmp_path: Path, game: str, seed: int
) -> None:
    harness = await Harness.open(str(tmp_path / "s.sqlite3"), FakeClock(), seed=seed)
    prompts: dict[str, set[str]] = {lang: set() for lang in LANGS}
    chat_prompts: set[str] = set()
    labels: set[str] = set()
    phases: set[str] = set()

    def step(chat: str, state_of: Any) -> None:
        table = harness.manager.tables.get(chat)
        hand = table.hand if table is not None else None
        if table is None or hand is None or hand.over:
            return
        seat = hand.to_act
        legal = hand.legal_actions(seat)
        view = hand.view(seat)
        phases.add(str(getattr(view, "phase", "")))
        for lang in LANGS:
            prompts[lang].add(table.front.page_prompt(lang, view, legal))
            controls = web_view.controls(table, seat, lang, view)
            labels.update(c["label"] for c in controls if lang == "en")
        chat_prompts.add(table.front.prompt("en", view, legal))

    harness.manager.listen_to_steps(step)
    await harness.say("ann", f"/new {game}", lang="zh-Hans")
    await harness.say("ann", "/settings max_hands 1")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    await harness.run_until(lambda: CHAT not in harness.manager.tables)
    await harness.db.close()

    if game == "erqiwang":  # the auction, trump and the bury were each prompted
        assert {"bidding", "trump", "bury", "play"} <= phases, phases
    assert all(COMMAND.search(line) for line in chat_prompts if line)  # the chat's: commands
    for lang, lines in prompts.items():
        assert len(lines) > 3
        assert [line for line in lines if COMMAND.search(line)] == [], lang
    words = {label for label in labels if label[:1].isalpha()}  # (bids, suits: no letter)
    assert {"Play", "Auto-play off"} & words, words
    assert [label for label in words if not label[0].isupper()] == []


async def test_a_bury_the_engine_takes_is_said_can_be_buried(tmp_path: Path) -> None:
    """Ann bids what nobody can go under, names trump and is to bury: the cards she chose
    are "可以埋" (and "Can be buried"), a play's stays "可以出"."""
    harness = await Harness.open(str(tmp_path / "s.sqlite3"), FakeClock(), seed=5)
    await harness.say("ann", "/new erqiwang", lang="zh-Hans")
    for _ in range(3):
        await harness.say("ann", "/addbot")
    await harness.say("ann", "/start")
    table = harness.table()
    await harness.run_until(lambda: table.hand.to_act == 0)
    bids = [a.points for a in table.hand.legal_actions(0) if a.act == "bid"]
    await harness.say("ann", f"/bid {min(bids)}")
    await harness.run_until(lambda: table.hand.to_act == 0)
    suit = next(a.suit for a in table.hand.legal_actions(0) if a.act == "trump")
    await harness.say("ann", f"/trump {suit}")
    view = table.hand.view(0)
    assert str(view.phase) == "bury" and table.hand.to_act == 0
    cards = [str(c) for c in view.hand[: len(view.bottom_shown)]]
    said = {lang: web_view.verdict(table, "ann", "bury", cards, lang) for lang in LANGS}
    assert said == {
        "zh-Hans": (True, "可以埋"),
        "zh-Hant": (True, "可以埋"),
        "en": (True, "Can be buried"),
    }
    assert t("zh-Hans", "Playable") == "可以出"
    await harness.db.close()

"""Pictures through real python-telegram-bot: the private hand as its own photo, the
settlement as a photo with its text as caption; the ``pictures`` option off sends none; a
picture that cannot be drawn leaves the text alone and the table goes on."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from bot.games import pictured
from bot.pictures import PictureError, clear_caches
from bot.table import CLOSED
from tests.telegram.fake_bot_api import attached_png
from tests.telegram.world import GROUP, TelegramWorld, wait_for_group_message
from tests.waiting import eventually


async def one_hand_on_auto(world: TelegramWorld, game: str, *settings: str) -> str:
    """Ann opens a table with three AI players, goes on 托管 and the hand plays out."""
    await world.say(11, "/start", chat_id=11)
    await world.say(11, f"/new {game}")
    for line in ("/settings max_hands 1", "/settings ai_delay 0", *settings):
        await world.say(11, line)
    for _ in range(3):
        await world.say(11, "/addbot")
    lobby = await wait_for_group_message(world, "/start")
    await world.press(11, lobby, "/start")
    key = world.key()
    await eventually(lambda: bool(world.api.calls_to("sendMessage", chat_id=11)), 10, 0.005,
                     "the hand")  # fmt: skip
    await world.say(11, "/auto on", chat_id=11)
    table = world.manager.tables[key]
    await eventually(lambda: table.state == CLOSED, 60, 0.01, "the match's end")
    await eventually(world.adapter.outbox.paced_out, 20, 0.01, "every group call")
    await world.settle()
    return key


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_the_hand_and_the_settlement_arrive_as_png_photos_beside_their_text(
    tmp_path: Path, game: str
):
    world = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    try:
        await one_hand_on_auto(world, game)
        private = world.api.calls_to("sendPhoto", chat_id=11)
        assert len(private) == 1, "one hand photo per hand, edited as the hand goes on"
        assert attached_png(private[0].params).width > 100
        edits = world.api.calls_to("editMessageMedia", chat_id=11)
        assert edits, "the picture follows the cards held"
        attached_png(edits[-1].params, "media")
        texts = [m for m in world.api.chat_messages(11) if "photo" not in m]
        assert texts, "the text hand stays, edited in place"
        # The table is closed before its settlement reaches the outbox: wait for that post.
        await eventually(lambda: bool(world.api.calls_to("sendPhoto", chat_id=GROUP)), 20, 0.01,
                         "the settlement's photo")  # fmt: skip
        await world.settle()
        group = world.api.calls_to("sendPhoto", chat_id=GROUP)
        assert len(group) == 1
        attached_png(group[0].params)
        caption = group[0].params["caption"]
        assert caption and len(caption) <= 1024
        assert "/ready" in str(group[0].params["reply_markup"])
    finally:
        await world.close()


async def test_the_pictures_option_off_sends_no_picture(tmp_path: Path):
    world = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    try:
        await one_hand_on_auto(world, "situan", "/settings pictures off")
        assert not world.api.calls_to("sendPhoto")
        assert not world.api.calls_to("editMessageMedia")
    finally:
        await world.close()


async def test_a_picture_that_cannot_be_drawn_falls_back_to_text_and_the_table_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    def broken(picture: object) -> bytes:
        raise PictureError("no font today")

    clear_caches()
    monkeypatch.setattr(pictured, "render_hand", broken)
    monkeypatch.setattr(pictured, "render_settlement", broken)
    caplog.set_level(logging.WARNING)
    world = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    try:
        key = await one_hand_on_auto(world, "situan")
        assert world.manager.tables[key].state == CLOSED
        assert not world.api.calls_to("sendPhoto")
        assert world.api.calls_to("sendMessage", chat_id=11), "the hand went as text"
        posts = [c.params["text"] for c in world.api.calls_to("sendMessage", chat_id=GROUP)]
        assert any("/ready" in str(c.params.get("reply_markup"))
                   for c in world.api.calls_to("sendMessage", chat_id=GROUP)), posts  # fmt: skip
        assert "no font today" in caplog.text
    finally:
        await world.close()

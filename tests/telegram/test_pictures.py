"""Pictures through real python-telegram-bot: the private hand as one photo with its text as
caption and its keyboard, edited in place (the caption when only the text or keyboard
changed, the picture when the cards did); the settlement as a photo with its text as
caption; the ``pictures`` option off sends none; a picture that cannot be drawn leaves the
text alone and the table goes on."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from bot.games import pictured
from bot.pictures import PictureError, clear_caches
from bot.views.outgoing import Outgoing
from tests.telegram.fake_bot_api import attached_png, telegram_form
from tests.telegram.world import (
    GROUP,
    TelegramWorld,
    button_presses,
    buttons_of,
    wait_for_group_message,
)
from tests.waiting import eventually, until_closed_and_sent

ANN = 11


def has_keyboard(message: dict[str, Any]) -> bool:
    return any("callback_data" in button for button in buttons_of(message))


def private_calls(world: TelegramWorld, since: int = 0) -> list[str]:
    return [c.method for c in world.api.calls[since:] if str(c.params.get("chat_id")) == str(ANN)]


def hand_texts(world: TelegramWorld) -> list[str]:
    """Ann's private text messages that show her hand (the greeting is not one)."""
    texts = [
        str(c.params.get("text"))
        for c in world.api.calls
        if c.method in ("sendMessage", "editMessageText")
        and str(c.params.get("chat_id")) == str(ANN)
    ]
    return [text for text in texts if "手牌" in text]


async def dealt(world: TelegramWorld, game: str, *settings: str) -> Any:
    """Ann opens a table with three AI players (acting at once); returns it once her hand
    has arrived."""
    await world.say(ANN, "/start", chat_id=ANN)
    await world.say(ANN, f"/new {game}")
    for line in ("/settings max_hands 1", "/settings ai_delay 0", *settings):
        await world.say(ANN, line)
    for _ in range(3):
        await world.say(ANN, "/addbot")
    lobby = await wait_for_group_message(world, "/start")
    await world.press(ANN, lobby, "/start")
    await eventually(
        lambda: any(has_keyboard(m) for m in world.api.chat_messages(ANN)), 10, 0.005, "the hand"
    )
    return world.manager.tables[world.key()]


async def ann_to_act(world: TelegramWorld, table: Any) -> int:
    """Until the AI players wait for Ann and her latest view is sent; her seat."""
    seat = table.seat_of(f"tg:u{ANN}")
    await eventually(lambda: table.turn_seat == seat, 20, 0.005, "Ann's turn")
    await world.settle()
    return int(seat)


async def one_hand_on_auto(world: TelegramWorld, game: str, *settings: str) -> str:
    """Ann's table plays its one hand out with Ann on 托管."""
    table = await dealt(world, game, *settings)
    await world.say(ANN, "/auto on", chat_id=ANN)
    await until_closed_and_sent(world.manager, world.adapter.outbox, table.chat)
    return str(table.chat)


async def test_the_private_hand_is_one_photo_with_its_text_as_caption_and_its_keyboard(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    world = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    outbox = world.adapter.outbox
    given: list[Outgoing] = []  # the hand views the host gave the outbox
    deliver = outbox.deliver

    async def noting(key: str, target: Any, message: Outgoing) -> None:
        if message.slot is not None and message.user == f"tg:u{ANN}":
            given.append(message)
        await deliver(key, target, message)

    monkeypatch.setattr(outbox, "deliver", noting)
    try:
        table = await dealt(world, "situan")
        await ann_to_act(world, table)
        photos = world.api.calls_to("sendPhoto", chat_id=ANN)
        assert len(photos) == 1
        assert attached_png(photos[0].params).width > 100
        assert photos[0].params["caption"] == given[0].text and "手牌" in given[0].text
        assert hand_texts(world) == [], "no text message beside the photo"
        shown = world.hand_message(ANN)
        assert "photo" in shown and shown["caption"] == given[-1].text
        commands = [b["callback_data"].split("|")[-1] for b in buttons_of(shown)]
        assert commands == [b.command for row in given[-1].buttons for b in row]
    finally:
        await world.close()


async def test_a_pick_edits_only_the_caption_and_a_play_edits_the_picture_and_plays(
    tmp_path: Path,
):
    world = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    try:
        table = await dealt(world, "situan")
        seat = await ann_to_act(world, table)
        while (presses := button_presses(table))[-1] != "/go":
            await world.press(ANN, world.hand_message(ANN), presses[0])  # a pass: next turn
            seat = await ann_to_act(world, table)
        held = len(table.hand.cards_of(seat))
        before = len(world.api.calls)
        for press in presses[:-1]:
            shown = telegram_form(world.hand_message(ANN))
            assert "text" not in shown and shown["caption"], "pressed on a photo"
            answer = await world.press(ANN, world.hand_message(ANN), press)
            assert not answer.get("text"), answer
        picks = private_calls(world, before)
        assert "editMessageCaption" in picks
        assert set(picks) == {"editMessageCaption"}, "a pick uploads nothing"
        before = len(world.api.calls)
        answer = await world.press(ANN, world.hand_message(ANN), "/go")
        assert not answer.get("text"), answer
        assert len(table.hand.cards_of(seat)) < held, "the play went through"
        played = private_calls(world, before)
        assert "editMessageMedia" in played, "the cards changed: so did the picture"
        assert "sendPhoto" not in played
        media = world.api.calls_to("editMessageMedia", chat_id=ANN)
        attached_png(media[-1].params, "media")
        assert "手牌" in media[-1].params["media"]["caption"]
        assert len(world.api.calls_to("sendPhoto", chat_id=ANN)) == 1
    finally:
        await world.close()


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_the_hand_and_the_settlement_arrive_as_png_photos_with_their_text_as_caption(
    tmp_path: Path, game: str
):
    world = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    try:
        await one_hand_on_auto(world, game)
        private = world.api.calls_to("sendPhoto", chat_id=ANN)
        assert len(private) == 1, "one hand photo per hand, edited as the hand goes on"
        assert attached_png(private[0].params).width > 100
        assert "手牌" in private[0].params["caption"]
        edits = world.api.calls_to("editMessageMedia", chat_id=ANN)
        assert edits, "the picture follows the cards held"
        attached_png(edits[-1].params, "media")
        assert "手牌" in edits[-1].params["media"]["caption"]
        assert hand_texts(world) == [], "the hand's text is the photo's caption"
        group = world.api.calls_to("sendPhoto", chat_id=GROUP)
        assert len(group) == 1
        attached_png(group[0].params)
        caption = group[0].params["caption"]
        opening = "本局结束。"  # one deal is 局 in both games
        assert caption and len(caption) <= 1024 and caption.startswith(opening)
        # the match's only hand: no Ready under it (the private hand's photo carries its
        # keyboard, test_the_private_hand_is_one_photo_with_its_text_as_caption_and_its_keyboard)
        assert "/ready" not in str(group[0].params.get("reply_markup"))
    finally:
        await world.close()


async def test_the_pictures_option_off_sends_no_picture_and_the_hand_is_a_text_message(
    tmp_path: Path,
):
    world = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    try:
        table = await dealt(world, "situan", "/settings pictures off")
        await ann_to_act(world, table)
        shown = world.hand_message(ANN)
        assert "photo" not in shown and "手牌" in shown["text"]
        assert hand_texts(world)
        await world.say(ANN, "/auto on", chat_id=ANN)
        await until_closed_and_sent(world.manager, world.adapter.outbox, table.chat)
        assert not world.api.calls_to("sendPhoto")
        assert not world.api.calls_to("editMessageMedia")
        assert not world.api.calls_to("editMessageCaption")
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
        assert world.manager.phase_at(key) is None  # closed, and let go
        assert not world.api.calls_to("sendPhoto")
        texts = world.api.calls_to("sendMessage", chat_id=ANN)
        assert any(has_keyboard(c.params) and "手牌" in c.params["text"] for c in texts), (
            "the hand went as text, with its keyboard"
        )
        posts = [c.params["text"] for c in world.api.calls_to("sendMessage", chat_id=GROUP)]
        assert any(post.startswith("本局结束。") for post in posts), posts  # settlement, as text
        assert "no font today" in caplog.text
    finally:
        await world.close()

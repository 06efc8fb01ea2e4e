"""The private hand's forms on Telegram, through real python-telegram-bot against the fake
Bot API, with hand views given to the outbox directly: one photo (picture, caption,
keyboard) where the text fits a caption, edited with the fewest calls; a picture and then
a text message where it does not; a text message without a picture. A change of form
leaves one hand in the chat, and Telegram's refusals of an edit are taken as it means them."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from io import BytesIO
from typing import Any

import pytest
from PIL import Image

from bot.pictures import PictureError
from bot.views.outgoing import Button, Outgoing
from tests.telegram.fake_bot_api import NOT_MODIFIED, attached_png
from tests.telegram.world import GROUP, TelegramWorld, buttons_of

ANN = 11
LONG = "你的手牌：" + "7" * 1100
"""A hand's text longer than a caption may be (1024 characters)."""


def png(colour: str) -> Callable[[], bytes]:
    out = BytesIO()
    Image.new("RGB", (160, 60), colour).save(out, format="PNG")
    data = out.getvalue()
    return lambda: data


def broken() -> bytes:
    raise PictureError("no font today")


RED, BLUE = png("red"), png("blue")


def hand(text: str, picture: Callable[[], bytes] | None, command: str = "/go") -> Outgoing:
    """A view of Ann's hand at the table in GROUP (one slot: one hand)."""
    button = Button("出牌", command, "t1.1")
    return Outgoing(
        "private",
        f"tg:{GROUP}",
        text,
        user=f"tg:u{ANN}",
        buttons=((button,),),
        slot="hand t1.1",
        picture=picture,
    )


@pytest.fixture
async def world(tmp_path: Any) -> AsyncIterator[TelegramWorld]:
    opened = await TelegramWorld.open(str(tmp_path / "t.sqlite3"))
    opened.adapter.outbox.opened(f"tg:u{ANN}")
    try:
        yield opened
    finally:
        await opened.close()


async def show(world: TelegramWorld, message: Outgoing) -> list[str]:
    """Send one view of the hand; the calls it made in Ann's chat."""
    before = len(world.api.calls)
    await world.adapter.outbox(message)
    await world.settle()
    return [c.method for c in world.api.calls[before:] if str(c.params.get("chat_id")) == str(ANN)]


def in_chat(world: TelegramWorld) -> list[tuple[str, str, list[str]]]:
    """Ann's chat as she sees it: (photo or text, what it says, its buttons' commands)."""
    return [
        (
            "photo" if "photo" in m else "text",
            m.get("caption", m.get("text", "")),
            [b["callback_data"].split("|")[-1] for b in buttons_of(m)],
        )
        for m in world.api.chat_messages(ANN)
    ]


def last(world: TelegramWorld, method: str) -> dict[str, Any]:
    return world.api.calls_to(method, chat_id=ANN)[-1].params


async def test_a_hand_is_sent_once_as_a_photo_and_an_unchanged_view_makes_no_call(world):
    assert await show(world, hand("你的手牌：7", RED)) == ["sendPhoto"]
    sent = last(world, "sendPhoto")
    assert attached_png(sent).getpixel((0, 0)) == (255, 0, 0)
    assert sent["caption"] == "你的手牌：7" and "/go" in str(sent["reply_markup"])
    assert await show(world, hand("你的手牌：7", RED)) == []
    assert in_chat(world) == [("photo", "你的手牌：7", ["/go"])]


async def test_a_new_text_or_keyboard_with_the_same_picture_edits_the_caption_only(world):
    await show(world, hand("你的手牌：7", RED))
    assert await show(world, hand("你的手牌：7", RED, "/pass")) == ["editMessageCaption"]
    assert "/pass" in str(last(world, "editMessageCaption")["reply_markup"])
    assert await show(world, hand("你的手牌：7 已选 7", RED, "/pass")) == ["editMessageCaption"]
    assert in_chat(world) == [("photo", "你的手牌：7 已选 7", ["/pass"])]


async def test_a_new_picture_edits_the_media_with_its_caption_and_keyboard(world):
    await show(world, hand("你的手牌：7 8", RED))
    assert await show(world, hand("你的手牌：8", BLUE, "/pass")) == ["editMessageMedia"]
    edit = last(world, "editMessageMedia")
    assert attached_png(edit, "media").getpixel((0, 0)) == (0, 0, 255)
    assert edit["media"]["caption"] == "你的手牌：8" and "/pass" in str(edit["reply_markup"])
    assert in_chat(world) == [("photo", "你的手牌：8", ["/pass"])]


async def test_a_hand_too_long_for_a_caption_is_its_picture_then_its_text_with_the_keyboard(
    world,
):
    assert await show(world, hand(LONG, RED)) == ["sendPhoto", "sendMessage"]
    photo = last(world, "sendPhoto")
    assert "caption" not in photo and "reply_markup" not in photo
    assert in_chat(world) == [("photo", "", []), ("text", LONG, ["/go"])]
    assert await show(world, hand(LONG + "8", BLUE)) == ["editMessageMedia", "editMessageText"]
    assert await show(world, hand(LONG + "9", BLUE)) == ["editMessageText"]


async def test_a_caption_outgrown_and_fitting_again_keeps_one_photo_and_uploads_nothing(world):
    await show(world, hand("你的手牌：7", RED))
    # The photo drops its caption and keyboard and stays above the text message.
    assert await show(world, hand(LONG, RED)) == ["editMessageCaption", "sendMessage"]
    assert last(world, "editMessageCaption")["caption"] == ""
    assert in_chat(world) == [("photo", "", []), ("text", LONG, ["/go"])]
    # The photo takes the caption and keyboard back; the text message goes.
    assert await show(world, hand("你的手牌：8", RED, "/pass")) == [
        "editMessageCaption",
        "deleteMessage",
    ]
    assert in_chat(world) == [("photo", "你的手牌：8", ["/pass"])]
    assert len(world.api.calls_to("sendPhoto", chat_id=ANN)) == 1


@pytest.mark.parametrize("picture", [broken, None], ids=["drawing fails", "pictures off"])
async def test_a_hand_without_its_picture_becomes_a_text_message_and_a_photo_again(
    world, picture: Callable[[], bytes] | None, caplog: pytest.LogCaptureFixture
):
    caplog.set_level(logging.WARNING)
    await show(world, hand("你的手牌：7 8", RED))
    # A photo cannot become a text message: it is deleted, the text sent.
    assert await show(world, hand("你的手牌：8", picture)) == ["deleteMessage", "sendMessage"]
    assert in_chat(world) == [("text", "你的手牌：8", ["/go"])]
    assert ("no font today" in caplog.text) == (picture is broken)
    assert await show(world, hand("你的手牌：8", BLUE)) == ["sendPhoto", "deleteMessage"]
    assert in_chat(world) == [("photo", "你的手牌：8", ["/go"])]


async def test_a_hand_photo_deleted_in_the_chat_is_sent_anew(world):
    await show(world, hand("你的手牌：7 8", RED))
    (gone,) = list(world.api.messages)
    del world.api.messages[gone]  # Ann deleted it
    assert await show(world, hand("你的手牌：7 8", RED, "/pass")) == [
        "editMessageCaption",
        "sendPhoto",
    ]
    (gone,) = list(world.api.messages)
    del world.api.messages[gone]
    assert await show(world, hand("你的手牌：8", BLUE)) == ["editMessageMedia", "sendPhoto"]
    assert in_chat(world) == [("photo", "你的手牌：8", ["/go"])]


@pytest.mark.parametrize("method", ["editMessageCaption", "editMessageMedia"])
async def test_an_edit_telegram_calls_not_modified_counts_as_shown(world, method: str):
    await show(world, hand("你的手牌：7", RED))
    world.api.refuse_next[method] = NOT_MODIFIED
    change = (
        hand("你的手牌：7", RED, "/pass")
        if method == "editMessageCaption"
        else hand("你的手牌：7", BLUE)
    )
    assert await show(world, change) == [method], "refused, and not sent anew"
    assert await show(world, change) == [], "it is shown: no second call"
    assert not world.api.refuse_next

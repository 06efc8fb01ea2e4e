"""The private hand as Telegram shows it: one photo — its picture, its text as the caption,
its keyboard — edited with ``editMessageMedia`` when the picture changed and with
``editMessageCaption`` when only the text or keyboard did (never uploaded again unchanged).
A text too long for a caption keeps the picture beside a text message; a hand without a
picture is a text message; a change of form leaves one hand. `TelegramOutbox` is built on it.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from typing import Any

from telegram import Bot, InputMediaPhoto
from telegram.error import BadRequest, Forbidden

from adapters.delivery import Delivery
from adapters.message_parts import digest
from adapters.slot_places import SlotPlace, slot_place
from bot.views.outgoing import Outgoing

log = logging.getLogger(__name__)


class HandPhotos(Delivery):
    """The hand's photo forms and their edits (and deleting a message, which they need)."""

    bot: Bot
    _captions: dict[SlotPlace, tuple[str | None, str, str | None]]
    """What each slot's captioned photo says now (its slot, text and keyboard)."""

    async def _delete(self, chat_id: int, message_id: int) -> None:
        try:
            await self.bot.delete_message(chat_id, message_id)
        except Exception as error:  # no right to delete here, or gone already: that is all
            log.info("could not delete a message in %s: %s", chat_id, error)

    async def _show_captioned(
        self, key: str, chat_id: int, thread: int | None, message: Outgoing, markup: Any, png: bytes
    ) -> None:
        """The hand as one photo: its picture, its text as caption, its keyboard. A text
        message cannot become a photo: the hand's other forms are deleted."""
        photo = _photo_of(message)
        if not await self._edit_captioned(key, chat_id, message, markup, png):
            sent = await self.bot.send_photo(
                chat_id,
                png,
                caption=photo.text,
                filename="hand.png",
                message_thread_id=thread,
                reply_markup=markup,
            )
            self._remember_captioned(key, photo, sent.message_id, png, markup)
        await self._drop(key, chat_id, message)
        await self._drop(key, chat_id, _picture_of(message))

    async def _edit_captioned(
        self, key: str, chat_id: int, message: Outgoing, markup: Any, png: bytes
    ) -> bool:
        """Edit the slot's photo into this view: its captioned photo, or else its separate
        picture, which takes the caption. False: there is none to edit (send it)."""
        photo = _photo_of(message)
        for form in (photo, _picture_of(message)):
            known = self.known_message(key, form)
            if known is None:
                continue
            same = self.picture_shown(key, form) == digest(png)
            if same and form is photo and self._caption_shown(key, photo, markup):
                return True
            edited = await self._edit_photo(
                chat_id, known, None if same else png, photo.text, markup
            )
            self._forget(key, form)  # only once answered: a call that raised is retried as is
            if edited:
                self._remember_captioned(key, photo, known, png, markup)
                return True
        return False

    async def _uncaption(
        self, key: str, chat_id: int, message: Outgoing, png: bytes | None
    ) -> None:
        """The hand leaves its captioned photo (its text outgrew a caption, or it has no
        picture now): the photo stays as the separate picture above the text where there is
        one, without caption or keyboard; else it is deleted."""
        photo = _photo_of(message)
        known = self.known_message(key, photo)
        if known is None:
            return
        if png is not None:
            same = self.picture_shown(key, photo) == digest(png)
            if await self._edit_photo(chat_id, known, None if same else png, "", None):
                self._forget(key, photo)
                picture = _picture_of(message)
                self.remember_message(key, picture, known)
                self.remember_picture(key, picture, png)
                return
        self._forget(key, photo)
        await self._delete(chat_id, known)

    async def _show_hand_picture(
        self, key: str, chat_id: int, thread: int | None, message: Outgoing, png: bytes | None
    ) -> None:
        """The picture beside a hand's text message (when the text is too long for a
        caption): sent once per hand, edited when the picture changed, deleted when it can
        no longer be drawn (it would show cards no longer held)."""
        picture = _picture_of(message)
        if png is None:
            await self._drop(key, chat_id, picture)
            return
        known = self.known_message(key, picture)
        if known is not None and self.picture_shown(key, picture) == digest(png):
            return
        if known is not None and await self._edit_photo(chat_id, known, png, None, None):
            self.remember_picture(key, picture, png)
            return
        try:
            sent = await self.bot.send_photo(
                chat_id, png, filename="hand.png", message_thread_id=thread
            )
        except Forbidden:
            return  # not reachable: the text's own refusal tells the group (`_unreachable`)
        self.remember_message(key, picture, sent.message_id)
        self.remember_picture(key, picture, png)

    async def _edit_photo(
        self, chat_id: int, message_id: int, png: bytes | None, caption: str | None, markup: Any
    ) -> bool:
        """Edit a photo message in place: its picture (``png``; None keeps it, no upload),
        caption and keyboard. False: it could not be edited (gone), send it anew."""
        try:
            if png is None:
                await self.bot.edit_message_caption(
                    chat_id=chat_id, message_id=message_id, caption=caption, reply_markup=markup
                )
            else:
                media = InputMediaPhoto(png, caption=caption, filename="hand.png")
                await self.bot.edit_message_media(
                    media, chat_id=chat_id, message_id=message_id, reply_markup=markup
                )
        except BadRequest as error:
            if "not modified" not in str(error).lower():
                log.info("editing a photo failed (%s); sending it anew", error)
                return False
        return True

    def _remember_captioned(
        self, key: str, photo: Outgoing, message_id: int, png: bytes, markup: Any
    ) -> None:
        self.remember_message(key, photo, message_id)
        self.remember_picture(key, photo, png)
        self._captions[slot_place(key, photo)] = _caption(photo, markup)

    def _caption_shown(self, key: str, photo: Outgoing, markup: Any) -> bool:
        return self._captions.get(slot_place(key, photo)) == _caption(photo, markup)

    def _forget(self, key: str, form: Outgoing) -> None:
        self.remember_message(key, replace(form, slot=f"gone {form.slot}"), None)
        self.remember_picture(key, form, None)
        self._captions.pop(slot_place(key, form), None)

    async def _drop_every_form(self, key: str, chat_id: int, message: Outgoing) -> None:
        """Delete the slot's hand in whatever form it was sent (it is to come anew)."""
        await self._drop(key, chat_id, _photo_of(message))
        await self._drop(key, chat_id, message)

    async def _drop(self, key: str, chat_id: int, form: Outgoing) -> None:
        """Delete the slot's message of this form, if one was sent."""
        known = self.known_message(key, form)
        if known is not None:
            self._forget(key, form)
            await self._delete(chat_id, known)


def _photo_of(message: Outgoing) -> Outgoing:
    """A slot's message as one captioned photo (the hand's picture, text and keyboard).
    Each form is remembered apart (`Delivery.known_message` keys on the message's chat:
    a private message is sent to its user, never to this chat)."""
    return replace(message, chat=f"{message.chat}#photo")


def _picture_of(message: Outgoing) -> Outgoing:
    """A slot's picture as a photo of its own, beside the text message."""
    return replace(message, chat=f"{message.chat}#picture")


def _caption(photo: Outgoing, markup: Any) -> tuple[str | None, str, str | None]:
    """What a captioned photo says: edited only when this changed."""
    return photo.slot, photo.text, None if markup is None else markup.to_json()

"""Neutral outgoing messages as Discord calls (pacing and ordering: `adapters.delivery`).

Where a private message goes:
- the answer to the very interaction being handled (a click on one's own hand message, the
  "My hand" button, ``/hand``) is that interaction's response — the fastest path, no extra call;
- otherwise the player's DMs, kept current by editing the hand message in place;
- for a member whose DMs are closed (Discord answers 403, code 50007) the channel is told once,
  and the ephemeral hand view they last opened is refreshed while its token lives (15 min);
  the "My hand" button always brings a fresh one;
- a /notify message (`bot.commands.notices`) to a member whose DMs are closed: the member is told
so once, ephemerally, as a follow-up of their /notify in the channel.

Pictures (`Outgoing.picture`, drawn off the event loop) go as a ``discord.File`` attachment
of the same message: the settlement in the channel, the hand in the DM, the ephemeral view
and an interaction's answer. An edit uploads the picture again only when it changed; a
picture that cannot be drawn is logged, the text goes alone (and a stale one is removed).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord

from adapters.delivery import Delivery
from adapters.discord.components import build_view, channel_id_of, with_web_button
from adapters.message_parts import digest, draw, split_text
from adapters.send_budget import DISCORD_RATE, SendBudget
from bot.commands.notices import NOTICE_SLOT
from bot.community.quick_seating import QUICK_NARRATION, is_quick
from bot.i18n import normalize_language, t
from bot.views.outgoing import Kind, Outgoing

log = logging.getLogger(__name__)
TEXT_LIMIT = 2000
CLOSED_DMS = 50007
RESPONSE_WAITS = 100
"""Steps of 50 ms a follow-up waits for its interaction's response (sent as soon as the
command is handled, so in practice it is already done)."""
EPHEMERAL_SECONDS = 14 * 60
"""An interaction token lives 15 minutes; refresh only with a minute to spare."""


@dataclass
class Origin:
    """The interaction being handled: who, whether it came from their own hand message, and
    what should become its response."""

    user: str
    interaction: discord.Interaction[Any]
    on_own_hand: bool
    wants_hand: bool
    alerts: list[str] = field(default_factory=list)
    choices: Outgoing | None = None
    """An answer with buttons (which of the player's tables?): its buttons go with the
    interaction's response."""
    hand: Outgoing | None = None
    file: Outgoing | None = None


class DiscordOutbox(Delivery):
    platform = "discord"
    pace_budget, pace_window = 5, 5.0
    """Discord's own limit for a channel: 5 messages (posts or edits) in 5 s, not Telegram's
    20 a minute. The slot stays 3 s, table edits coalesced and plays between AI seats
    folded: a play shows within 3 s and the channel stays about as quiet as a group."""
    budget_each_message = True
    """Discord's global limit is kept here, a message at a time, by priority (a person's
    notice first: `adapters.send_budget`); discord.py keeps the per-route buckets and waits
    out what Discord reports (429s, the headers' remaining calls)."""

    def __init__(
        self,
        client: discord.Client,
        names: Callable[[str, str], str],
        language: Callable[[str], str],
        *,
        pace_speed: float = 1.0,
        has_table: Callable[[str], bool] | None = None,
        web_served: bool = False,
        reader_language: Callable[[str, str], str] | None = None,
    ) -> None:
        budget = SendBudget(DISCORD_RATE, speed=pace_speed, platform="discord")
        super().__init__(pace_speed, send_budget=budget, has_table=has_table)
        self.client = client
        self.names = names
        self.language = language
        self.closed_dms: set[str] = set()
        self._dm_channels: dict[str, int] = {}
        self._ephemeral: dict[str, tuple[discord.Interaction[Any], float]] = {}
        self._told_closed: set[tuple[str, str]] = set()
        self.web_served = web_served
        """The web table is served (``WEB_PUBLIC_URL``): "Open table" joins the table."""
        self.reader_language = reader_language or (lambda chat, user: language(chat))
        """(chat, user) → the language the player reads at that table (each player of a quick
        table has theirs)."""
        self._asked_notices: dict[str, tuple[discord.Interaction[Any], float]] = {}
        """Each member's last /notify interaction: its follow-up tells them, and them alone,
        when their DMs are closed."""

    async def __call__(self, message: Outgoing, origin: Origin | None = None) -> None:
        """Send one message; ``origin`` is the interaction it answers (None: the table acted
        by itself, on a timer)."""
        if message.kind in (Kind.GROUP, Kind.TABLE):
            self.pace(message)
            return
        own = origin is not None and origin.user == message.user
        if message.kind == Kind.REPLY:
            if own:
                assert origin is not None
                origin.alerts.append(message.text)
                if message.buttons:
                    origin.choices = message
            elif message.user not in self.closed_dms:
                self._to_dm(message)
            # else: an answer may name the player's cards, so it never goes to the channel;
            # every command is an interaction, whose own answer reaches the player anyway.
            return
        if own and origin is not None and message.filename is not None:
            origin.file = message
        elif own and origin is not None and origin.wants_hand and _is_hand(message):
            origin.hand = message
        elif message.user in self.closed_dms:
            if _is_hand(message):  # a notice must not replace the open hand view
                self._refresh_ephemeral(message)
            elif _is_notice(message):
                await self._notice_refused(message)
        else:
            self._to_dm(message)

    def remember_notify(self, user: str, interaction: discord.Interaction[Any]) -> None:
        """The member's /notify, whose follow-up may tell them their DMs are closed."""
        self._asked_notices[user] = (interaction, time.monotonic())

    async def _notice_refused(self, message: Outgoing) -> None:
        """A /notify message cannot reach the member: tell them once, in the channel where
        they asked, ephemerally (while their /notify's token lives)."""
        assert message.user is not None
        self.closed_dms.add(message.user)
        asked = self._asked_notices.pop(message.user, None)
        if asked is None or time.monotonic() - asked[1] >= EPHEMERAL_SECONDS:
            return
        interaction = asked[0]
        lang = normalize_language(str(interaction.locale)) or self.language(message.chat)
        text = t(
            lang,
            "Your direct messages are closed, so I cannot tell you when a game "
            "starts. Open them (the server's privacy settings) and say /notify again.",
        )
        for _ in range(RESPONSE_WAITS):  # a follow-up comes after the /notify's response
            if interaction.response.is_done():
                break
            await asyncio.sleep(0.05)
        try:
            await interaction.followup.send(text, ephemeral=True)
        except discord.HTTPException as error:
            log.warning("telling a member their DMs are closed failed: %s", error)

    def remember_ephemeral(self, user: str, interaction: discord.Interaction[Any]) -> None:
        """The hand view this player has open as an ephemeral message, to refresh."""
        self._ephemeral[user] = (interaction, time.monotonic())

    def _refresh_ephemeral(self, message: Outgoing) -> None:
        assert message.user is not None
        live = self._ephemeral.get(message.user)
        if live is not None and time.monotonic() - live[1] < EPHEMERAL_SECONDS:
            self.enqueue(message.user, ("ephemeral", live[0]), message)

    def _to_dm(self, message: Outgoing) -> None:
        assert message.user is not None
        self.enqueue(message.user, ("dm", int(message.user.removeprefix("dc:u"))), message)

    def group_target(self, chat: str) -> Any:
        return ("channel", channel_id_of(chat))

    # ----------------------------------------------------------------- sending

    async def deliver(self, key: str, target: Any, message: Outgoing) -> None:
        where, handle = target
        try:
            if where == "ephemeral":
                png = await draw(key, message)
                await handle.edit_original_response(
                    content=message.text[:TEXT_LIMIT],
                    view=build_view(message.chat, message.buttons),
                    **({"attachments": [picture_file(message, png)]} if png is not None else {}),
                )
                return
            channel = await self._channel(where, handle, key)
            await self._send_or_edit(key, channel, message)
        except discord.Forbidden as error:
            if where == "dm" and error.code == CLOSED_DMS and _is_notice(message):
                await self._notice_refused(message)
            elif where == "dm" and error.code == CLOSED_DMS:
                self._dms_closed(message)
            else:
                log.warning("Discord refused a message to %s: %s", key, error)
        except discord.NotFound:
            if where == "ephemeral" and message.user is not None:
                self._ephemeral.pop(message.user, None)  # the token ran out
        except discord.HTTPException as error:
            log.warning("sending to %s failed: %s", key, error)

    def _mentioning(self, message: Outgoing) -> str:
        """The text, the called player's name written as their mention."""
        if message.mention is None or not message.mention.startswith("dc:u"):
            return message.text
        name = self.names(message.chat, message.mention)
        mention = f"<@{message.mention.removeprefix('dc:u')}>"
        return message.text.replace(name, mention, 1) if name else message.text

    async def retire(self, key: str, target: Any, message_id: Any, keep: str) -> None:
        where, handle = target
        try:
            channel = await self._channel(where, handle, key)
            old = channel.get_partial_message(int(message_id))  # type: ignore[attr-defined]
            if keep:
                await old.edit(content=keep[:TEXT_LIMIT], view=None)
            else:
                await old.delete()
        except discord.HTTPException as error:
            log.info("could not cut a table message down to its posts: %s", error)

    async def _channel(self, where: str, handle: int, key: str) -> discord.abc.Messageable:
        if where == "channel":
            return self.client.get_partial_messageable(handle)
        channel_id = self._dm_channels.get(key)
        if channel_id is None:
            user = self.client.get_user(handle) or await self.client.fetch_user(handle)
            dm = await user.create_dm()
            channel_id = self._dm_channels[key] = dm.id
        return self.client.get_partial_messageable(channel_id, type=discord.ChannelType.private)

    async def _send_or_edit(self, key: str, channel: Any, message: Outgoing) -> None:
        view = build_view(message.chat, message.buttons)
        if self.web_served and message.kind == Kind.TABLE:
            view = with_web_button(view, message.chat, t(self.language(message.chat), "Open table"))
        elif (
            self.web_served
            and message.user is not None
            and quick_table_message(message)
            and not message.final
        ):
            lang = self.reader_language(message.chat, message.user)
            view = with_web_button(view, message.chat, t(lang, "Open table"))
        if message.filename is not None:
            file = discord.File(io.BytesIO(message.text.encode()), filename=message.filename)
            await channel.send(file=file)
            return
        png = await draw(key, message)
        known = self.known_message(key, message)
        if known is not None and message.asked:  # asked for: anew at the end of the chat
            with contextlib.suppress(discord.NotFound):
                await channel.get_partial_message(known).delete()
            known = None
        if known is not None:
            changes: dict[str, Any] = {}
            shown = self.picture_shown(key, message)
            if png is not None and shown != digest(png):
                changes["attachments"] = [picture_file(message, png)]
            elif png is None and shown is not None:
                changes["attachments"] = []  # it would show cards no longer held
            try:
                await channel.get_partial_message(known).edit(
                    content=message.text[:TEXT_LIMIT], view=view, **changes
                )
                self.remember_picture(key, message, png)
                return
            except discord.NotFound:
                log.info("the message to edit is gone; sending it anew")
        chunks = split_text(self._mentioning(message), TEXT_LIMIT)
        sent = None
        for index, chunk in enumerate(chunks):
            extra: dict[str, Any] = {}
            if message.mention is not None:  # that player alone is notified
                user = discord.Object(int(message.mention.removeprefix("dc:u")))
                extra["allowed_mentions"] = discord.AllowedMentions(users=[user])
            if index == len(chunks) - 1:
                if view is not None:
                    extra["view"] = view
                if png is not None:
                    extra["file"] = picture_file(message, png)
            sent = await channel.send(chunk, **extra)
        if sent is not None:
            self.remember_message(key, message, sent.id)
            self.remember_picture(key, message, png)

    def forget_chats(self, chats: set[str]) -> None:
        super().forget_chats(chats)
        self._told_closed = {(c, u) for c, u in self._told_closed if c not in chats}
        # Interactions whose tokens have run out are of no use any more.
        now = time.monotonic()
        self._ephemeral = {
            u: v for u, v in self._ephemeral.items() if now - v[1] < EPHEMERAL_SECONDS
        }
        self._asked_notices = {
            u: v for u, v in self._asked_notices.items() if now - v[1] < EPHEMERAL_SECONDS
        }

    def _dms_closed(self, message: Outgoing) -> None:
        """Tell the channel (once per player and table) to use the "My hand" button."""
        assert message.user is not None
        self.closed_dms.add(message.user)
        if not message.chat or (message.chat, message.user) in self._told_closed:
            return
        self._told_closed.add((message.chat, message.user))
        text = t(
            self.language(message.chat),
            "{name}: your direct messages are closed, so press “My hand” to see your cards.",
            name=self.names(message.chat, message.user),
        )
        self.pace(Outgoing(Kind.GROUP, message.chat, text))


def picture_file(message: Outgoing, png: bytes) -> discord.File:
    name = "hand.png" if _is_hand(message) else f"{message.kind}.png"
    return discord.File(io.BytesIO(png), filename=name)


def _is_notice(message: Outgoing) -> bool:
    return (message.slot or "").startswith(NOTICE_SLOT)


def _is_hand(message: Outgoing) -> bool:
    return (message.slot or "").startswith("hand")


def live_quick_table_message(message: Outgoing) -> bool:
    """A quick table's trick message still going on (a closed trick's last words are final:
    they take no "Open table")."""
    return quick_table_message(message) and not message.final


def quick_table_message(message: Outgoing) -> bool:
    """A quick table's message as one of its players gets it in their DM: it stands for the
    channel's table message, which a quick table has none of (`QuickRoom.fan_out`: one private
    message per trick, in the slot ``quick <chat> <trick>``)."""
    return is_quick(message.chat) and (message.slot or "").startswith(QUICK_NARRATION)

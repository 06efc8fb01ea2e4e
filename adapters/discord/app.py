"""The Discord adapter: an `AutoShardedClient` with slash commands and dynamic components
over the table host. One table per text channel (a thread is a channel of its own).

Rate limits are discord.py's; the host's pacing keeps channel calls few.

- Discord gives an interaction 3 s for its first response: an answer not ready within
  `DEFER_AFTER` (a busy table, a slow /export) is deferred and sent as a follow-up.
- Every failure while handling an interaction is logged and answered with a short sentence.
- A click acts on the table of the channel its message is in; in DMs only on the presser's
  own hand (`bot.commands.registry.PRESSED_IN_PRIVATE`) at a table where they sit — never on a
  channel merely named in its ``custom_id``, which anyone can forge.
- Each interaction is handled once: its commands carry its id (`bot.reading.command.Delivery`),
  which the table manager checks under the chat's lock and stores with the step it causes, in
  the database every process shares; a copy delivered again (a resumed gateway session) is
  dropped unanswered, as Telegram's adapter drops a re-sent update.
- Nothing the bot writes mentions anyone (player names are user text); the gateway intents
  are the fewest that work (guilds only: no message content, no members).
- The slash commands are synced only when their definition changed (a hash kept in the
  database), so restarts do not spend Discord's daily command-update allowance.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from adapters.discord.client import CardClient, DiscordSettings
from adapters.discord.components import (
    build_view,
    channel_key,
    user_key,
    with_page_links,
)
from adapters.discord.interaction_facts import channel_title, moderates, text_file
from adapters.discord.outbox import DiscordOutbox, Origin, picture_file
from adapters.discord.slash import build_commands
from adapters.message_parts import draw
from adapters.startup import StartupError, scrubbed
from adapters.web.door import WebDoor
from bot.commands.registry import (
    ASKS_ALERTS,
    PRESSED_IN_PRIVATE,
    PRESSED_WHERE_SHOWN,
    SEATS_PLAYER,
    SHOWS_HAND,
)
from bot.community.quick_seating import is_quick
from bot.hosting.manager import TableManager
from bot.i18n import normalize_language, t
from bot.reading.command import Command, Delivery
from storage import Database

log = logging.getLogger(__name__)
DEFER_AFTER = 1.5
"""Seconds an interaction's answer may take before it is deferred (Discord allows 3)."""
THINKING = discord.InteractionResponseType.deferred_channel_message
COMMANDS_HASH = "discord.commands_hash"
"""The meta key of the hash of the slash commands last synced."""


class DiscordAdapter:
    def __init__(
        self,
        manager: TableManager,
        settings: DiscordSettings,
        language: str,
        *,
        db: Database | None = None,
        pace_speed: float = 1.0,
        web: WebDoor | None = None,
        defer_after: float = DEFER_AFTER,
        **client_options: Any,
    ) -> None:
        self.manager = manager
        self.db = db
        """Where the synced commands' hash is kept (None: sync on every start)."""
        self.settings = settings
        self.defer_after = defer_after
        self.answering: set[int] = set()
        """The interactions being handled (their final answer is still to come)."""
        self.language = language
        if settings.shard_ids is not None:
            client_options.setdefault("shard_ids", list(settings.shard_ids))
            client_options.setdefault("shard_count", settings.shard_count)
        self.client = CardClient(self, **client_options)
        self.outbox = DiscordOutbox(
            self.client,
            manager.name_at,
            manager.language_at,
            pace_speed=pace_speed,
            has_table=manager.has_table,
            web_served=web is not None,
            reader_language=manager.reader_language,
        )
        self.web = web
        """The web table's door (``WEB_PUBLIC_URL``): "Open table" answers with a link."""
        build_commands(self.client.tree, self.on_slash, self.suggest)
        self._task: asyncio.Task[None] | None = None
        self.duplicates = 0
        """Interactions dropped as delivered before (for the logs and tests)."""

    # ----------------------------------------------------------------- life

    async def start(self) -> None:
        """Log in and connect; `StartupError` (token never in it) when Discord rejects the
        token or cannot be reached."""
        try:
            await self.client.login(self.settings.token)
        except discord.LoginFailure as error:
            raise StartupError("Discord rejected the bot token (DISCORD_BOT_TOKEN).") from error
        except (discord.HTTPException, OSError) as error:
            reason = scrubbed(str(error), self.settings.token)
            raise StartupError(f"Discord cannot be reached: {reason}") from error
        self._task = asyncio.create_task(self.client.connect(reconnect=True))
        await self.client.wait_until_ready()

    def connection(self) -> dict[str, Any]:
        """For ``/healthz``: whether the gateway is connected, and each shard of this
        process."""
        client = self.client
        shards = {str(number): not shard.is_closed() for number, shard in client.shards.items()}
        connected = client.is_ready() and not client.is_closed() and all(shards.values())
        return {"connected": connected, "shards": shards}

    async def sync_commands(self) -> None:
        """Sync the slash commands with Discord unless they are the ones synced last."""
        tree = self.client.tree
        translator = tree.translator
        assert translator is not None
        payload = [await c.get_translated_payload(tree, translator) for c in tree.get_commands()]
        definition = json.dumps([self.client.application_id, payload], sort_keys=True)
        digest = hashlib.sha256(definition.encode()).hexdigest()
        if self.db is not None and await self.db.meta(COMMANDS_HASH) == digest:
            log.info("slash commands unchanged: not synced")
            return
        await tree.sync()
        if self.db is not None:
            await self.db.set_meta(COMMANDS_HASH, digest)

    async def stop(self) -> None:
        await self.outbox.close()
        await self.client.close()
        if self._task is not None:
            try:
                await self._task
            except Exception:  # closing: how the connection ended no longer matters
                log.debug("the gateway task ended with an error", exc_info=True)

    # ----------------------------------------------------------------- inbound

    def _table_chat(self, interaction: discord.Interaction[Any], user: str) -> str:
        """What completing /play refers to: the channel's table; in DMs the player's."""
        here = channel_key(interaction.channel_id or 0)
        if interaction.guild_id is None:
            return self.manager.table_of(user) or here
        return here

    async def on_slash(
        self, interaction: discord.Interaction[Any], name: str, args: list[str]
    ) -> None:
        """A slash command acts at its channel's table; in DMs the host routes it to one of
        the player's tables (`bot.commands.private_chat`)."""
        user = user_key(interaction.user.id)
        chat = channel_key(interaction.channel_id or 0)
        command = Command(
            name,
            tuple(args),
            user,
            interaction.user.display_name,
            chat,
            interaction.guild_id is None,
            str(interaction.locale),
            admin=moderates(interaction),
            chat_title=channel_title(interaction),
            delivery=Delivery("discord", str(interaction.id)),
        )
        origin = Origin(user, interaction, on_own_hand=False, wants_hand=name in SHOWS_HAND)
        if name in ASKS_ALERTS and interaction.guild_id is not None:
            self.outbox.remember_notify(user, interaction)
        await self._run(origin, [command])

    async def on_press(
        self, interaction: discord.Interaction[Any], chat: str, stamp: str, texts: list[str]
    ) -> None:
        user = user_key(interaction.user.id)
        name, private = interaction.user.display_name, interaction.guild_id is None
        locale = str(interaction.locale)
        if not self._may_press(interaction, chat, user, texts):
            lang = normalize_language(locale) or self.language
            await interaction.response.send_message(
                t(lang, "That button is not valid."), ephemeral=True
            )
            return
        commands = []
        for number, text in enumerate(texts):
            words = text.split()
            delivery = Delivery("discord", f"{interaction.id}#{number}")
            command = Command(
                words[0][1:],
                tuple(words[1:]),
                user,
                name,
                chat,
                private,
                locale,
                stamp,
                admin=moderates(interaction),
                chat_title=channel_title(interaction),
                delivery=delivery,
            )
            commands.append(command)
        flags = interaction.message.flags if interaction.message is not None else None
        on_own_hand = interaction.guild_id is None or bool(flags and flags.ephemeral)
        wants_hand = on_own_hand or any(c.name in SHOWS_HAND for c in commands)
        origin = Origin(user, interaction, on_own_hand=on_own_hand, wants_hand=wants_hand)
        await self._run(origin, commands)

    async def open_web(self, interaction: discord.Interaction[Any], chat: str) -> None:
        """ "Open table": a link to the web table of ``chat``, signed for the presser alone
        and short-lived, answered so that only they see it — their seat's view, or the
        public view for a member of the channel who is not seated. Pressed elsewhere than
        in that channel (a forged id), it opens nothing. A quick table's is pressed in a
        player's DM (it has no channel): it opens their seat, and nothing for anyone else."""
        user = user_key(interaction.user.id)
        lang = normalize_language(str(interaction.locale)) or self.manager.language_at(chat)
        if interaction.guild_id is None and is_quick(chat):
            here = self.manager.seat_at(chat, user) is not None
        else:
            here = interaction.guild_id is not None and chat == channel_key(
                interaction.channel_id or 0
            )
        door = self.web
        if door is None or not here or not self.manager.has_table(chat):
            text = t(lang, "That button is not valid.")
            await interaction.response.send_message(text, ephemeral=True)
            return
        seat = self.manager.seat_at(chat, user)
        url = door.signed_page(user, chat, seat)
        link = discord.ui.View(timeout=None)
        link.add_item(discord.ui.Button(label=t(lang, "Open table"), url=url))
        minutes = round(door.link_seconds / 60)
        if seat is None:
            text = t(
                lang,
                "Your link to watch this table (for you alone, good for {minutes} minutes):",
                minutes=minutes,
            )
        else:
            text = t(
                lang,
                "Your link to your seat at this table (for you alone, good for {minutes} minutes):",
                minutes=minutes,
            )
        await interaction.response.send_message(text, view=link, ephemeral=True)

    def _may_press(
        self, interaction: discord.Interaction[Any], chat: str, user: str, texts: list[str]
    ) -> bool:
        """In a channel (or thread), a click acts on that channel's table; in DMs, only on
        the presser's own hand at an open table where they sit: it never joins, opens,
        starts or stops one."""
        if interaction.guild_id is not None:
            return chat == channel_key(interaction.channel_id or 0)
        names = {text.split()[0].removeprefix("/") for text in texts if text.split()}
        if names and names <= PRESSED_WHERE_SHOWN:  # Replay under a practice settlement
            return chat == channel_key(interaction.channel_id or 0)
        if names and names <= SEATS_PLAYER:  # a /notify message's Join, to its addressee alone
            return self.manager.invited(chat, user)
        return names <= PRESSED_IN_PRIVATE and self.manager.is_seated(chat, user)

    async def _run(self, origin: Origin, commands: list[Command]) -> None:
        self.answering.add(origin.interaction.id)
        try:
            handling = asyncio.ensure_future(self._handle(origin, commands))
            done, _ = await asyncio.wait({handling}, timeout=self.defer_after)
            if not done:
                await self._defer(origin)
            if await handling:
                await self._respond(origin)
            else:  # a copy: its first delivery was answered, and an interaction takes one
                self.duplicates += 1
                log.info("interaction %d was delivered before: dropped", origin.interaction.id)
        finally:
            self.answering.discard(origin.interaction.id)

    async def _handle(self, origin: Origin, commands: list[Command]) -> bool:
        """Handle an interaction's commands and send their answers; False when every one of
        them came before (`TableManager.handle_delivered`)."""
        fresh = False
        for command in commands:
            answers = await self.manager.handle_delivered(command)
            fresh = fresh or answers is not None
            for message in answers or []:
                await self.outbox(message, origin)
        return fresh

    async def _defer(self, origin: Origin) -> None:
        """The answer is slow: tell Discord it comes (a click on a message updates that
        message or nothing; the rest shows "thinking" to the user alone)."""
        interaction = origin.interaction
        component = interaction.type == discord.InteractionType.component
        try:
            if component and (origin.on_own_hand or not origin.wants_hand):
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        except discord.HTTPException as error:
            log.warning("deferring an interaction failed: %s", error)

    async def failed(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """Handling an interaction failed: log it, and tell the user in a short sentence."""
        log.error("handling an interaction failed", exc_info=error)
        lang = normalize_language(str(interaction.locale)) or self.language
        text = t(lang, "Something went wrong. Please try again.")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as answering:
            log.warning("telling the user about a failure failed: %s", answering)

    async def _respond(self, origin: Origin) -> None:
        """Every interaction gets exactly one response: the hand view it asked for, the
        answers to it (only the presser sees them), or a quiet acknowledgement — as a
        follow-up where the response was deferred."""
        interaction = origin.interaction
        try:
            await self._answer(origin)
        except discord.HTTPException as error:
            log.warning("answering an interaction failed: %s", error)
            return
        hand = origin.hand
        if hand is None:
            return
        if origin.user in self.outbox.closed_dms or not origin.on_own_hand:
            self.outbox.remember_ephemeral(origin.user, interaction)
        elif interaction.message is not None:
            self.outbox.remember_message(origin.user, hand, interaction.message.id)
            self.outbox.remember_picture(origin.user, hand, await draw(origin.user, hand))

    async def _hand_picture(self, origin: Origin) -> dict[str, Any]:
        """The hand's picture as an attachment of the answer (none if it cannot be drawn)."""
        assert origin.hand is not None
        png = await draw(origin.user, origin.hand)
        return {} if png is None else {"attachments": [picture_file(origin.hand, png)]}

    def _hand_text(self, origin: Origin) -> str:
        assert origin.hand is not None
        return "\n".join([*origin.alerts, origin.hand.text])[:2000]

    def _choice_view(self, origin: Origin) -> dict[str, Any]:
        """The buttons of an answer that offers choices (a button per table), if any, and
        its page links (a replay's), signed for the asker where the web table is served."""
        if origin.choices is None:
            return {}
        chat, rows = origin.choices.chat, origin.choices.buttons
        view = build_view(chat, rows)
        if (door := self.web) is not None:
            seat = self.manager.seat_at(chat, origin.user)
            view = with_page_links(
                view, rows, lambda path: door.signed_page_of_table(path, origin.user, chat, seat)
            )
        return {} if view is None else {"view": view}

    def _done_text(self, origin: Origin) -> str:
        lang = normalize_language(str(origin.interaction.locale)) or self.language
        return "\n".join(origin.alerts)[:2000] or t(lang, "Done.")

    async def _answer(self, origin: Origin) -> None:
        """The interaction's one response. Not yet responded to: a message to the user alone,
        or a click's own message edited. After `_defer`, the same as a follow-up: a deferred
        click edits its message (or adds an ephemeral answer); a "thinking" response is edited
        into the answer."""
        interaction = origin.interaction
        response = interaction.response
        send: Callable[..., Awaitable[Any]]
        edit: Callable[..., Awaitable[Any]]
        if response.is_done():
            deferred = True
            thinking = response.type == discord.InteractionResponseType.deferred_channel_message
            send, edit = interaction.followup.send, interaction.edit_original_response
        else:
            deferred = thinking = False
            send, edit = response.send_message, response.edit_message
        if origin.file is not None:
            if thinking:
                await edit(attachments=[text_file(origin.file)])
            else:
                await send(file=text_file(origin.file), ephemeral=True)
        elif origin.hand is not None:
            view = build_view(origin.hand.chat, origin.hand.buttons)
            text = self._hand_text(origin)
            picture = await self._hand_picture(origin)
            if thinking or origin.on_own_hand:
                await edit(content=text, view=view, **picture)
            else:
                files = {"files": picture["attachments"]} if picture else {}
                if view is not None:
                    files["view"] = view
                await send(text, ephemeral=True, **files)
        elif thinking:
            await edit(content=self._done_text(origin), **self._choice_view(origin))
        elif origin.alerts:
            await send(self._done_text(origin), ephemeral=True, **self._choice_view(origin))
        elif deferred:
            return  # a deferred click with nothing to say: the deferral was its answer
        elif interaction.type == discord.InteractionType.component:
            await response.defer()
        else:
            await send(self._done_text(origin), ephemeral=True)

    # ----------------------------------------------------------------- autocomplete

    def suggest(
        self, interaction: discord.Interaction[Any], what: str, typed: str
    ) -> list[tuple[str, str]]:
        """(shown, value) completions: presets, or the player's own plays or cards, shown as
        the hand shows them and matched on either."""
        if what == "preset":
            game = str(getattr(interaction.namespace, "game", "") or "")
            return [(n, n) for n in self.manager.presets(game) if n.startswith(typed)]
        user = user_key(interaction.user.id)
        chat = self._table_chat(interaction, user)
        plays = self.manager.suggestions(chat, user)
        return [
            (label, value)
            for label, value in plays
            if value.startswith(typed.upper()) or label.startswith(typed)
        ][:25]

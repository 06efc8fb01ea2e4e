"""The Discord adapter: an `AutoShardedClient` with slash commands and dynamic components
over the table host. One table per text channel (a thread is a channel of its own).

Rate limits are discord.py's; the host's pacing keeps channel calls few.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import discord
from discord import app_commands

from adapters.discord.components import (
    ChoiceMenu,
    CommandButton,
    build_view,
    channel_key,
    user_key,
)
from adapters.discord.outbox import DiscordOutbox, Origin
from adapters.discord.slash import CatalogueTranslator, build_commands
from bot.commands import Command
from bot.i18n import normalize_language, t
from bot.manager import TableManager

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class DiscordSettings:
    token: str
    sync_commands: bool = True

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> DiscordSettings | None:
        token = env.get("DISCORD_BOT_TOKEN")
        return cls(token=token) if token else None


class CardClient(discord.AutoShardedClient):
    """The client; component clicks reach the adapter through `handle_press`."""

    def __init__(self, adapter: DiscordAdapter, **options: Any) -> None:
        super().__init__(intents=discord.Intents.default(), **options)
        self.adapter = adapter
        self.tree: app_commands.CommandTree[Any] = app_commands.CommandTree(self)

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CommandButton, ChoiceMenu)
        await self.tree.set_translator(CatalogueTranslator())
        if self.adapter.settings.sync_commands:
            await self.tree.sync()

    async def handle_press(self, interaction: discord.Interaction[Any], chat: str, stamp: str,
                           commands: list[str]) -> None:  # fmt: skip
        await self.adapter.on_press(interaction, chat, stamp, commands)


class DiscordAdapter:
    def __init__(
        self, manager: TableManager, settings: DiscordSettings, language: str,
        *, pace_speed: float = 1.0, **client_options: Any,
    ) -> None:  # fmt: skip
        self.manager = manager
        self.settings = settings
        self.language = language
        self.client = CardClient(self, **client_options)
        self.outbox = DiscordOutbox(
            self.client, manager.name_at, manager.language_at, pace_speed=pace_speed
        )
        build_commands(self.client.tree, self.on_slash, self.suggest)
        self._task: asyncio.Task[None] | None = None

    # ----------------------------------------------------------------- life

    async def start(self) -> None:
        await self.client.login(self.settings.token)
        self._task = asyncio.create_task(self.client.connect(reconnect=True))
        await self.client.wait_until_ready()

    async def stop(self) -> None:
        await self.outbox.close()
        await self.client.close()
        if self._task is not None:
            try:
                await self._task
            except Exception:  # closing: how the connection ended no longer matters
                log.debug("the gateway task ended with an error", exc_info=True)

    # ----------------------------------------------------------------- inbound

    def _table_chat(self, interaction: discord.Interaction[Any], user: str, name: str) -> str:
        """Commands in a channel act at its table; in DMs at the player's table."""
        here = channel_key(interaction.channel_id or 0)
        if interaction.guild_id is None and name != "new":
            return self.manager.table_of(user) or here
        return here

    async def on_slash(self, interaction: discord.Interaction[Any], name: str,
                       args: list[str]) -> None:  # fmt: skip
        user = user_key(interaction.user.id)
        chat = self._table_chat(interaction, user, name)
        command = Command(name, tuple(args), user, interaction.user.display_name, chat,
                          interaction.guild_id is None, str(interaction.locale))  # fmt: skip
        origin = Origin(user, interaction, on_own_hand=False, wants_hand=name == "hand")
        await self._run(origin, [command])

    async def on_press(self, interaction: discord.Interaction[Any], chat: str, stamp: str,
                       texts: list[str]) -> None:  # fmt: skip
        user = user_key(interaction.user.id)
        name, private = interaction.user.display_name, interaction.guild_id is None
        locale = str(interaction.locale)
        commands = []
        for text in texts:
            words = text.split()
            command = Command(words[0][1:], tuple(words[1:]), user, name, chat, private, locale)
            commands.append(replace(command, stamp=stamp))
        flags = interaction.message.flags if interaction.message is not None else None
        on_own_hand = interaction.guild_id is None or bool(flags and flags.ephemeral)
        wants_hand = on_own_hand or any(c.name == "hand" for c in commands)
        origin = Origin(user, interaction, on_own_hand=on_own_hand, wants_hand=wants_hand)
        await self._run(origin, commands)

    async def _run(self, origin: Origin, commands: list[Command]) -> None:
        for command in commands:
            for message in await self.manager.handle(command):
                await self.outbox(message, origin)
        await self._respond(origin)

    async def _respond(self, origin: Origin) -> None:
        """Every interaction gets exactly one response: the hand view it asked for, the
        answers to it (only the presser sees them), or a quiet acknowledgement."""
        interaction = origin.interaction
        lang = normalize_language(str(interaction.locale)) or self.language
        response = interaction.response
        try:
            if origin.file is not None:
                data = io.BytesIO(origin.file.text.encode())
                file = discord.File(data, filename=origin.file.filename)
                await response.send_message(file=file, ephemeral=True)
            elif origin.hand is not None:
                view = build_view(origin.hand.chat, origin.hand.buttons)
                text = "\n".join([*origin.alerts, origin.hand.text])[:2000]
                if origin.on_own_hand:
                    await response.edit_message(content=text, view=view)
                elif view is not None:
                    await response.send_message(text, view=view, ephemeral=True)
                else:
                    await response.send_message(text, ephemeral=True)
                if origin.user in self.outbox.closed_dms or not origin.on_own_hand:
                    self.outbox.remember_ephemeral(origin.user, interaction)
                elif interaction.message is not None:
                    self.outbox.remember_message(origin.user, origin.hand, interaction.message.id)
            elif origin.alerts:
                await response.send_message("\n".join(origin.alerts)[:2000], ephemeral=True)
            elif interaction.type == discord.InteractionType.component:
                await response.defer()
            else:
                await response.send_message(t(lang, "Done."), ephemeral=True)
        except discord.HTTPException as error:
            log.warning("answering an interaction failed: %s", error)

    # ----------------------------------------------------------------- autocomplete

    def suggest(self, interaction: discord.Interaction[Any], what: str, typed: str) -> list[str]:
        if what == "preset":
            game = str(getattr(interaction.namespace, "game", "") or "")
            return [n for n in self.manager.presets(game) if n.startswith(typed)]
        user = user_key(interaction.user.id)
        chat = self._table_chat(interaction, user, "play")
        plays = self.manager.suggestions(chat, user)
        return [p for p in dict.fromkeys(plays) if p.startswith(typed.upper())][:25]

"""The discord.py client this adapter runs, sharded as Discord recommends, with the command
tree and the dynamic components (buttons, menus, the web table's link); it hands every
interaction to its owner (`ClientOwner`: the adapter). And the adapter's settings."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands

from adapters.discord.components import (
    ChoiceMenu,
    CommandButton,
    WebTableButton,
)
from adapters.discord.slash import CatalogueTranslator
from bot.ops.config import Settings


class ClientOwner(Protocol):
    """What the client asks of the adapter that runs it."""

    settings: DiscordSettings

    async def sync_commands(self) -> None: ...

    async def on_press(
        self, interaction: discord.Interaction[Any], chat: str, stamp: str, commands: list[str]
    ) -> None: ...

    async def open_web(self, interaction: discord.Interaction[Any], chat: str) -> None: ...

    async def failed(self, interaction: discord.Interaction[Any], error: BaseException) -> None: ...


@dataclass(frozen=True)
class DiscordSettings:
    token: str
    sync_commands: bool = True
    shard_ids: tuple[int, ...] | None = None
    """The shards this process connects (None: all of them, as Discord recommends)."""
    shard_count: int | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> DiscordSettings | None:
        """Discord's part of the checked settings (`bot.ops.config`); None without a token."""
        token = settings["DISCORD_BOT_TOKEN"]
        if not token:
            return None
        shards = settings["DISCORD_SHARDS"]
        if shards is None:
            return cls(token=token)
        shard_ids, shard_count = shards
        return cls(token=token, shard_ids=shard_ids, shard_count=shard_count)


class CardClient(discord.AutoShardedClient):
    """The client; component clicks reach the adapter through `handle_press`."""

    def __init__(self, adapter: ClientOwner, **options: Any) -> None:
        intents = discord.Intents.none()
        intents.guilds = True
        options.setdefault("allowed_mentions", discord.AllowedMentions.none())
        super().__init__(intents=intents, **options)
        self.adapter = adapter
        self.tree: app_commands.CommandTree[Any] = app_commands.CommandTree(self)
        self.tree.error(self._on_command_error)  # discord.py's way to set the tree's handler

    async def setup_hook(self) -> None:
        self.add_dynamic_items(CommandButton, ChoiceMenu, WebTableButton)
        await self.tree.set_translator(CatalogueTranslator())
        if self.adapter.settings.sync_commands:
            await self.adapter.sync_commands()

    async def handle_press(
        self, interaction: discord.Interaction[Any], chat: str, stamp: str, commands: list[str]
    ) -> None:
        try:
            await self.adapter.on_press(interaction, chat, stamp, commands)
        except Exception as error:
            await self.adapter.failed(interaction, error)

    async def open_web(self, interaction: discord.Interaction[Any], chat: str) -> None:
        try:
            await self.adapter.open_web(interaction, chat)
        except Exception as error:
            await self.adapter.failed(interaction, error)

    async def _on_command_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        await self.adapter.failed(interaction, error)

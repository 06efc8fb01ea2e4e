"""What an interaction says of where it came from: whether the member moderates the channel (may act
as any table's host) and the channel's name as players know it; and a text file as Discord sends
it."""

from __future__ import annotations

import io
from typing import Any

import discord

from bot.views.outgoing import Outgoing


def text_file(message: Outgoing) -> discord.File:
    return discord.File(io.BytesIO(message.text.encode()), filename=message.filename)


def moderates(interaction: discord.Interaction[Any]) -> bool:
    """Whether the member may act as any table's host in this channel: Manage Server or
    Manage Channels, as Discord resolves them for the channel (as a Telegram group's
    administrators may). Never in DMs."""
    if interaction.guild_id is None:
        return False
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.manage_channels


def channel_title(interaction: discord.Interaction[Any]) -> str | None:
    """A guild channel's name as players know it (``Server #channel``); None in DMs."""
    if interaction.guild_id is None:
        return None
    channel = getattr(getattr(interaction, "channel", None), "name", None)
    guild = interaction.guild.name if interaction.guild is not None else None
    parts = [part for part in (guild, f"#{channel}" if channel else None) if part]
    return " ".join(parts) or None

"""Neutral buttons as Discord components, and clicks back as text commands.

Discord allows 5 rows of 5 buttons, or a select menu (≤ 25 options) per row, so the neutral
rows are laid out anew: cards to choose (二七王) become select menus split by suit with trumps
first, a 四团 rank's count choice and long bid lists become menus, the rest stay buttons.

Every component is a `DynamicItem`: its ``custom_id`` carries the table's channel, the stamp
and the command (buttons) or the kind of choice (menus, whose options carry the commands), so
clicks are understood after a restart without any view kept in memory.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import discord

from bot.community.quick_seating import is_quick
from bot.views.outgoing import Button

ROWS = 5
PER_ROW = 5
MENU_OPTIONS = 25
LABEL_LIMIT = 80
PLACEHOLDER_LIMIT = 150
PREFIX = "dc:"

Press = Callable[[discord.Interaction[Any], str, str, list[str]], Awaitable[None]]
"""(interaction, table chat, stamp, commands) → handled."""


def channel_key(channel_id: int) -> str:
    return f"{PREFIX}{channel_id}"


def user_key(user_id: int) -> str:
    return f"{PREFIX}u{user_id}"


def channel_id_of(key: str) -> int:
    return int(key.removeprefix(PREFIX))


CHAT_PART = r"(?P<chat>\d+|q:[0-9a-f]+)"
"""A component's table in its ``custom_id``: a channel's id, or a quick table's chat, which
is no channel's (`bot.hosting.quick_room`: its controls come in a player's DM)."""


def chat_part(chat: str) -> str:
    """``dc:123`` → ``123``; a quick table's chat as it is."""
    return chat if is_quick(chat) else str(channel_id_of(chat))


def chat_of(part: str) -> str:
    """The table's chat a component's ``custom_id`` names (`chat_part` back)."""
    return part if is_quick(part) else channel_key(int(part))


class CommandButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"cb\|" + CHAT_PART + r"\|(?P<stamp>[\w.]*)\|(?P<command>/.+)",
):
    def __init__(self, chat: str, button: Button) -> None:
        custom_id = f"cb|{chat}|{button.stamp}|{button.command}"
        super().__init__(
            discord.ui.Button(
                label=button.label[:LABEL_LIMIT],
                custom_id=custom_id[:100],
                style=discord.ButtonStyle.secondary,
            )
        )
        self.chat, self.stamp, self.command = chat, button.stamp, button.command

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> CommandButton:
        made = cls(match["chat"], Button("", match["command"], match["stamp"]))
        return made

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.client.handle_press(
            interaction, chat_of(self.chat), self.stamp, [self.command]
        )


class ChoiceMenu(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"sel\|" + CHAT_PART + r"\|(?P<stamp>[\w.]*)\|(?P<kind>[\w:]+)",
):
    """A menu of neutral buttons of one set; every chosen option is pressed in turn."""

    def __init__(
        self,
        chat: str,
        stamp: str,
        kind: str,
        buttons: list[Button] | None = None,
        many: bool = False,
    ) -> None:
        options = [
            discord.SelectOption(label=b.label[:LABEL_LIMIT], value=f"{i}:{b.command}")
            for i, b in enumerate(buttons or [])
        ] or [discord.SelectOption(label="-", value="0:/hand")]
        super().__init__(
            discord.ui.Select(
                custom_id=f"sel|{chat}|{stamp}|{kind}",
                placeholder=_preview([b.label for b in buttons or []]) or None,
                options=options,
                min_values=1,
                max_values=len(options) if many else 1,
            )
        )
        self.chat, self.stamp = chat, stamp

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> ChoiceMenu:
        return cls(match["chat"], match["stamp"], match["kind"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values", [])]
        commands = [v.split(":", 1)[1] for v in values if ":" in v]
        await interaction.client.handle_press(interaction, chat_of(self.chat), self.stamp, commands)


class WebTableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"web\|" + CHAT_PART,
):
    """ "Open table" under a channel's table: the presser is answered, privately, with a
    link to the web table signed for them (their seat, or the public view)."""

    def __init__(self, chat: str, label: str = "Open table") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:LABEL_LIMIT],
                custom_id=f"web|{chat}",
                style=discord.ButtonStyle.primary,
            )
        )
        self.chat = chat

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> WebTableButton:
        return cls(match["chat"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.client.open_web(interaction, chat_of(self.chat))


def with_web_button(view: discord.ui.View | None, chat: str, label: str) -> discord.ui.View:
    """``view`` (or a new one) with "Open table" in its first free place; a view whose five
    rows are full keeps its own buttons (the table's controls come first)."""
    view = view or discord.ui.View(timeout=None)
    with contextlib.suppress(ValueError):  # no room left
        view.add_item(WebTableButton(chat_part(chat), label))
    return view


def with_page_links(
    view: discord.ui.View | None, rows: tuple[tuple[Button, ...], ...], link: Callable[[str], str]
) -> discord.ui.View | None:
    """``view`` with a link button for each of the bot's relative page links (``/replay?…``),
    made whole by ``link`` (the web door's, signed for the asker)."""
    pages = [b for row in rows for b in row if b.url and b.url.startswith("/")]
    if pages:
        view = view or discord.ui.View(timeout=None)
        for button in pages:
            with contextlib.suppress(ValueError):  # no room left
                view.add_item(discord.ui.Button(label=button.label, url=link(button.url or "")))
    return view


def build_view(chat: str, rows: tuple[tuple[Button, ...], ...]) -> discord.ui.View | None:
    """The neutral rows laid out within Discord's 5 rows."""
    buttons = [b for row in rows for b in row]
    if not buttons:
        return None
    channel = chat_part(chat)
    view = discord.ui.View(timeout=None)
    for item in layout(channel, buttons):
        view.add_item(item)
    return view


def layout(channel: str, buttons: list[Button]) -> list[discord.ui.Item[Any]]:
    menus: list[tuple[str, list[Button], bool]] = []
    plain: list[Button] = []
    cards: dict[str, list[Button]] = {}
    for button in buttons:
        if button.url is not None:
            continue
        if button.group.startswith("card:"):
            cards.setdefault(button.group, []).append(button)
        elif button.group == "count":
            _append(menus, "count", button)
        else:
            plain.append(button)
    card_menus = _card_menus(cards)
    bids = [b for b in plain if b.group == "bid"]
    if len(bids) > PER_ROW:
        plain = [b for b in plain if b.group != "bid"]
        menus.append(("bid", bids, False))
    ranks = [b for b in plain if b.group == "rank"]
    if len(card_menus) + len(menus) + _button_rows(plain) > ROWS and ranks:
        plain = [b for b in plain if b.group != "rank"]
        menus.insert(0, ("rank", ranks, False))
    while len(card_menus) > 1 and len(card_menus) + len(menus) + _button_rows(plain) > ROWS:
        card_menus = _merge_smallest(card_menus)
    items: list[discord.ui.Item[Any]] = []
    row = 0
    for kind, members, many in [*card_menus, *menus]:
        stamp = members[0].stamp
        items.append(ChoiceMenu(channel, stamp, kind, members[:MENU_OPTIONS], many))
        items[-1].row = row
        row += 1
    for start in range(0, len(plain), PER_ROW):
        if row >= ROWS:
            break
        for button in plain[start : start + PER_ROW]:
            item = CommandButton(chat_part(button.chat) if button.chat else channel, button)
            item.row = row
            items.append(item)
        row += 1
    return items


def _append(menus: list[tuple[str, list[Button], bool]], kind: str, button: Button) -> None:
    for name, members, _ in menus:
        if name == kind:
            members.append(button)
            return
    menus.append((kind, [button], False))


def _card_menus(cards: dict[str, list[Button]]) -> list[tuple[str, list[Button], bool]]:
    """One menu per suit (trumps first, as the neutral rows come), each copy of a card its
    own option, named as one card (a button's ``♠A×2`` is two options ``♠A``); a suit longer
    than 25 copies takes two menus."""
    menus = []
    for group, members in cards.items():
        copies = []
        for b in members:
            if b.label.rstrip("]").endswith("×2"):
                one = replace(b, label=b.label.replace("×2", "", 1))
                copies += [one, one]
            else:
                copies.append(b)
        for start in range(0, len(copies), MENU_OPTIONS):
            kind = group.replace(":", "") + str(start // MENU_OPTIONS)
            menus.append((kind, copies[start : start + MENU_OPTIONS], True))
    return menus


def _merge_smallest(
    menus: list[tuple[str, list[Button], bool]],
) -> list[tuple[str, list[Button], bool]]:
    best = min(range(len(menus) - 1), key=lambda i: len(menus[i][1]) + len(menus[i + 1][1]))
    if len(menus[best][1]) + len(menus[best + 1][1]) > MENU_OPTIONS:
        return menus[:-1]  # cannot merge without overflowing: the last suit waits
    merged = (menus[best][0] + menus[best + 1][0], menus[best][1] + menus[best + 1][1], True)
    return [*menus[:best], merged, *menus[best + 2 :]]


def _preview(labels: list[str]) -> str:
    """A closed menu's text: its first options, in the players' own words (the labels are
    already in the table's language) — "120 · 115 · 110 …", "♠A · ♠A · ♠K …" — rather than
    Discord's bare "Make a selection"."""
    shown = ""
    for label in labels:
        longer = f"{shown} · {label}" if shown else label
        if len(longer) > PLACEHOLDER_LIMIT - 2:
            return shown + " …"
        shown = longer
    return shown


def _button_rows(buttons: list[Button]) -> int:
    return -(-len(buttons) // PER_ROW)

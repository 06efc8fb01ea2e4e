"""The console prints what a group would read, once: a post edited only to take its buttons
off (the lobby's once the match starts, a settlement's Ready once the next hand is dealt) is
not printed a second time — the console shows no buttons, so nothing changed for its reader."""

from __future__ import annotations

from dataclasses import replace

from adapters.console_printer import ConsolePrinter
from bot.views.outgoing import Button, Kind, Outgoing

LOBBY = Outgoing(
    Kind.GROUP,
    "console",
    "玩家 开了一桌四团。",
    buttons=((Button("入座", "/join", ""),),),
    slot="post lobby",
)


async def test_a_post_retired_without_its_buttons_is_not_printed_again():
    lines: list[str] = []
    printer = ConsolePrinter("zh-Hans", write=lines.append)
    await printer(LOBBY)
    printed = len(lines)
    await printer(replace(LOBBY, buttons=()))
    assert printed >= 1 and len(lines) == printed


async def test_a_post_whose_words_change_is_printed_again():
    lines: list[str] = []
    printer = ConsolePrinter("zh-Hans", write=lines.append)
    await printer(LOBBY)
    await printer(replace(LOBBY, text="玩家 开了一桌四团。Bob 坐在 2 号座位。", buttons=()))
    assert any("Bob 坐在 2 号座位" in line for line in lines)


async def test_posts_without_a_slot_are_each_printed():
    lines: list[str] = []
    printer = ConsolePrinter("zh-Hans", write=lines.append)
    said = Outgoing(Kind.GROUP, "console", "第 1 局发牌了。")
    await printer(said)
    await printer(said)
    assert sum("第 1 局发牌了" in line for line in lines) == 2

"""Issue 49, item 3: a post that ends a phase never shows that phase open. The host hands a
step's messages to the outbox one after the other — 二七王's "叫分结束：…" before the table
state with the auction closed — and the group's pacer must not release the post, as the
header of the live table, before that state is in: the post would sit above the auction
still open ("轮到：电脑 3")."""

from __future__ import annotations

import asyncio
from typing import Any

from adapters.pacing import SLOT
from bot.views.outgoing import Button, Kind, Outgoing
from tests.live_table import AUCTION_OVER, BIDS_OPEN, TURN_LINE, GroupCall, GroupView
from tests.waiting import eventually

HAND = Button("我的手牌", "/hand", "t1.1")
OPEN = "二七王 · 第 1 局\n叫分：电脑 3 120 · 电脑 4 不叫\n轮到：Ann"
OVER = "叫分结束：电脑 3 120 · 电脑 4 不叫 · Ann 不叫 · Bob 不叫。"
CLOSED = "二七王 · 第 1 局\n庄家 电脑 3，叫 120 分\n轮到：电脑 3"


def state(chat: str, text: str) -> Outgoing:
    return Outgoing(Kind.TABLE, chat, text, buttons=((HAND,),), slot="table t1.1")


async def end_the_auction(outbox: Any, chat: str) -> None:
    """The auction open is shown; once the group's slot is free, one step of the table says
    the auction is over and shows the state after it, as the host sends a step."""

    async def sent() -> None:
        await eventually(lambda: outbox.paced_out() and outbox.idle(), 10.0, 0.01, "sent")

    await outbox(state(chat, OPEN))
    await sent()
    await asyncio.sleep(2 * SLOT / outbox.pace_speed)  # the next slot is free (at least)
    await outbox(Outgoing(Kind.GROUP, chat, OVER))  # no await between: one step
    await outbox(state(chat, CLOSED))
    await sent()


def auction_over_above_it_open(calls: list[GroupCall]) -> str | None:
    """After each call, a message showing the auction's end above the auction open."""
    view = GroupView()
    for index, call in enumerate(calls):
        view.apply(call)
        for shown in view.shown.values():
            text = shown.text
            if AUCTION_OVER.search(text) and BIDS_OPEN.search(text) and TURN_LINE.search(text):
                return f"after call {index}: {text!r}"
    return None

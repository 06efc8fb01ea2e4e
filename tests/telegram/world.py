"""The real Telegram adapter (python-telegram-bot `Application`) against the fake Bot API,
over a real table manager on a SQLite file, with helpers that act like Telegram users."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from telegram import Update
from telegram.ext import TypeHandler

from adapters.telegram.app import TelegramAdapter, TelegramSettings
from adapters.telegram.keyboards import chat_key
from adapters.telegram.request import GROUP_CALLS
from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from adapters.web.server import WebTable
from bot.hosting.manager import TableManager
from engine.situan.combos import RANKS
from storage import Database
from tests.telegram.fake_bot_api import FakeBotAPI, callback_update, text_update, user
from tests.waiting import eventually

GROUP = -100500
TOKEN = "123:TEST"
PLAYERS = {11: "Ann", 12: "Bob", 13: "Cai", 14: "Dee"}
PACE_SPEED = 30.0
"""Pacing time runs 30× faster than the wall clock here: the one-minute group budget takes
2 s, a 3 s slot 0.1 s."""
TIMER_STEP = 0.005
"""How often the world's tables look at their timers: a test that moves the tables' clock
sees the step it is waiting for within 5 ms (at 0.02 s a hand of moved clocks took twice as
long); one table's timer pass costs microseconds."""


class TelegramWorld:
    def __init__(self, api: FakeBotAPI, adapter: TelegramAdapter, db: Database) -> None:
        self.api = api
        self.adapter = adapter
        self.db = db
        self.manager: TableManager = adapter.manager
        self._queries = itertools.count(1)
        self._stop = asyncio.Event()
        self._timers: asyncio.Task[None] | None = None
        self.press_latencies: list[float] = []
        self.web_runner: Any = None
        self.web_base = ""
        """The web table's address (``open(web=True)``)."""
        self.handled: set[int] = set()

    async def _handled(self, update: Update, context: Any) -> None:
        self.handled.add(update.update_id)

    @classmethod
    async def open(
        cls,
        db_path: str,
        never_opened: set[int] = frozenset(),
        seed: int = 5,
        pace_speed: float = PACE_SPEED,
        clock: Callable[[], float] = time.time,
        web: bool = False,
    ) -> TelegramWorld:
        """``clock``: the tables' clock (turn timers, AI pauses); a test may drive it.
        ``web``: the web table served on 127.0.0.1 (as ``WEB_PUBLIC_URL`` makes it), its
        buttons on the hands and the group's table."""
        api = FakeBotAPI(never_opened=set(never_opened))
        base = await api.start()
        db = await Database.open(db_path)
        manager = TableManager(
            db,
            _unset,
            seeds=lambda n: seed * 1000 + n,
            clock=clock,
            flood_burst=10_000,
            flood_rate=10_000.0,
        )
        settings = TelegramSettings(token=TOKEN, base_url=base, poll_timeout=1)
        web_table = door = None
        if web:
            web_table = WebTable(manager, LinkSigner(match_of=manager.match_at), bot_token=TOKEN)
            runner, port = await web_table.serve("127.0.0.1", 0)
            door = WebDoor(f"http://127.0.0.1:{port}", web_table.signer)
        adapter = TelegramAdapter(manager, db, settings, "zh-Hans", pace_speed=pace_speed, web=door)
        if web_table is not None:
            web_table.may_watch = adapter.is_member
        manager.send = adapter.outbox
        world = cls(api, adapter, db)
        if web:
            world.web_runner, world.web_base = runner, door.base if door else ""
        # Runs after the adapter's own handlers (group 0) for every update: "handled".
        adapter.application.add_handler(TypeHandler(Update, world._handled), group=100)
        await adapter.start()
        await manager.restore()
        world._timers = asyncio.create_task(manager.run_timers(world._stop, step=TIMER_STEP))
        return world

    async def close(self) -> None:
        self._stop.set()
        if self._timers is not None:
            await self._timers
        await self.adapter.stop()
        if self.web_runner is not None:
            await self.web_runner.cleanup()
        await self.api.stop()
        await self.db.close()

    # ----------------------------------------------------------------- acting

    async def processed(self, update_id: int) -> None:
        """Wait until the bot has handled the update and written what it wanted to."""
        await eventually(lambda: update_id in self.handled, 5.0, 0.001, f"update {update_id}")
        await self.settle()

    async def settle(self) -> None:
        """Until every conversation's queue is sent (paced group calls may still wait)."""
        await eventually(self.adapter.outbox.idle, 10.0, 0.002, "an idle outbox")

    async def say(
        self, user_id: int, text: str, chat_id: int = GROUP, thread: int | None = None
    ) -> None:
        update_id = self.api.push(
            text_update(user(user_id, PLAYERS[user_id]), chat_id, text, thread)
        )
        await self.processed(update_id)

    async def press(self, user_id: int, message: dict[str, Any], command: str) -> dict[str, Any]:
        """Press the button of ``message`` whose command is ``command``; returns the call
        answering the press."""
        data = button_data(message, command)
        return await self.press_data(user_id, message, data)

    async def press_data(self, user_id: int, message: dict[str, Any], data: str) -> dict[str, Any]:
        query = str(next(self._queries))
        started = time.monotonic()
        before = len(self.api.calls)
        update_id = self.api.push(
            callback_update(user(user_id, PLAYERS[user_id]), message, data, query)
        )
        await self.processed(update_id)
        answers = self.api.calls_to("answerCallbackQuery", callback_query_id=query)
        assert answers, "every press is answered"
        edits = [
            c
            for c in self.api.calls[before:]
            if c.method in ("editMessageText", "editMessageCaption", "editMessageMedia")
            and str(c.params["chat_id"]) == str(user_id)
        ]
        if edits:
            self.press_latencies.append(edits[0].at - started)
        return answers[0].params

    # ----------------------------------------------------------------- looking

    def key(self, thread: int | None = None) -> str:
        return chat_key(GROUP, thread)

    def hand_message(self, user_id: int) -> dict[str, Any]:
        """The player's private hand message (the latest one with a keyboard)."""
        shown = [m for m in self.api.chat_messages(user_id) if _has_callbacks(m)]
        assert shown, f"no hand message for {user_id}"
        return shown[-1]

    def group_messages(self) -> list[dict[str, Any]]:
        return self.api.chat_messages(GROUP)

    def group_calls(self) -> list[Any]:
        """Every call that posts, edits or deletes in the group (photos and deletions too)."""
        return [
            c
            for c in self.api.calls
            if str(c.params.get("chat_id")) == str(GROUP) and c.method in GROUP_CALLS
        ]


async def _unset(message: Any) -> None:
    raise AssertionError("the adapter's outbox replaces this sender")


def _has_callbacks(message: dict[str, Any]) -> bool:
    markup = message.get("reply_markup") or {}
    return any("callback_data" in b for row in markup.get("inline_keyboard", []) for b in row)


def buttons_of(message: dict[str, Any]) -> list[dict[str, Any]]:
    markup = message.get("reply_markup") or {}
    return [b for row in markup.get("inline_keyboard", []) for b in row]


def button_data(message: dict[str, Any], command: str) -> str:
    for button in buttons_of(message):
        data = button.get("callback_data", "")
        if data.split("|")[-1] == command:
            return data
    raise AssertionError(
        f"no button {command!r} in {[b.get('callback_data') for b in buttons_of(message)]}"
    )


async def play_turn(world: TelegramWorld, key: str, by_text: bool = False) -> None:
    """Whoever is to act does something legal: by pressing buttons in their private hand
    message, or (``by_text``) by typing the command in the private chat."""
    table = world.manager.tables[key]
    hand = table.hand
    seat = hand.to_act
    seat_user = table.seats[seat].user
    user_id = int(seat_user.removeprefix("tg:u"))
    if by_text:
        await world.say(user_id, typed_move(table), chat_id=user_id)
        return
    for command in button_presses(table):
        message = world.hand_message(user_id)
        answer = await world.press(user_id, message, command)
        assert not answer.get("text"), answer  # nothing refused


def button_presses(table: Any) -> list[str]:
    hand = table.hand
    if table.game == "situan":
        if hand.phase == "show_pick":
            return ["/reveal me"]
        plays = hand.legal_plays()
        if hand.can_pass and len(hand.cards_of(hand.turn)) % 3 == 0:
            return ["/pass"]
        combo = plays[len(plays) // 2] if plays else None
        if combo is None:
            return ["/pass"]
        presses = []
        for rank, count in Counter(RANKS[r] for r in combo.ranks).items():
            presses += [f"/pick {rank}", f"/pick {rank} {count}"]
        return [*presses, "/go"]
    if hand.phase == "bidding":
        return (
            ["/pass"]
            if hand.may_pass_bidding() and hand.bids
            else [f"/bid {hand.allowed_bids()[-1]}"]
        )
    if hand.phase == "trump":
        return ["/trump H"]
    seat = hand.to_act
    cards = hand.hands[seat][:8] if hand.phase == "bury" else hand.legal_plays()[0]
    return [f"/pick {c.text}" for c in cards] + ["/go"]


def typed_move(table: Any) -> str:
    hand = table.hand
    if table.game == "situan":
        if hand.phase == "show_pick":
            return "/reveal me"
        plays = hand.legal_plays()
        if not plays:
            return "/pass"
        return "/play " + "".join(RANKS[r] for r in plays[0].ranks)
    if hand.phase == "bidding":
        return (
            "/pass" if hand.may_pass_bidding() and hand.bids else f"/bid {hand.allowed_bids()[-1]}"
        )
    if hand.phase == "trump":
        return "/trump S"
    if hand.phase == "bury":
        return "/bury " + " ".join(c.text for c in hand.hands[hand.to_act][:8])
    return "/play " + " ".join(c.text for c in hand.legal_plays()[0])


async def wait_for_group_message(world: TelegramWorld, command: str) -> dict[str, Any]:
    """The latest group message with a button sending ``command`` (waiting for the pacer)."""
    for _ in range(500):
        for message in reversed(world.group_messages()):
            if any(b.get("callback_data", "").endswith("|" + command) for b in buttons_of(message)):
                return message
        await asyncio.sleep(0.01)
    raise AssertionError(f"no group message with {command}")

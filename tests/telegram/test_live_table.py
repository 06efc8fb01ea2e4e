"""「A table a group enjoys」 through python-telegram-bot against the fake Bot API, for both
games: the live table is always the newest message of the group (posts become its header, the
copy above is cut down to its own header or deleted), nobody is left behind (a new private
message at each turn, a reminder and a mention before each time-out, 托管 explained), no
internal id is ever shown, one rank×count notation everywhere, and 二七王's auction is closed
for good once it ends.

The tables' clock is a `FakeClock` the test moves (turn time-outs, reminders, AI pauses);
the group's pacing runs on the event loop's clock, 30× faster (`tests.telegram.world`)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.bot.harness import FakeClock
from tests.live_table import (
    INTERNAL_ID,
    TITLE,
    GroupCall,
    a_triple_to_play,
    ai_move,
    assert_auction_posted_then_closed,
    assert_live_table_throughout,
    first_wrong,
    texts_of_buttons,
)
from tests.telegram.world import GROUP, TelegramWorld, buttons_of, typed_move
from tests.waiting import eventually

ANN = 11
GROUP_METHODS = ("sendMessage", "sendPhoto", "sendDocument", "editMessageText",
                 "editMessageCaption", "editMessageMedia", "deleteMessage")  # fmt: skip
WORDS = {
    "zh": {
        "notice": "「Card room」轮到你了（",
        "reminder": "「Card room」还在等你",
        "auto": "/auto off",
        "mention": "Ann：轮到你了，还剩 ",
    },
    "en": {
        "notice": "Your turn at Card room",
        "reminder": "Still your turn",
        "auto": "/auto off",
        "mention": "Ann: your turn, ",
    },
}


async def opened(tmp_path: Any, game: str, lang: str = "zh") -> tuple[TelegramWorld, FakeClock]:
    """Ann at a table with three AI players, the hand dealt; every message the fake stores
    remembers its id in the call that made it (``_id``)."""
    clock = FakeClock()
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), seed=8, clock=clock)
    store = world.api._store

    def remembering(chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
        message = store(chat_id, params)
        params["_id"] = message["message_id"]
        return message

    world.api._store = remembering  # type: ignore[method-assign]
    await world.say(ANN, "/start", chat_id=ANN)
    if lang == "en":
        await world.say(ANN, "/lang en", chat_id=ANN)
    await world.say(ANN, f"/new {game}")
    if lang == "en":
        await world.say(ANN, "/lang en")
    await world.say(ANN, "/settings max_hands 1")
    for _ in range(3):
        await world.say(ANN, "/addbot")
    await world.say(ANN, "/start")
    return world, clock


def text_of(call: Any) -> str:
    params = call.params
    media = params.get("media") if isinstance(params.get("media"), dict) else {}
    return str(params.get("text") or params.get("caption") or media.get("caption") or "")


def group_steps(world: TelegramWorld) -> list[GroupCall]:
    steps = []
    for call in world.api.calls:
        if call.method not in GROUP_METHODS or str(call.params.get("chat_id")) != str(GROUP):
            continue
        params = call.params
        if call.method == "deleteMessage":
            steps.append(GroupCall("delete", int(params["message_id"])))
            continue
        buttons = bool((params.get("reply_markup") or {}).get("inline_keyboard"))
        plain = call.method in ("sendMessage", "editMessageText")
        if call.method.startswith("send"):
            if "_id" in params:  # else refused
                steps.append(GroupCall("send", params["_id"], text_of(call), buttons, plain))
        else:
            steps.append(
                GroupCall("edit", int(params["message_id"]), text_of(call), buttons, plain)
            )
    return steps


def private_sends(world: TelegramWorld, user_id: int = ANN) -> list[str]:
    return [
        text_of(c) for c in world.api.calls if c.method == "sendMessage" and in_chat(c, user_id)
    ]


def in_chat(call: Any, chat_id: int) -> bool:
    return str(call.params.get("chat_id")) == str(chat_id)


def assert_no_internal_id(world: TelegramWorld) -> None:
    for call in world.api.calls:
        if call.method not in GROUP_METHODS:
            continue
        shown = (
            text_of(call)
            + "\n"
            + "\n".join(
                texts_of_buttons((call.params.get("reply_markup") or {}).get("inline_keyboard", []))
            )
        )
        assert not INTERNAL_ID.search(shown), (call.method, call.params.get("chat_id"), shown)


async def quiet(world: TelegramWorld) -> None:
    outbox = world.adapter.outbox
    await eventually(
        lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.005, "every group call made"
    )


async def to_reminder(world: TelegramWorld, table: Any, clock: FakeClock) -> None:
    """Move the tables' clock to the reminder of the person to act, and wait for its step."""
    assert table.reminder_at is not None
    clock.now = max(clock.now, table.reminder_at)
    await eventually(lambda: table.reminder_at is None, 5.0, 0.005, "the reminder")
    lock = world.manager.lock(table.chat)
    await eventually(lambda: not lock.locked(), 5.0, 0.002, "the reminder sent")
    await world.settle()


@pytest.mark.parametrize(
    ("game", "lang"), [("situan", "zh"), ("erqiwang", "zh"), ("erqiwang", "en")]
)
async def test_the_live_table_is_always_the_newest_message(tmp_path, game, lang):
    """A whole hand: Ann plays by typed commands, lets one turn run out (reminder, mention,
    time-out; 四团 puts her on 托管 and she comes back with /auto off)."""
    world, clock = await opened(tmp_path, game, lang)
    try:
        table = world.manager.tables[world.key()]
        ann_turns, auction_over_at, steps = 0, None, 0
        while table.state == "playing":
            steps += 1
            assert steps < 2000
            hand = table.hand
            if hand.auto[0] and hand.to_act != 0:
                clock.advance(1)
                await world.say(ANN, "/auto off", chat_id=ANN)
            elif table.waits_for_a_person() and table.turn_seat == 0:
                ann_turns += 1
                if ann_turns == 2:  # she is away this once: reminded, then timed out
                    await to_reminder(world, table, clock)
                    await ai_move(world, table, clock)
                else:
                    clock.advance(3)
                    await world.say(ANN, typed_move(table), chat_id=ANN)
            else:
                await ai_move(world, table, clock)
            if game == "erqiwang" and auction_over_at is None and table.hand.phase != "bidding":
                await world.settle()
                auction_over_at = len(world.api.calls)  # every private view of the step sent
        await quiet(world)
        assert ann_turns > 3
        assert_live_table_throughout(group_steps(world))
        assert_no_internal_id(world)
        if game == "erqiwang":
            assert auction_over_at is not None
            assert_auction_closed(world, auction_over_at)
    finally:
        await world.close()


def assert_auction_closed(world: TelegramWorld, auction_over_at: int) -> None:
    """The auction's end is posted before the first card shows, and after it no message
    shows the auction open (a bids line with a turn line, a bid prompt or bid buttons)."""
    assert_auction_posted_then_closed(
        [
            (i, text_of(c))
            for i, c in enumerate(world.api.calls)
            if c.method in GROUP_METHODS and in_chat(c, GROUP)
        ]
    )
    for call in world.api.calls[auction_over_at:]:
        if call.method in GROUP_METHODS and str(call.params.get("chat_id")) == str(ANN):
            text = text_of(call)
            labels = [b.get("callback_data", "") for b in buttons_of(call.params)]
            assert "/bid" not in text and "叫分：从" not in text, text
            assert not [d for d in labels if d.endswith(("/bid", "/pass")) or "|/bid " in d]


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_player_who_never_acts_is_called_at_every_turn(tmp_path, game):
    """Ann never acts: at each of her turns a new private message, a quarter of her time
    before it runs out a private reminder and a group line that mentions her; 四团 puts her
    on 托管 at her first time-out, 二七王 at her third, and she is told how to come back.
    (In 四团 she comes back with /auto off, then is away again.)"""
    world, clock = await opened(tmp_path, game)
    words = WORDS["zh"]
    try:
        table = world.manager.tables[world.key()]
        turns, timeouts, told, acted_at = 0, 0, 0, -1e9
        while table.state == "playing" and turns < 3:
            hand = table.hand
            if hand.auto[0] and hand.to_act != 0 and game == "situan":
                await world.say(ANN, "/auto off", chat_id=ANN)
                acted_at = clock.now
                clock.advance(6)  # away again, long enough to be called anew
                await ai_move(world, table, clock)
                continue
            if not (table.waits_for_a_person() and table.turn_seat == 0):
                await ai_move(world, table, clock)
                continue
            turns += 1
            await world.settle()
            called = [t for t in private_sends(world) if t.startswith(words["notice"])]
            expected_calls = turns - (clock.now - acted_at < 5)  # she acted a moment ago
            assert len(called) == expected_calls, private_sends(world)
            await to_reminder(world, table, clock)
            reminders = [t for t in private_sends(world) if t.startswith(words["reminder"])]
            assert len(reminders) == turns, private_sends(world)
            await eventually(
                lambda: len(mentions(world)) == turns,  # noqa: B023
                10.0,
                0.005,
                "the group's mention",
            )
            text, entities = mentions(world)[-1]
            assert text.startswith(words["mention"]), text
            assert entities == [
                {
                    "type": "text_mention",
                    "offset": 0,
                    "length": 3,
                    "user": {"id": ANN, "first_name": "Ann", "is_bot": False},
                }
            ]
            await ai_move(world, table, clock)  # her time runs out
            timeouts += 1
            await world.settle()
            on_auto = table.hand.auto[0]
            assert on_auto == (game == "situan" or timeouts >= 3), timeouts
            told = sum(words["auto"] in t and "托管" in t for t in private_sends(world))
            assert told == (timeouts if game == "situan" else max(0, timeouts - 2))
        assert turns == 3
        # Every new private message is one of these (and the greeting): no duplicates.
        sent = private_sends(world)
        assert (
            len(sent) == 1 + len([t for t in sent if t.startswith(words["notice"])]) + turns + told
        ), sent
        await quiet(world)
        wrong = first_wrong(group_steps(world))
        assert wrong is None, wrong
        assert_no_internal_id(world)
    finally:
        await world.close()


def mentions(world: TelegramWorld) -> list[tuple[str, list[dict[str, Any]]]]:
    """Group messages that mention someone: their text and entities."""
    found = []
    for call in world.api.calls:
        if call.method == "sendMessage" and str(call.params.get("chat_id")) == str(GROUP):
            entities = call.params.get("entities")
            if entities:
                found.append((text_of(call), json.loads(entities)))
    return found


async def test_one_notation_for_n_cards_of_a_rank(tmp_path):
    """四团: three 7s are ``7×3`` in the private hand's buttons, in the typed command and in
    the group's table, and the hand's ``7×5`` is the label of the 7s' button."""
    world, clock = await opened(tmp_path, "situan")
    try:
        table = world.manager.tables[world.key()]
        while not (table.waits_for_a_person() and table.turn_seat == 0):
            await ai_move(world, table, clock)
        rank, held = a_triple_to_play(table)
        shown = world.hand_message(ANN)
        tokens = shown["text"].split("\n")[0].split("：", 1)[1].split()
        assert f"{rank}×{held}" in tokens, tokens
        labels = [b["text"] for b in buttons_of(shown)]
        assert f"{rank}×{held}" in labels
        await world.press(ANN, shown, f"/pick {rank}")
        labels = [b["text"] for b in buttons_of(world.hand_message(ANN))]
        assert f"{rank}×3" in labels, labels
        clock.advance(2)
        await world.say(ANN, f"/play {rank}×3", chat_id=ANN)
        assert table.hand.history[-1].to_json()["seat"] == 0
        await quiet(world)
        table_text = next(
            text_of(c)
            for c in reversed(world.api.calls)
            if str(c.params.get("chat_id")) == str(GROUP) and TITLE.search(text_of(c))
        )
        assert f"Ann：{rank}×3" in table_text, table_text
        tokens = world.hand_message(ANN)["text"].split("\n")[0].split("：", 1)[1].split()
        assert (f"{rank}×{held - 3}" if held > 4 else rank) in tokens, tokens
    finally:
        await world.close()

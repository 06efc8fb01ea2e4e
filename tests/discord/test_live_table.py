"""「A table a group enjoys」 through discord.py against the fake gateway + REST server, for
both games: the live table is always the newest message of the channel (posts become its
header, the copy above is cut down to its own header or deleted), nobody is left behind (a new
direct message at each turn, a reminder and a mention of that member alone before each
time-out, 托管 explained), no internal id is ever shown, one rank×count notation everywhere,
and 二七王's auction is closed for good once it ends.

The tables' clock is a `FakeClock` the test moves; the channel's pacing runs on the event
loop's clock, 30× faster (`tests.discord.world`)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.harness import FakeClock
from tests.discord.fake_discord import CHANNEL_ID
from tests.discord.world import DiscordWorld
from tests.live_table import (
    INTERNAL_ID,
    TITLE,
    GroupCall,
    a_triple_to_play,
    ai_move,
    assert_auction_posted_then_closed,
    assert_live_table_throughout,
    first_wrong,
)
from tests.telegram.world import typed_move
from tests.waiting import eventually

ANN = "21"
NOTICE = "「Card room #cards」轮到你了（"
REMINDER = "「Card room #cards」还在等你"
TOLD_AUTO = "/auto off"


async def opened(tmp_path: Any, game: str) -> tuple[DiscordWorld, FakeClock]:
    """Ann at a table with three AI players, the hand dealt; every message the fake keeps
    remembers its id in the body of the call that made it (``_id``)."""
    clock = FakeClock()
    world = await DiscordWorld.open(str(tmp_path / "dc.sqlite3"), seed=8, clock=clock)
    make = world.fake._message

    def remembering(channel_id: str, body: dict[str, Any], flags: int = 0) -> dict[str, Any]:
        message = make(channel_id, body, flags)
        body["_id"] = message["id"]
        return message

    world.fake._message = remembering  # type: ignore[method-assign]
    await world.slash(ANN, "new", game=game)
    await world.slash(ANN, "settings", name="max_hands", value="1")
    for _ in range(3):
        await world.slash(ANN, "addbot")
    await world.slash(ANN, "start")
    return world, clock


def body_of(call: Any) -> dict[str, Any]:
    return call.body if isinstance(call.body, dict) else {}


def labels_of(components: list[dict[str, Any]]) -> list[str]:
    labels = []
    for row in components or []:
        for component in row.get("components", []):
            labels.append(str(component.get("label") or ""))
            labels += [str(o.get("label") or "") for o in component.get("options", [])]
    return labels


def channel_steps(world: DiscordWorld) -> list[GroupCall]:
    steps = []
    prefix = f"channels/{CHANNEL_ID}/messages"
    for call in world.fake.calls:
        if not call.path.startswith(prefix):
            continue
        body = body_of(call)
        if call.method == "DELETE":
            steps.append(GroupCall("delete", int(call.path.split("/")[-1])))
            continue
        if call.method == "POST" and "_id" in body:
            text, buttons = str(body.get("content") or ""), bool(body.get("components"))
            steps.append(GroupCall("send", int(body["_id"]), text, buttons, not body.get("_files")))
        elif call.method == "PATCH":
            message_id = int(call.path.split("/")[-1])
            # An edit without content keeps the text it had.
            kept = next((s.text for s in reversed(steps) if s.id == message_id), "")
            text = str(body["content"] or "") if "content" in body else kept
            steps.append(GroupCall("edit", message_id, text, bool(body.get("components"))))
    return steps


def dms(world: DiscordWorld, member: str = ANN) -> list[str]:
    """The new direct messages to ``member``."""
    dm = world.fake.dm_channels.get(member)
    return [
        str(body_of(c).get("content") or "")
        for c in world.fake.calls
        if c.method == "POST" and c.path == f"channels/{dm}/messages"
    ]


def assert_no_internal_id(world: DiscordWorld) -> None:
    for call in world.fake.calls:
        body = body_of(call)
        data = body.get("data") if isinstance(body.get("data"), dict) else {}
        for shown in (body, data):
            text = (
                str(shown.get("content") or "")
                + "\n"
                + "\n".join(labels_of(shown.get("components") or []))
            )
            assert not INTERNAL_ID.search(text), (call.method, call.path, text)


async def to_reminder(world: DiscordWorld, table: Any, clock: FakeClock) -> None:
    assert table.reminder_at is not None
    clock.now = max(clock.now, table.reminder_at)
    await eventually(lambda: table.reminder_at is None, 5.0, 0.005, "the reminder")
    lock = world.manager.lock(table.chat)
    await eventually(lambda: not lock.locked(), 5.0, 0.002, "the reminder sent")
    await world.settle()


async def quiet(world: DiscordWorld) -> None:
    outbox = world.adapter.outbox
    await eventually(
        lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.005, "every channel call made"
    )


async def slash_move(world: DiscordWorld, table: Any) -> None:
    """The move `typed_move` would type, as Ann's slash command in her DM."""
    name, _, rest = typed_move(table).removeprefix("/").partition(" ")
    field = {
        "play": "cards",
        "bury": "cards",
        "bid": "points",
        "trump": "suit",
        "reveal": "whose",
    }.get(name)
    options: dict[str, Any] = {}
    if field is not None:
        options[field] = int(rest) if name == "bid" else rest
    answer = await world.slash(ANN, name, channel_id=None, **options)
    assert answer, name


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_the_live_table_is_always_the_newest_message(tmp_path, game):
    """A whole hand: Ann plays by slash commands in her DM, lets one turn run out (reminder,
    mention, time-out; 四团 puts her on 托管 and she comes back with /auto off)."""
    world, clock = await opened(tmp_path, game)
    try:
        table = world.manager.tables[world.key()]
        ann_turns, auction_over_at, steps = 0, None, 0
        while table.state == "playing":
            steps += 1
            assert steps < 2000
            hand = table.hand
            if hand.auto[0] and hand.to_act != 0:
                clock.advance(1)
                await world.slash(ANN, "auto", channel_id=None, on=False)
            elif table.waits_for_a_person() and table.turn_seat == 0:
                ann_turns += 1
                if ann_turns == 2:
                    await to_reminder(world, table, clock)
                    await ai_move(world, table, clock)
                else:
                    clock.advance(3)
                    await slash_move(world, table)
            else:
                await ai_move(world, table, clock)
            if game == "erqiwang" and auction_over_at is None and table.hand.phase != "bidding":
                await world.settle()
                auction_over_at = len(world.fake.calls)
        await quiet(world)
        assert ann_turns > 3
        assert_live_table_throughout(channel_steps(world))
        assert_no_internal_id(world)
        if game == "erqiwang":
            assert auction_over_at is not None
            assert_auction_closed(world, auction_over_at)
    finally:
        await world.close()


def assert_auction_closed(world: DiscordWorld, auction_over_at: int) -> None:
    assert_auction_posted_then_closed(
        [
            (i, str(body_of(c).get("content") or ""))
            for i, c in enumerate(world.fake.calls)
            if c.path.startswith(f"channels/{CHANNEL_ID}/messages")
        ]
    )
    dm = world.fake.dm_channels[ANN]
    for call in world.fake.calls[auction_over_at:]:
        if call.path.startswith(f"channels/{dm}/messages"):
            body = body_of(call)
            assert "叫分：从" not in str(body.get("content") or ""), body.get("content")
            ids = [
                str(c.get("custom_id", ""))
                for row in body.get("components") or []
                for c in row.get("components", [])
            ]
            assert not [i for i in ids if "/bid" in i], ids


@pytest.mark.parametrize("game", ["situan", "erqiwang"])
async def test_a_player_who_never_acts_is_called_at_every_turn(tmp_path, game):
    """Ann never acts: at each of her turns a new direct message, before it runs out a
    reminder there and a channel line that mentions her (``<@21>``, allowed for her alone);
    四团 puts her on 托管 at her first time-out, 二七王 at her third, and she is told how to
    come back (四团: she does, with /auto off, and is away again)."""
    world, clock = await opened(tmp_path, game)
    try:
        table = world.manager.tables[world.key()]
        turns, timeouts, told, acted_at = 0, 0, 0, -1e9
        while table.state == "playing" and turns < 3:
            hand = table.hand
            if hand.auto[0] and hand.to_act != 0 and game == "situan":
                await world.slash(ANN, "auto", channel_id=None, on=False)
                acted_at = clock.now
                clock.advance(6)
                await ai_move(world, table, clock)
                continue
            if not (table.waits_for_a_person() and table.turn_seat == 0):
                await ai_move(world, table, clock)
                continue
            turns += 1
            await world.settle()
            called = [t for t in dms(world) if t.startswith(NOTICE)]
            assert len(called) == turns - (clock.now - acted_at < 5), dms(world)
            await to_reminder(world, table, clock)
            assert len([t for t in dms(world) if t.startswith(REMINDER)]) == turns, dms(world)
            await eventually(
                lambda: len(mentions(world)) == turns,  # noqa: B023
                10.0,
                0.005,
                "the channel's mention",
            )
            body = mentions(world)[-1]
            assert str(body["content"]).startswith(f"<@{ANN}>：轮到你了，还剩 "), body["content"]
            allowed = body.get("allowed_mentions")
            assert allowed is not None, body
            # discord.py writes the ids as numbers; Discord reads either form.
            users = [str(u) for u in allowed.get("users", [])]
            assert users == [ANN] and not allowed.get("parse"), allowed
            assert not allowed.get("roles") and not allowed.get("replied_user"), allowed
            await ai_move(world, table, clock)
            timeouts += 1
            await world.settle()
            assert table.hand.auto[0] == (game == "situan" or timeouts >= 3), timeouts
            told = sum(TOLD_AUTO in t and "托管" in t for t in dms(world))
            assert told == (timeouts if game == "situan" else max(0, timeouts - 2))
        assert turns == 3
        sent = dms(world)
        assert len(sent) == len([t for t in sent if t.startswith(NOTICE)]) + turns + told + sum(
            t.startswith("你在「Card room #cards」的手牌") for t in sent
        ), sent
        await quiet(world)
        wrong = first_wrong(channel_steps(world))
        assert wrong is None, wrong
        assert_no_internal_id(world)
    finally:
        await world.close()


def mentions(world: DiscordWorld) -> list[dict[str, Any]]:
    """Channel posts that mention a member."""
    return [
        body_of(c)
        for c in world.fake.calls
        if c.method == "POST"
        and c.path == f"channels/{CHANNEL_ID}/messages"
        and "<@" in str(body_of(c).get("content") or "")
    ]


async def test_one_notation_for_n_cards_of_a_rank(tmp_path):
    """四团: the hand's ``3×4`` is the label of the 3s' choice, three of them are ``3×3`` as a
    choice and in the channel's table after Ann plays them."""
    world, clock = await opened(tmp_path, "situan")
    try:
        table = world.manager.tables[world.key()]
        while not (table.waits_for_a_person() and table.turn_seat == 0):
            await ai_move(world, table, clock)
        rank, held = a_triple_to_play(table)
        shown = world.hand_message(ANN)
        tokens = shown["content"].split("\n")[0].split("：", 1)[1].split()
        assert f"{rank}×{held}" in tokens, tokens
        assert f"{rank}×{held}" in labels_of(shown["components"]), labels_of(shown["components"])
        await world.click(ANN, shown, f"/pick {rank}")
        labels = labels_of(world.hand_message(ANN)["components"])
        assert f"{rank}×3" in labels, labels
        clock.advance(2)
        await world.slash(ANN, "play", channel_id=None, cards=f"{rank}×3")
        assert table.hand.history[-1].to_json()["seat"] == 0
        await quiet(world)
        table_text = next(s.text for s in reversed(channel_steps(world)) if TITLE.search(s.text))
        assert f"Ann：{rank}×3" in table_text, table_text
    finally:
        await world.close()

"""Issue 42 on Telegram, through python-telegram-bot against the fake Bot API: /notify's
private message when a table opens (one per group per 10 minutes), and /kick during a hand."""

from __future__ import annotations

from pathlib import Path

from tests.bot.harness import FakeClock
from tests.telegram.world import TelegramWorld, buttons_of, play_turn
from tests.waiting import eventually


def notices(world: TelegramWorld, user_id: int) -> list[dict]:
    return [m for m in world.api.chat_messages(user_id) if "开了一桌" in (m.get("text") or "")]


async def test_a_subscriber_is_told_once_of_a_table_and_not_of_a_second_within_ten_minutes(
    tmp_path: Path,
):
    clock = FakeClock()
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), clock=clock)
    try:
        await world.say(12, "/notify")
        await world.say(11, "/new situan")
        told = notices(world, 12)
        assert len(told) == 1
        assert [b["text"] for b in buttons_of(told[0])] == ["入座"]
        assert notices(world, 11) == []  # the opener is not told of their own table
        await world.say(11, "/stop")
        clock.advance(9 * 60)
        await world.say(11, "/new erqiwang")
        assert len(notices(world, 12)) == 1  # within 10 minutes: nothing more
        await world.say(11, "/stop")
        clock.advance(60)
        await world.say(11, "/new erqiwang")
        assert len(notices(world, 12)) == 2  # ten minutes on, the next one comes
        await world.say(12, "/notify", chat_id=12)  # privately: the list
        assert "1. " in world.api.chat_messages(12)[-1]["text"]
        await world.say(12, "/notify all", chat_id=12)
        assert await world.db.subscriptions_of("tg:u12") == []
    finally:
        await world.close()


async def test_kick_during_a_hand_seats_an_ai_player_and_the_hand_goes_on(tmp_path: Path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        await world.say(11, "/new situan")
        for user_id in (12, 13, 14):
            await world.say(user_id, "/join")
        await world.say(11, "/start")
        table = world.manager.tables[world.key()]
        hand, turns = table.hand, table.turn_count
        await world.say(12, "/kick 2")  # not the host: refused, nothing changes
        assert table.seats[1].user == "tg:u12"
        await world.say(11, "/kick 2")
        assert table.seats[1].ai and table.seats[1].stands_in_for == "tg:u12"
        assert table.hand is hand  # the same hand goes on
        while table.turn_count < turns + 6 and table.hand is hand and not hand.over:
            if table.seats[hand.to_act].ai:  # the AI players act on the table's timer
                count = table.turn_count
                await eventually(lambda count=count: table.turn_count != count, 10.0, 0.005)
            else:
                await play_turn(world, world.key(), by_text=True)
        assert table.turn_count >= turns + 6 or hand.over

        def texts() -> str:
            return " ".join(m.get("text") or "" for m in world.group_messages())

        await eventually(lambda: "被请离 2 号座位，由电脑玩家接着打这一局" in texts(), 10.0, 0.01)
    finally:
        await world.close()

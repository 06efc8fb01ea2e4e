"""Issue 12, item 6, through the real library: a player seated in two groups is told which
group each private hand belongs to, and names the table of a typed private command with
``/bid@2`` — or presses a table's button when asked."""

from __future__ import annotations

from typing import Any

from tests.telegram.fake_bot_api import BASIC_GROUPS
from tests.telegram.world import GROUP, TelegramWorld, button_data
from tests.waiting import eventually

SMALL = -4545
ANN, BOB = 11, 12


def texts_to(world: TelegramWorld, chat_id: int) -> list[str]:
    return [str(m.get("text") or m.get("caption") or "") for m in world.api.chat_messages(chat_id)]


def last_message_with(world: TelegramWorld, chat_id: int, needle: str) -> dict[str, Any]:
    found = [
        m
        for m in world.api.chat_messages(chat_id)
        if needle in str(m.get("text") or m.get("caption") or "")
    ]
    assert found, f"nothing with {needle!r} in {texts_to(world, chat_id)}"
    return found[-1]


async def test_a_player_at_two_tables_names_the_table_or_picks_it_by_button(tmp_path):
    BASIC_GROUPS.add(SMALL)
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        for user_id in (ANN, BOB):
            await world.say(user_id, "/start", chat_id=user_id)
        await world.say(ANN, "/new situan")
        for _ in range(3):
            await world.say(ANN, "/addbot")
        await world.say(ANN, "/start")
        await world.say(BOB, "/new erqiwang", chat_id=SMALL)
        await world.say(ANN, "/join", chat_id=SMALL)
        for _ in range(2):
            await world.say(BOB, "/addbot", chat_id=SMALL)
        await world.say(BOB, "/start", chat_id=SMALL)
        small = world.manager.tables[f"tg:{SMALL}"]

        # Each private hand says which group it is from.
        def both_hands_named() -> bool:
            texts = texts_to(world, ANN)
            return all(
                any(t.startswith(f"你在「{room}」的手牌") for t in texts)
                for room in ("Small room", "Card room")
            )

        await eventually(both_hands_named, 5.0, 0.01, "both hands, each naming its group")

        await world.say(BOB, "/bid 120", chat_id=BOB)  # Bob sits at one table: no naming
        assert small.turn_seat == small.seat_of("tg:u11") == 1
        await world.say(ANN, "/settings", chat_id=ANN)  # which table? — asked, nothing done
        asked = last_message_with(world, ANN, "你同时坐在几张牌桌上")
        assert "@1 · Card room" in asked["text"] and "@2 · Small room" in asked["text"]
        turns = small.turn_count
        await world.say(ANN, "/bid@2 100", chat_id=ANN)
        assert small.turn_count == turns + 1 and small.hand.view(None).bids[-1] == (1, 100)

        # The button for a table shows its hand there (its buttons then act at that table).
        sent = len(world.api.calls)
        data = button_data(asked, "/hand")
        assert data.startswith(f"{GROUP}|")  # the first button is Card room's
        small_button = [
            b["callback_data"] for row in asked["reply_markup"]["inline_keyboard"] for b in row
        ][1]
        assert small_button.startswith(f"{SMALL}|")
        answer = await world.press_data(ANN, asked, small_button)
        assert not answer.get("text"), answer
        await world.settle()
        # Asked for, the hand comes anew at the end of the chat (the old one is deleted).
        after = [c for c in world.api.calls[sent:] if str(c.params.get("chat_id")) == str(ANN)]
        assert [c.method for c in after] == ["deleteMessage", "sendPhoto"]
        assert str(after[1].params["caption"]).startswith("你在「Small room」的手牌")
        latest = world.api.chat_messages(ANN)[-1]
        assert str(latest.get("caption")).startswith("你在「Small room」的手牌")
    finally:
        BASIC_GROUPS.discard(SMALL)
        await world.close()

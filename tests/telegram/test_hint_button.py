"""Issue 55, item 1 on Telegram, through the real python-telegram-bot against the fake Bot API:
at a table allowing hints, the private hand of the player whose turn it is carries 提示; a
press answers that player privately with the hint and its why-line, its cards chosen in the
hand, and the group is told nothing of it."""

from __future__ import annotations

from typing import Any

from tests.telegram.world import TelegramWorld
from tests.waiting import eventually


def commands_of(message: dict[str, Any]) -> list[str]:
    rows = message.get("reply_markup", {}).get("inline_keyboard", [])
    return [b.get("callback_data", "").split("|")[-1] for row in rows for b in row]


async def test_the_hint_button_answers_the_player_alone(tmp_path) -> None:
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"))
    try:
        await world.say(11, "/new situan")
        await world.say(11, "/settings hints_per_hand 2")
        for player in (12, 13, 14):
            await world.say(player, "/join")
        await world.say(11, "/start")
        await world.settle()
        table = world.manager.tables[world.key()]
        player = 11 + table.turn_seat
        hand = world.hand_message(player)
        assert "/hint" in commands_of(hand)
        waiting = [p for p in (11, 12, 13, 14) if p != player]
        assert all("/hint" not in commands_of(world.hand_message(p)) for p in waiting)
        await world.press(player, hand, "/hint")

        def told() -> list[str]:
            return [
                m.get("text", "")
                for m in world.api.chat_messages(player)
                if m.get("text", "").startswith("提示：")
            ]

        await eventually(lambda: bool(told()), 10.0, 0.01, "the hint in the private chat")
        (hint,) = told()
        assert "理由：" in hint and hint.endswith("本局还剩提示：1 次")
        assert "已选：" in world.hand_message(player).get("text", "")  # its cards chosen
        group_after = [m.get("text", "") for m in world.group_messages()]
        assert not any(text.startswith("提示：") or "理由：" in text for text in group_after)
    finally:
        await world.close()

"""Issue 55, item 5 on Telegram, through the real python-telegram-bot against the fake Bot API,
with the web table served: the group's settlement carries Replay; a member's press answers
them privately (where the bot may write to them) with a Mini App button to the hand's replay
page of that hand, by its stored id."""

from __future__ import annotations

from typing import Any

from adapters.web.params import table_param
from tests.telegram.world import TelegramWorld, buttons_of
from tests.waiting import eventually


def callbacks(message: dict[str, Any]) -> list[str]:
    return [b.get("callback_data", "").split("|")[-1] for b in buttons_of(message)]


def replay_of(message: dict[str, Any]) -> list[str]:
    """The settlement's Replay button's command: ``/replay TAG.1`` (the match, the hand)."""
    return [c for c in callbacks(message) if c.startswith("/replay ") and c.endswith(".1")]


async def test_the_settlements_replay_answers_the_presser_with_the_replay_page(tmp_path) -> None:
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), web=True)
    try:
        await world.say(11, "/new situan")
        await world.say(11, "/settings ai_delay 0")
        for _ in range(3):
            await world.say(11, "/addbot")
        await world.say(11, "/start")
        await world.say(11, "/auto on")
        table = world.manager.tables[world.key()]
        await eventually(
            lambda: table.hand is not None and table.hand.over, 60.0, 0.05, "the hand settled"
        )

        def settlement() -> dict[str, Any] | None:
            found = [m for m in world.group_messages() if replay_of(m)]
            return found[-1] if found else None

        await eventually(lambda: settlement() is not None, 20.0, 0.02, "the settlement")
        message = settlement()
        assert message is not None
        await world.press(11, message, replay_of(message)[0])

        def answered() -> list[str]:
            return [
                b["web_app"]["url"]
                for m in world.api.chat_messages(11)
                for b in buttons_of(m)
                if "web_app" in b and "/replay?" in b["web_app"]["url"]
            ]

        await eventually(lambda: bool(answered()), 10.0, 0.01, "the replay button")
        param = table_param(world.key())
        (hand_id,) = await world.manager.db.hands_played("tg:u11", 5)
        assert answered() == [f"{world.web_base}/replay?id={hand_id}&t={param}"]
    finally:
        await world.close()

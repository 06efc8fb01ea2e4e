"""Issue 55, item 5 on Telegram, through the real python-telegram-bot against the fake Bot API,
with the web table served: the group's settlement carries Replay; a member's press answers
them privately (where the bot may write to them) with a Mini App button to the hand's replay
page of that hand, by its stored id."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

from adapters.telegram.keyboards import PREFIX, chat_key
from adapters.web.params import table_param
from tests.bot.harness import FakeClock
from tests.telegram.world import TIMER_STEP, TOKEN, TelegramWorld, button_data, buttons_of
from tests.waiting import eventually
from tests.web.world import init_data


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


async def test_a_practice_settlements_replay_is_pressed_in_the_private_chat(tmp_path) -> None:
    """A practice table lives in the player's private chat and leaves no ledger: its
    settlement's Replay, pressed there, answers with the Mini App button of that hand, whose
    page opens it for that player alone."""
    clock = FakeClock()  # the AI players' pauses pass as the test moves it on
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), web=True, clock=clock)
    try:
        await world.say(11, "/practice situan easy", chat_id=11)
        await world.say(11, "/auto on", chat_id=11)
        private = chat_key(11)

        def settlement() -> dict[str, Any] | None:
            found = [m for m in world.api.chat_messages(11) if replay_of(m)]
            return found[-1] if found else None

        for _ in range(5000):  # each AI pause, then the timers' next look
            if settlement() is not None:
                break
            clock.advance(1.0)
            await asyncio.sleep(TIMER_STEP)
        message = settlement()
        assert message is not None, "the settlement never came"
        answer = await world.press(11, message, replay_of(message)[0])
        assert not answer.get("text")  # not refused ("That button is not valid.")

        def answered() -> list[str]:
            return [
                b["web_app"]["url"]
                for m in world.api.chat_messages(11)
                for b in buttons_of(m)
                if "web_app" in b and "/replay?" in b["web_app"]["url"]
            ]

        await eventually(lambda: bool(answered()), 10.0, 0.01, "the replay button")
        ((hand_id, _),) = await world.manager.db.hands_numbered(private, 1)
        assert answered() == [f"{world.web_base}/replay?id={hand_id}&t={table_param(private)}"]
        # The page opens it for the player (their own private chat's hand), not for another.
        async with aiohttp.ClientSession() as session:
            for user_id, status in ((11, 200), (12, 404)):
                proof = "tma " + init_data(user_id, token=TOKEN)
                async with session.post(
                    f"{world.web_base}/replay/api/hand",
                    json={"id": hand_id},
                    headers={"Authorization": proof},
                ) as reply:
                    assert reply.status == status, user_id
                    if status == 200:
                        assert len((await reply.json())["frames"]) > 50
        # The same button's words naming the chat of another table: refused, nothing sent.
        data = button_data(message, replay_of(message)[0])
        forged = data.replace(private.removeprefix(PREFIX), world.key().removeprefix(PREFIX), 1)
        assert forged != data
        before = len(world.api.chat_messages(11))
        refused = await world.press_data(11, message, forged)
        assert refused.get("text") and len(world.api.chat_messages(11)) == before
    finally:
        await world.close()

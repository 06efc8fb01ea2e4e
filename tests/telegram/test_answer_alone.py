"""Issue 49, item 7: a refusal to a non-player is said to them alone, through
python-telegram-bot against the fake Bot API. Dee never opened the bot (it cannot write to
her first) and has no seat: her typed command is answered in the group as a message of its
own that calls her (a text mention), never joined with the table's posts (the audit saw
"第 1 局发牌了。… Mallory: 你在这桌没有座位。" for good), and it is deleted after a while; her
press of a table button is answered in the press's own alert, not in the group."""

from __future__ import annotations

import json
from typing import Any

from adapters.telegram.outbox import ANSWER_SHOWN
from tests.live_table import TITLE
from tests.telegram.world import GROUP, TelegramWorld, buttons_of
from tests.waiting import eventually

ANN, DEE = 11, 14
REFUSAL = "你在这桌没有座位。"


async def quiet(world: TelegramWorld) -> None:
    outbox = world.adapter.outbox
    await eventually(lambda: outbox.paced_out() and outbox.idle(), 30.0, 0.005, "all sent")


def sent_with(world: TelegramWorld, words: str) -> list[Any]:
    return [
        c
        for c in world.group_calls()
        if c.method == "sendMessage" and words in str(c.params.get("text"))
    ]


async def test_a_non_players_refusal_is_said_to_them_alone(tmp_path):
    world = await TelegramWorld.open(str(tmp_path / "tg.sqlite3"), never_opened={DEE})
    store = world.api._store

    def remembering(chat_id: int, params: dict[str, Any]) -> dict[str, Any]:
        message = store(chat_id, params)  # every message remembers its id in its call
        params["_id"] = message["message_id"]
        return message

    world.api._store = remembering  # type: ignore[method-assign]
    try:
        await world.say(ANN, "/start", chat_id=ANN)
        await world.say(ANN, "/new erqiwang")
        for _ in range(3):
            await world.say(ANN, "/addbot")
        await world.say(ANN, "/start")
        await world.say(DEE, "/pass")  # typed in the group, as the deal is posted
        await quiet(world)
        (answer,) = sent_with(world, REFUSAL)
        text = str(answer.params["text"])
        assert text == f"Dee: {REFUSAL}", text  # alone: no deal line, no table with it
        entities = answer.params.get("entities") or "[]"
        (mention,) = json.loads(entities) if isinstance(entities, str) else entities
        assert mention["type"] == "text_mention" and mention["user"]["id"] == DEE
        deleted = str(answer.params["_id"])
        await eventually(
            lambda: any(
                c.method == "deleteMessage" and str(c.params["message_id"]) == deleted
                for c in world.group_calls()
            ),
            10.0 + 3 * ANSWER_SHOWN / world.adapter.outbox.pace_speed,
            0.01,
            "the answer deleted",
        )
        assert not [m for m in world.group_messages() if REFUSAL in m["text"]]
        # A press of the table's button: answered in the press's alert, nothing in the group.
        table = next(m for m in reversed(world.group_messages()) if TITLE.search(m["text"]))
        command = str(buttons_of(table)[0]["callback_data"]).split("|")[-1]
        before = len(world.group_calls())
        alert = await world.press(DEE, table, command)
        await quiet(world)
        assert alert.get("text"), alert
        assert not [
            c
            for c in world.group_calls()[before:]
            if c.method == "sendMessage" and "Dee" in str(c.params.get("text"))
        ]
        assert str(GROUP) in world.key()
    finally:
        await world.close()

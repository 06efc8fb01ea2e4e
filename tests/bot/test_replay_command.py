"""Issue 55, item 5 in the chat: ``/replay [N]`` answers the asker alone with a button to the
replay page of a settled hand of the match (``/replay?hand=N``, made whole by the platform's
web door: `adapters.web.door.WebDoor.page_of_table`); refused, with what to type, before any
hand is settled or for a hand the match has not finished."""

from __future__ import annotations

from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from adapters.web.params import table_param
from tests.bot.harness import CHAT, FakeClock, Harness, press, start_ai_match


async def settled_match(tmp_path) -> Harness:
    harness = await Harness.open(str(tmp_path / "replay.sqlite3"), FakeClock(), seed=2)
    await start_ai_match(harness, "situan", "max_hands 0")
    await harness.run_until(lambda: harness.table().hand.over)
    return harness


def buttons(message) -> list[tuple[str, str | None, bool]]:
    return [(b.label, b.url, b.opens_app) for row in message.buttons for b in row]


async def test_replay_answers_the_asker_alone_with_the_hands_page(tmp_path):
    harness = await settled_match(tmp_path)
    try:
        out = await harness.say("ann", "/replay", lang="en")
        (answer,) = out
        assert answer.kind == "reply" and answer.user == "ann" and not answer.public
        assert answer.text == "Hand 1, trick by trick, every hand shown:"
        assert buttons(answer) == [("Replay this hand", "/replay?hand=1", True)]
        # A member of the group who does not play asks in the group: answered alike.
        (answer,) = await harness.say("zoe", "/replay 1", lang="zh-Hans")
        assert answer.user == "zoe" and answer.text == "第 1 局，一轮一轮复盘，四家的牌都摊开："
    finally:
        await harness.db.close()


async def test_replay_of_a_hand_not_settled_is_refused_with_the_range(tmp_path):
    harness = await Harness.open(str(tmp_path / "replay.sqlite3"), FakeClock(), seed=2)
    try:
        await start_ai_match(harness, "situan", "max_hands 0")
        out = await harness.say("ann", "/replay", lang="en")
        assert [m.text for m in out] == [
            "No hand of this match is over yet: /replay works once one is settled."
        ]
        await harness.run_until(lambda: harness.table().hand.over)
        for asked in ("/replay 2", "/replay x", "/replay 0"):
            out = await harness.say("ann", asked, lang="en")
            assert [m.text for m in out] == ["Say /replay and a hand number from 1 to 1."]
            assert not out[0].buttons
    finally:
        await harness.db.close()


def test_the_web_door_makes_the_replay_page_of_the_table():
    door = WebDoor("https://cards.example/", LinkSigner())
    param = table_param(CHAT)
    assert door.page_of_table("/replay?hand=3", CHAT) == (
        f"https://cards.example/replay?hand=3&t={param}"
    )


async def test_the_settlement_carries_replay_and_a_press_answers_the_presser(tmp_path):
    harness = await settled_match(tmp_path)
    try:
        (settled,) = [
            m
            for m in harness.recorder.sent
            if any(b.command == "/replay 1" for row in m.buttons for b in row)
        ]
        assert settled.kind == "group" and "Replay this hand" in [
            b.label for row in settled.buttons for b in row
        ]
        out = await press(harness, "bob", settled, "/replay 1")  # a member of the group
        assert [(m.user, buttons(m)) for m in out] == [
            ("bob", [("Replay this hand", "/replay?hand=1", True)])
        ]
    finally:
        await harness.db.close()

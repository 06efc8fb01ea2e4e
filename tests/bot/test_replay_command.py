"""Issue 55, item 4 in the chat: ``/replay`` is the asker's last finished hand, ``/replay N``
their N-th most recent across matches, and the settlement's button (``/replay TAG.N``) that
hand of that match — answered to the asker alone with a button to ``/replay?id=HAND`` (made
whole by the platform's web door), also once the match is over and its table closed. What is
not allowed is refused saying what to type instead, in the asker's language."""

from __future__ import annotations

from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from adapters.web.params import table_param
from bot.views.controls import match_tag
from tests.bot.harness import CHAT, FakeClock, Harness, press, start_ai_match


async def finished_match(tmp_path, seed: int = 2) -> Harness:
    """Ann's one-hand match with three AI players, played to its end (the table closes)."""
    harness = await Harness.open(str(tmp_path / "replay.sqlite3"), FakeClock(), seed=seed)
    await start_ai_match(harness, "situan")
    await harness.run_until(lambda: CHAT not in harness.manager.tables)
    return harness


def buttons(message) -> list[tuple[str, str | None, bool]]:
    return [(b.label, b.url, b.opens_app) for row in message.buttons for b in row]


async def test_replay_after_the_match_is_over_answers_the_asker_alone(tmp_path):
    harness = await finished_match(tmp_path)
    try:
        (hand_id,) = await harness.db.hands_played("ann", 5)
        out = await harness.say("ann", "/replay", lang="en")
        (answer,) = out
        assert answer.kind == "reply" and answer.user == "ann" and not answer.public
        assert answer.text == (
            "Situan (四团), hand 1 of its match, trick by trick, every hand shown:"
        )
        assert buttons(answer) == [("Replay this hand", f"/replay?id={hand_id}", True)]
        # Privately too: the hand is the asker's own, whichever chat they ask in.
        (answer,) = await harness.say("ann", "/replay 1", chat="ann", private=True, lang="zh-Hans")
        assert answer.text == "四团，那一场的第 1 局，一轮一轮复盘，四家的牌都摊开："
        assert buttons(answer) == [("复盘这一局", f"/replay?id={hand_id}", True)]
    finally:
        await harness.db.close()


async def test_replay_n_is_the_askers_nth_most_recent_hand_across_matches(tmp_path):
    harness = await finished_match(tmp_path)
    try:
        await start_ai_match(harness, "erqiwang")  # a second match, at the same chat
        await harness.run_until(lambda: CHAT not in harness.manager.tables)
        played = await harness.db.hands_played("ann", 20)
        assert len(played) >= 2  # the situan hand, then the erqiwang match's (one or more)
        last, before, first = played[0], played[1], played[-1]
        (answer,) = await harness.say("ann", "/replay", lang="en")
        assert buttons(answer)[0][1] == f"/replay?id={last}"
        assert answer.text.startswith("Er Qi Wang (二七王), hand ")
        (answer,) = await harness.say("ann", "/replay 2", lang="en")
        assert buttons(answer)[0][1] == f"/replay?id={before}"
        (answer,) = await harness.say("ann", f"/replay {len(played)}", lang="en")
        assert buttons(answer)[0][1] == f"/replay?id={first}"
        assert answer.text.startswith("Situan (四团), hand 1")
        (answer,) = await harness.say("ann", f"/replay {len(played) + 1}", lang="en")
        assert answer.text == (
            f"Hands of yours to replay so far: {len(played)}. Say /replay and a number from 1 "
            f"to {len(played)} (1: the last)."
        )
        assert not answer.buttons
    finally:
        await harness.db.close()


async def test_refusals_say_what_to_type_instead_in_three_languages(tmp_path):
    harness = await Harness.open(str(tmp_path / "replay.sqlite3"), FakeClock(), seed=2)
    try:
        (answer,) = await harness.say("zoe", "/replay", lang="en")
        assert answer.text.startswith("You have no finished hand to replay yet: /replay works")
        (answer,) = await harness.say("zoe", "/replay", lang="zh-Hans")
        assert answer.text.startswith("你还没有打完的局可以复盘：打完一局后才能用 /replay")
        (answer,) = await harness.say("zoe", "/replay", lang="zh-Hant")
        assert answer.text.startswith("你還沒有打完的局可以復盤")
        for asked in ("/replay 0", "/replay x", "/replay 21"):
            (answer,) = await harness.say("zoe", asked, lang="en")
            assert answer.text == (
                "Say /replay for your last hand, or /replay and a number from 1 to 20 for one "
                "of your recent hands (2: the one before the last)."
            )
            assert not answer.buttons
        (answer,) = await harness.say("zoe", "/replay abcde.1", lang="zh-Hans")
        assert answer.text == (
            "这个聊天里没有存着那一局：发送 /replay 看你最近一局，或者 /replay N 看你倒数第 N 局。"
        )
    finally:
        await harness.db.close()


def test_the_web_door_makes_the_replay_page_of_the_table():
    door = WebDoor("https://cards.example/", LinkSigner())
    param = table_param(CHAT)
    assert door.page_of_table("/replay?id=3", CHAT) == (
        f"https://cards.example/replay?id=3&t={param}"
    )


async def test_the_last_settlement_carries_replay_and_a_members_press_answers_them(tmp_path):
    harness = await finished_match(tmp_path)
    try:
        (hand_id,) = await harness.db.hands_played("ann", 5)
        match = harness.table().match
        command = f"/replay {match_tag(match)}.1"
        (settled,) = [
            m
            for m in harness.recorder.sent
            if any(b.command == command for row in m.buttons for b in row)
        ]
        assert settled.kind == "group" and buttons(settled) == [("Replay this hand", None, False)]
        # Bob did not play: a member of the group pressing it in the group is answered alone.
        out = await press(harness, "bob", settled, command)
        assert [(m.user, buttons(m)) for m in out] == [
            ("bob", [("Replay this hand", f"/replay?id={hand_id}", True)])
        ]
        # The same words in another chat name no hand of it.
        (answer,) = await harness.say("bob", command, chat="bob", private=True, lang="en")
        assert answer.text.startswith("That hand is not stored in this chat")
    finally:
        await harness.db.close()

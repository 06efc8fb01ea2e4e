"""The quick room (issue 54): three people who said /quick on three platforms (Telegram,
Discord, the console) get one rated table with one AI seat, each told privately in their own
language, and play it to its end; their ratings move by OpenSkill's own numbers."""

from __future__ import annotations

import re
from pathlib import Path

from bot.reading.command import parse_command
from bot.views.outgoing import Kind, Outgoing
from tests.bot.harness import Harness
from tests.bot.test_ratings import assert_rated_as_openskill

PEOPLE = (  # user, their private chat, their name, their language
    ("tg:u1", "tg:1", "Ann", "en"),
    ("dc:u2", "dc:900", "Bob", "zh-Hans"),
    ("you", "console", "Cy", "en"),
)
TURN = {"en": r"^Turn: ", "zh-Hans": r"^轮到："}
MATCH_OVER = {"en": "The match is over.", "zh-Hans": "本场结束。", "zh-Hant": "本場結束。"}
ENDED = {"en": r"^Ratings: Bob \d+ \(", "zh-Hans": r"^等级分：Bob \d+（"}
"""The end of the hand as each reader is told it: the ratings line in their language."""


async def queued_three(tmp_path: Path) -> Harness:
    harness = await Harness.open(str(tmp_path / "quick.db"), seed=3)
    for user, chat, name, lang in PEOPLE:
        command = parse_command("/quick situan", user, name, chat, True, lang)
        await harness.deliver(command)
    harness.clock.advance(2)
    return harness


async def test_three_platforms_one_table_each_told_privately_in_their_own_language(
    tmp_path: Path,
):
    harness = await queued_three(tmp_path)
    harness.manager.quick.quick_wait = 1.0  # the issue's ``quick_wait 1``
    harness.recorder.clear()
    (chat,) = await harness.manager.quick.match()
    table = harness.table(chat)
    people = [seat.user for seat in table.seats if seat is not None and not seat.ai]
    assert sorted(people) == sorted(user for user, *_ in PEOPLE)
    assert sum(seat is not None and seat.ai for seat in table.seats) == 1
    assert table.table_options.rated and not table.table_options.mention_turn
    sent = harness.recorder.sent
    # Nothing goes to the quick table's own chat as a group would read it: each message is
    # one person's, and each person has their own hand.
    assert sent and all(m.kind == Kind.PRIVATE and m.user in people for m in sent)
    assert all(m.mention is None for m in sent)
    for user, _, _, lang in PEOPLE:
        hands = [m for m in sent if m.user == user and (m.slot or "").startswith("hand")]
        assert hands, f"{user} got no hand"
        narrated = [m for m in sent if m.user == user and (m.slot or "").startswith("quick")]
        assert narrated, f"{user} was not shown the table"
        shown = narrated[-1].text  # the deal's post, then the table below it
        if lang == "en":
            assert "Hand 1 is dealt." in shown and "Situan · hand 1" in shown
            assert not re.search(r"[\u4e00-\u9fff]{2}", shown.replace("四团", ""))
        else:
            assert "第 1 局发牌了。" in shown and "四团 · 第 1 局" in shown
            assert "hand" not in shown.lower()
        table_text = shown.split("\n\n")[-1]
        # Names only: no platform id of anyone in what a stranger reads.
        assert not re.search(r"\b(?:tg|dc):", narrated[-1].text, re.I)
        assert all(other in table_text for _, _, other, _ in PEOPLE)
    await harness.db.close()


async def test_the_table_is_played_to_its_end_from_each_platform_and_rated(tmp_path: Path):
    harness = await queued_three(tmp_path)
    harness.manager.quick.quick_wait = 1.0
    (chat,) = await harness.manager.quick.match()
    table = harness.table(chat)
    chats = {user: private for user, private, *_ in PEOPLE}
    langs = {user: lang for user, _, _, lang in PEOPLE}
    # A chat command other than a move is refused at a quick table, and changes nothing.
    (refused,) = await harness.say("tg:u1", "/settings max_hands 3", chat="tg:1", private=True)
    assert refused.user == "tg:u1" and "quick table" in refused.text
    assert table.table_options.max_hands == 1
    (again,) = await harness.say("dc:u2", "/quick situan", chat="dc:900", private=True)
    assert again.text == "你正在快速匹配的牌桌上打牌：打完这一局，再说 /quick 开下一桌。"
    assert await harness.db.queue_entry("dc:u2") is None
    on_auto: set[str] = set()
    for _ in range(5000):
        if not table.is_open():
            break
        seat = table.turn_seat
        occupant = None if seat is None else table.seats[seat]
        if occupant is not None and not occupant.ai and occupant.user not in on_auto:
            # Each person's own move, from their own private chat: one move at the table.
            user = occupant.user
            before = table.turn_count
            await harness.say(user, "/auto on", chat=chats[user], private=True)
            assert table.turn_count > before or table.hand.auto[seat]
            on_auto.add(user)
            continue
        if table.deadline is not None:
            harness.clock.now = max(harness.clock.now, table.deadline)
        await harness.manager.tick()
    assert not table.is_open(), "the quick table did not end"
    assert on_auto == {user for user, *_ in PEOPLE}
    await assert_rated_as_openskill(harness.db, table)  # openskill itself
    # The end reached every person, privately: the settlement with the ratings line, and
    # its picture drawn in their language.
    pictures: dict[str, set[bytes]] = {"en": set(), "zh-Hans": set()}
    for user, *_ in PEOPLE:
        ends = [
            m.text
            for m in harness.recorder.sent
            if m.user == user and re.search(ENDED[langs[user]], m.text, re.M)
        ]
        assert ends, f"{user} was not told how the hand ended"
        # … and the match's end below the settlement, in a message of its own: not up in
        # the last trick's message, which sits above the settlement in their chat.
        mine = [m for m in harness.recorder.sent if m.user == user]
        over = MATCH_OVER[langs[user]]
        settled = max(i for i, m in enumerate(mine) if re.search(ENDED[langs[user]], m.text, re.M))
        told_over = [i for i, m in enumerate(mine) if m.text.startswith(over)]
        assert told_over and min(told_over) > settled, user
        assert not any(over in m.text for m in mine if m.slot is not None), user
        (picture,) = [m.picture for m in mine if m.picture is not None and m.slot is None]
        pictures[langs[user]].add(picture())
        # Each closed trick's message last reads as the trick ended: no stale "whose turn".
        last_of: dict[str, Outgoing] = {}
        for m in mine:
            if (m.slot or "").startswith("quick "):
                last_of[m.slot] = m
        *closed, _ = sorted(last_of.values(), key=lambda m: int(m.slot.rsplit(" ", 1)[1]))
        turn = TURN[langs[user]]
        assert len(closed) > 10 and all(m.final for m in closed), user
        assert not any(re.search(turn, m.text, re.M) for m in closed), user
        assert any(re.search(turn, m.text, re.M) for m in mine if m.slot in last_of), user
    assert len(pictures["en"]) == len(pictures["zh-Hans"]) == 1  # one picture a language
    assert pictures["en"] != pictures["zh-Hans"]
    await harness.db.close()

"""Issue 12, item 6: a private hand names its group, and a player seated at two tables says
which one a typed private command is for (or is asked, and nothing is done)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from bot.reading.command import parse_command
from bot.views.outgoing import Outgoing
from tests.bot.harness import CHAT, FakeClock, Harness, latest_hand_message, until_seat_zero_acts

WORK = "group-2"
DM = "dm-ann"


async def say_in(
    harness: Harness, user: str, text: str, chat: str, title: str | None, private: bool = False
) -> list[Outgoing]:
    before = len(harness.recorder.sent)
    command = parse_command(text, user, user.title(), chat, private, "en")
    assert command is not None
    await harness.deliver(replace(command, chat_title=title))
    return harness.recorder.sent[before:]


async def ann_at_two_tables(tmp_path: Path) -> Harness:
    """Ann plays 四团 in "Family" (with three AI players, until it is her turn) and sits at
    Bob's 二七王 table in "Work", where Bob (seat 0) is to bid first."""
    harness = await Harness.open(str(tmp_path / "two.sqlite3"), FakeClock(), seed=4)
    await say_in(harness, "ann", "/new situan", CHAT, "Family")
    for _ in range(3):
        await say_in(harness, "ann", "/addbot", CHAT, "Family")
    await say_in(harness, "ann", "/start", CHAT, "Family")
    await until_seat_zero_acts(harness)
    await say_in(harness, "bob", "/new erqiwang", WORK, "Work")
    await say_in(harness, "ann", "/join", WORK, "Work")
    for _ in range(2):
        await say_in(harness, "bob", "/addbot", WORK, "Work")
    await say_in(harness, "bob", "/start", WORK, "Work")
    work = harness.table(WORK)
    assert harness.table().turn_seat == 0 and work.turn_seat == 0  # Ann's and Bob's turns
    return harness


async def stored(harness: Harness) -> list:
    return [(t.chat, t.state, t.settings, t.updated) for t in await harness.db.open_tables()]


async def test_the_private_hand_and_the_turn_notice_name_the_group(tmp_path):
    harness = await ann_at_two_tables(tmp_path)
    try:
        family_hand = [
            m
            for m in harness.recorder.sent
            if m.user == "ann" and m.chat == CHAT and (m.slot or "").startswith("hand")
        ]
        assert family_hand[-1].text.startswith("Your hand at Family · Situan (四团) · seat")
        work_hand = [
            m
            for m in harness.recorder.sent
            if m.user == "ann" and m.chat == WORK and (m.slot or "").startswith("hand")
        ]
        assert work_hand and work_hand[-1].text.startswith(
            "Your hand at Work · Er Qi Wang (二七王) · seat"
        )
        await say_in(harness, "bob", "/pass", DM, None, private=True)  # Bob sits at one table
        notices = [
            m.text
            for m in harness.recorder.sent
            if m.user == "ann" and m.slot is None and m.text.startswith("Your turn")
        ]
        assert notices[-1].startswith("Your turn at Work · Er Qi Wang (二七王) · ")
    finally:
        await harness.db.close()


async def test_a_move_goes_to_the_one_table_waiting_on_the_player_and_says_which(tmp_path):
    harness = await ann_at_two_tables(tmp_path)
    try:
        family, work = harness.table(), harness.table(WORK)
        turns = family.turn_count
        out = await say_in(harness, "ann", "/bid 100", DM, None, private=True)
        assert work.hand.view(None).bids == []
        replies = [m.text for m in out if m.kind == "reply"]
        assert replies and replies[0].startswith("At Family: ")  # refused there: it is 四团
        assert family.turn_count == turns
        await say_in(harness, "ann", "/pass", DM, None, private=True)
        assert family.turn_count == turns + 1 and work.turn_count == 0  # passed at Family
        # Now neither table waits on Ann: a move must name its table.
        out = await say_in(harness, "ann", "/auto on", DM, None, private=True)
        assert [m.kind for m in out] == ["reply"] and "several tables" in out[0].text
        await say_in(harness, "ann", "/auto @1 on", DM, None, private=True)
        assert family.hand.view(0).auto[0] and not work.hand.view(1).auto[1]
    finally:
        await harness.db.close()


async def test_with_two_tables_waiting_the_player_is_asked_and_nothing_changes(tmp_path):
    harness = await ann_at_two_tables(tmp_path)
    try:
        await say_in(harness, "bob", "/pass", DM, None, private=True)  # now Ann bids at Work
        work = harness.table(WORK)
        assert work.turn_seat == work.seat_of("ann") == 1
        before = await stored(harness)
        out = await say_in(harness, "ann", "/pass", DM, None, private=True)
        assert await stored(harness) == before
        (answer,) = out
        assert answer.kind == "reply" and answer.user == "ann"
        assert "/pass @1" in answer.text
        assert "@1 · Family — Situan" in answer.text and "@2 · Work — Er Qi Wang" in answer.text
        presses = [button for row in answer.buttons for button in row]
        assert [(b.chat, b.command) for b in presses] == [(CHAT, "/hand"), (WORK, "/hand")]
        # The button shows that table's hand, whose own buttons then act there.
        parsed = parse_command("/hand", "ann", "Ann", WORK, True)
        assert parsed is not None
        await harness.deliver(replace(parsed, stamp=presses[1].stamp))
        assert latest_hand_message(harness, "ann").chat == WORK
    finally:
        await harness.db.close()


async def test_naming_the_table_acts_there_by_number_or_name(tmp_path):
    harness = await ann_at_two_tables(tmp_path)
    try:
        await say_in(harness, "bob", "/pass", DM, None, private=True)
        work = harness.table(WORK)
        turns = work.turn_count
        out = await say_in(harness, "ann", "/bid@2 100", DM, None, private=True)
        assert work.turn_count == turns + 1 and work.turn_seat == 2
        assert not [m for m in out if m.kind == "reply" and "several" in m.text]
        out = await say_in(harness, "ann", "/score @fam", DM, None, private=True)
        assert [(m.kind, m.user) for m in out] == [("reply", "ann")]  # not posted in the group
        assert out[0].text.startswith("At Family: ")
        out = await say_in(harness, "ann", "/leave @3", DM, None, private=True)
        (answer,) = out
        assert answer.text.startswith("None of your tables is @3.")
        assert work.seat_of("ann") == 1 and harness.table().seat_of("ann") == 0
    finally:
        await harness.db.close()


async def test_hand_in_private_shows_every_running_hand(tmp_path):
    harness = await ann_at_two_tables(tmp_path)
    try:
        out = await say_in(harness, "ann", "/hand", DM, None, private=True)
        hands = [m for m in out if (m.slot or "").startswith("hand")]
        assert {m.chat for m in hands} == {CHAT, WORK}
    finally:
        await harness.db.close()


async def test_one_table_needs_no_naming_and_a_stranger_teaches_no_title(tmp_path):
    harness = await Harness.open(str(tmp_path / "one.sqlite3"), FakeClock())
    try:
        await say_in(harness, "ann", "/new situan", CHAT, "Family")
        before = await stored(harness)
        await say_in(harness, "eve", "/help", CHAT, "Renamed by a stranger")
        await say_in(harness, "eve", "/start", CHAT, "Renamed by a stranger")
        assert await stored(harness) == before and harness.table().title == "Family"
        await say_in(harness, "ann", "/addbot", CHAT, "Family  room ")
        assert harness.table().title == "Family room"  # the name follows the group
        out = await say_in(harness, "ann", "/leave", DM, None, private=True)
        assert harness.table().seat_of("ann") is None
        assert all(not m.text.startswith("At ") for m in out)  # one table: no need to say
    finally:
        await harness.db.close()


async def test_the_groups_name_survives_a_restart(tmp_path):
    path = str(tmp_path / "restart.sqlite3")
    harness = await Harness.open(path, FakeClock())
    await say_in(harness, "ann", "/new erqiwang", CHAT, "家里")
    await harness.db.close()
    again = await Harness.open(path, FakeClock())
    try:
        await again.manager.restore()
        assert again.table().title == "家里"
    finally:
        await again.db.close()


def test_a_table_number_after_the_command_is_read_only_in_private():
    private = parse_command("/play@2 S3 S3", "u", "U", "dm", True, bot_name="CardBot")
    assert private is not None and private.args == ("@2", "S3", "S3")
    assert parse_command("/play@2 S3", "u", "U", "g", False, bot_name="CardBot") is None
    other_bot = parse_command("/play@OtherBot S3", "u", "U", "dm", True, bot_name="CardBot")
    assert other_bot is None

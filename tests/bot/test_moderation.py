"""Moderation at a table (issue 42): a table left without people closes after
``idle_minutes`` with its ledger posted; the host or a chat admin hands the host role over
with ``/host SEAT`` (refusals say who may); a player kicked during a hand takes the seat back
from the AI that kept it with /join, between hands."""

from __future__ import annotations

from dataclasses import replace

from bot.reading.command import parse_command
from storage import Database
from tests.bot.harness import FakeClock, Harness


async def ann_bob_and_two_ai(seed: int = 3, *settings: str) -> Harness:
    h = Harness(await Database.open(":memory:"), FakeClock(), seed)
    await h.say("ann", "/new situan", lang="en")
    await h.say("bob", "/join", lang="en")
    for setting in settings:
        await h.say("ann", f"/settings {setting}")
    for _ in range(2):
        await h.say("ann", "/addbot")
    await h.say("ann", "/start")
    return h


async def as_admin(h: Harness, user: str, text: str) -> list[str]:
    command = parse_command(text, user, user.title(), "group-1", False, "en")
    assert command is not None
    before = len(h.recorder.sent)
    await h.deliver(replace(command, admin=True))
    return [m.text for m in h.recorder.sent[before:]]


def texts(sent) -> list[str]:
    return [m.text for m in sent]


async def test_a_table_left_by_its_people_closes_after_idle_minutes_with_its_ledger():
    """Both people left during the hand: it is played out for them, then the table pauses
    (nobody played) and closes ``idle_minutes`` later, its ledger posted."""
    h = await ann_bob_and_two_ai(3, "idle_minutes 10")
    table = h.table()
    await h.say("ann", "/leave")
    await h.say("bob", "/leave")
    assert not table.has_people()
    await h.run_until(lambda: table.on_hold or table.state == "closed", limit=5000)
    assert table.on_hold and table.hand_number == 1  # no hand of AI players alone
    paused_at = h.clock.now
    await h.run_until(lambda: table.state == "closed", limit=5000)
    assert 600 <= h.clock.now - paused_at < 601  # ten minutes, not before
    group = h.recorder.texts("group")
    closing = [t for t in group if t.startswith("Nobody came back")]
    assert closing == ["Nobody came back for 10 minutes: the match ends here."]
    over = [t for t in group if t.startswith("The match is over.")]
    assert len(over) == 1 and "Ann" in over[0] and "Bob" in over[0]  # the ledger, posted
    await h.db.close()


async def test_a_person_on_auto_play_is_away():
    """On 托管 — by choice here — a person is away, not at the table: a table with nobody
    else closes after ``idle_minutes`` even in the middle of a hand."""
    h = await ann_bob_and_two_ai(3, "idle_minutes 1")
    table = h.table()
    await h.say("bob", "/leave")
    await h.say("ann", "/auto on")
    start = h.clock.now
    while h.clock.now - start < 150 and table.state == "playing":
        h.clock.now = max(h.clock.now, table.deadline)
        await h.manager.tick()
    assert table.state == "closed" and 60 <= h.clock.now - start < 62
    said = h.recorder.texts("group")
    assert "Nobody has been at the table for 1 minutes: the match ends here." in said
    await h.db.close()


async def test_a_person_playing_keeps_the_table_open():
    h = await ann_bob_and_two_ai(3, "idle_minutes 1")
    table = h.table()
    await h.say("bob", "/leave")
    start = h.clock.now
    while h.clock.now - start < 150 and table.state == "playing":
        if table.turn_seat == 0:
            h.clock.advance(1)
            await h.say("ann", "/auto on")  # a move of her own, then back to playing
            await h.say("ann", "/auto off")
            continue
        h.clock.now = max(h.clock.now, table.deadline)
        await h.manager.tick()
    assert h.clock.now - start >= 150 and table.state == "playing"  # past idle_minutes
    assert table.alone_since is None
    assert not [t for t in h.recorder.texts("group") if t.startswith("Nobody has been")]
    await h.db.close()


async def test_the_host_hands_the_host_role_over():
    h = await ann_bob_and_two_ai()
    table = h.table()
    refused = texts(await h.say("bob", "/host 2"))
    assert refused == ["Only the host or an admin of this chat can hand the host role over."]
    assert table.host == "ann"
    assert texts(await h.say("ann", "/host 3")) == [
        "Only a person at the table can host it: seat 3 has none."
    ]
    assert texts(await h.say("ann", "/host")) == [
        "Say /host and the seat of the new host (1 to 4)."
    ]
    assert texts(await h.say("ann", "/host 1")) == ["Ann hosts the table already."]
    assert table.host == "ann"
    assert texts(await h.say("ann", "/host 2")) == ["Bob is now the host."]
    assert table.host == "bob"
    assert h.table().host == "bob"
    refused = texts(await h.say("ann", "/host 1"))  # no longer hers to give
    assert refused == ["Only the host or an admin of this chat can hand the host role over."]
    await h.db.close()


async def test_a_chat_admin_hands_the_host_role_over():
    h = await ann_bob_and_two_ai()
    assert await as_admin(h, "zoe", "/host 2") == ["Bob is now the host."]
    assert h.table().host == "bob"
    await h.db.close()


async def test_the_host_role_survives_a_restart():
    h = await ann_bob_and_two_ai()
    await h.say("ann", "/host 2")
    again = Harness(h.db, h.clock, 3)
    await again.manager.restore()
    assert again.table().host == "bob"
    await h.db.close()


async def test_a_player_kicked_in_a_hand_comes_back_between_hands():
    h = await ann_bob_and_two_ai()
    table = h.table()
    sent = await h.say("ann", "/kick 2")
    assert [m.text for m in sent if m.kind == "group"] == [
        "Bob was removed from seat 2; an AI player takes over the hand. They may come back "
        "with /join from the next hand."
    ]
    hand, told = [m for m in sent if m.user == "bob"]  # his hand retired, then one line
    assert hand.slot is not None and hand.slot.startswith("hand ") and hand.buttons == ()
    assert told.slot is None and told.text == (
        "Ann removed you from seat 2 at Situan (四团) · Ann: an AI player plays the rest of "
        "this hand for you. Say /join there from the next hand to take your seat back."
    )
    seat = table.seats[1]
    assert seat is not None and seat.ai and seat.stands_in_for == "bob"
    assert texts(await h.say("bob", "/join")) == ["A hand is running; join when it is over."]
    await h.run_until(lambda: table.state == "between")
    assert texts(await h.say("bob", "/join")) == ["Bob is back at seat 2."]
    seat = table.seats[1]
    assert seat is not None and seat.user == "bob" and not seat.ai
    await h.db.close()


async def test_a_kicked_player_may_take_only_their_own_seat_back():
    """Between hands the stand-in keeps the seat for its player: someone else who /joins
    gets a free seat or is told the table is full, never the kept one."""
    h = await ann_bob_and_two_ai()
    table = h.table()
    await h.say("ann", "/kick 2")
    await h.run_until(lambda: table.state == "between")
    assert texts(await h.say("cat", "/join", lang="en")) == ["The table is full."]
    assert texts(await h.say("bob", "/join 3")) == ["Seat 3 is taken."]
    assert texts(await h.say("bob", "/join 2")) == ["Bob is back at seat 2."]
    await h.db.close()

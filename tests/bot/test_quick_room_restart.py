"""A quick table (issue 54) whose process dies mid-hand, as ``kill -9`` ends it: no lease
given up, no store closed. A new manager on the same SQLite file (or PostgreSQL database)
restores it: the hand is where it was, each person is told privately in their own language
that it was restored, the narration of each trick goes on to each of them in their own, the
hand ends and is rated once, and each may say /quick again."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.hosting.process_identity import Ownership
from bot.reading.command import parse_command
from bot.table.state import PLAYING
from bot.views.outgoing import Kind, Outgoing
from storage import open_database
from tests.bot.harness import FakeClock, Harness
from tests.bot.test_ratings import assert_rated_as_openskill
from tests.pg_server import PostgresServer
from tests.storage.conftest import postgres_server

__all__ = ["postgres_server"]  # the PostgreSQL server of the storage tests, once a session

PEOPLE = (  # user, their private chat, their name, their language
    ("tg:u1", "tg:1", "Ann", "en"),
    ("dc:u2", "dc:900", "Bob", "zh-Hans"),
    ("you", "console", "Cy", "en"),
)
LANGS = {user: lang for user, _, _, lang in PEOPLE}
CHATS = {user: chat for user, chat, _, _ in PEOPLE}
RESTORED = {"en": "Table restored after a restart.", "zh-Hans": "机器人重启，牌桌已恢复。"}
TRICKS_BEFORE = 3
LEASE = 15.0
"""On PostgreSQL each manager is a process sharing the database, with leases this long."""
Store = tuple[str, Callable[[str], Ownership | None]]
"""A store's address, and the ownership of a process called so (None: it shares nothing)."""


def in_own_language(lang: str, text: str) -> bool:
    """Whether ``text`` reads as ``lang``: no Chinese in English (the game's name aside),
    no English words in 简体."""
    if lang == "en":
        return not re.search(r"[\u4e00-\u9fff]", text.replace("四团", ""))
    return not re.search(r"\b(?:hand|Hand|Turn|Table|restored|auto|Points|team)\b", text)


@pytest.fixture(params=["sqlite", "postgresql"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Store:
    """The store's address, and each process's ownership (a real process on PostgreSQL)."""
    if request.param == "sqlite":
        return str(tmp_path / "quick.sqlite3"), lambda name: None
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.database(), lambda name: Ownership(name, "", LEASE)


async def started(address: str, clock: FakeClock, ownership: Ownership | None) -> Harness:
    return Harness(await open_database(address), clock, seed=3, ownership=ownership)


def trick(message: Outgoing) -> int:
    """Which trick's message of a quick table's narration ``message`` is (its slot's)."""
    assert message.slot is not None
    return int(message.slot.rsplit(" ", 1)[1])


def narration(sent: list[Outgoing], user: str) -> list[Outgoing]:
    return [m for m in sent if m.user == user and (m.slot or "").startswith("quick")]


async def test_a_quick_table_killed_mid_hand_comes_back_told_to_each_in_their_own_language(
    store: Store,
):
    address, ownership = store
    clock = FakeClock()
    first = await started(address, clock, ownership("first"))
    for user, chat, name, lang in PEOPLE:
        await first.deliver(parse_command("/quick situan", user, name, chat, True, lang))
    clock.advance(2)
    first.manager.quick.quick_wait = 1.0
    (chat,) = await first.manager.quick.match()
    table = first.table(chat)
    for user in LANGS:  # each person goes on 托管 from their own private chat
        await first.say(user, "/auto on", chat=CHATS[user], private=True)
    while len(table.closings.events) < TRICKS_BEFORE:
        if table.deadline is not None:
            clock.now = max(clock.now, table.deadline)
        await first.manager.tick()
    history = [repr(action) for action in table.hand.history]
    held = [table.hand.cards_of(seat) for seat in range(4)]
    tricks_before = {trick(m) for m in first.recorder.sent if (m.slot or "").startswith("quick")}
    assert max(tricks_before) == TRICKS_BEFORE  # the trick under way has its message

    # Killed: nothing given up, nothing closed. A new process, on the same store, once the
    # dead one's leases ran out (on PostgreSQL).
    clock.advance(LEASE + 1)
    second = await started(address, clock, ownership("second"))
    assert not second.manager.quick.people and not second.manager.quick.told
    await second.manager.restore()
    restored = second.manager.tables[chat]
    assert restored.state == PLAYING and restored.hand_number == 1
    assert [repr(action) for action in restored.hand.history] == history
    assert [restored.hand.cards_of(seat) for seat in range(4)] == held
    assert second.manager.quick.people[chat] == tuple(
        (seat.user, LANGS[seat.user]) for seat in restored.seats if seat and not seat.ai
    )
    told = list(second.recorder.sent)
    assert told and all(m.kind == Kind.PRIVATE and m.user in LANGS for m in told)
    for user, lang in LANGS.items():
        mine = narration(told, user)
        assert len({m.slot for m in mine}) == 1  # one message, edited: the line, then the table
        said = mine[-1]
        assert said.text.startswith(RESTORED[lang]) and "\n\n" in said.text, (user, said.text)
        assert in_own_language(lang, said.text), (user, said.text)
        # The message of the trick under way, not an earlier trick's again.
        assert trick(said) == TRICKS_BEFORE, said.slot

    # The hand plays on to its end by the timers, each trick told to each person.
    for _ in range(5000):
        if not restored.is_open():
            break
        if restored.deadline is not None:
            clock.now = max(clock.now, restored.deadline)
        await second.manager.tick()
    assert not restored.is_open(), "the restored quick table did not end"
    sent = second.recorder.sent
    assert all(m.kind == Kind.PRIVATE and m.user in LANGS for m in sent)
    for user, lang in LANGS.items():
        mine = narration(sent, user)
        assert len({m.slot for m in mine}) > 3, f"{user} was not told the tricks after the restart"
        assert min(trick(m) for m in mine) == TRICKS_BEFORE
        assert all(in_own_language(lang, m.text) for m in sent if m.user == user), user
        assert any("Ratings:" in m.text or "等级分：" in m.text for m in sent if m.user == user)

    # Rated once, by openskill's own numbers.
    moves = await second.db.rating_moves("situan", 0.0)
    assert sorted(move.user for move in moves) == sorted(LANGS)
    await assert_rated_as_openskill(second.db, restored)

    # Each may queue again.
    for user, private, name, lang in PEOPLE:
        command = parse_command("/quick situan", user, name, private, True, lang)
        await second.deliver(command)
        assert (await second.db.queue_entry(user)) is not None, user
    await second.db.close()
    await first.db.close()  # the dead process's connection, let go only now

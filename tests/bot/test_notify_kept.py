"""/notify as storage keeps it: when a subscriber was told is stored with the step that opens
the table (a failed step leaves them untold, and the alert comes with the next table), and
whom the Join button of an alert admits survives a restart."""

from __future__ import annotations

import pytest

from bot.hosting.keeping import TableKeeper
from storage import Database
from tests.bot.harness import FakeClock, Harness

NOTICE = "(四团) table opened in"


def notices_to(h: Harness, user: str) -> list[str]:
    return [
        m.text
        for m in h.recorder.sent
        if m.user == user and m.kind == "private" and NOTICE in m.text
    ]


async def bob_subscribed(path: str) -> Harness:
    h = Harness(await Database.open(path), FakeClock(), 1)
    await h.say("bob", "/notify", lang="en")
    return h


async def test_the_alert_is_marked_with_the_step(tmp_path):
    h = await bob_subscribed(str(tmp_path / "a.sqlite3"))
    await h.say("ann", "/new situan", lang="en")
    assert len(notices_to(h, "bob")) == 1
    assert await h.db.subscribers("group-1") == [("bob", h.clock.now)]
    await h.db.close()


async def test_a_failed_opening_leaves_the_subscriber_untold(tmp_path, monkeypatch):
    h = await bob_subscribed(str(tmp_path / "a.sqlite3"))
    original = TableKeeper.store

    async def store_then_fail(self, tx, table, effects):
        await original(self, tx, table, effects)
        raise RuntimeError("the step fails after everything was written")

    with monkeypatch.context() as patched:
        patched.setattr(TableKeeper, "store", store_then_fail)
        await h.say("ann", "/new situan", lang="en")
    assert await h.db.subscribers("group-1") == [("bob", None)]  # nothing of the step stays
    assert notices_to(h, "bob") == []  # and nothing was sent
    await h.say("ann", "/new situan", lang="en")
    assert len(notices_to(h, "bob")) == 1  # the next opening tells him: no 10 minutes lost
    await h.db.close()


@pytest.mark.parametrize("told", [True, False])
async def test_the_join_button_of_an_alert_works_after_a_restart(tmp_path, told):
    path = str(tmp_path / "a.sqlite3")
    h = await bob_subscribed(path)
    if not told:  # told of an earlier table: not of this one
        await h.say("ann", "/new situan", lang="en")
        await h.say("ann", "/stop")
        h.clock.advance(60)
    await h.say("ann", "/new situan", lang="en")
    assert h.manager.invited("group-1", "bob") is told
    await h.db.close()

    again = Harness(await Database.open(path), h.clock, 1)
    await again.manager.restore()
    assert again.manager.invited("group-1", "bob") is told
    assert not again.manager.invited("group-1", "cat")
    await again.db.close()


async def test_a_group_without_a_name_is_never_listed_by_its_id(tmp_path):
    h = await bob_subscribed(str(tmp_path / "a.sqlite3"))  # no table, no title given
    listed = [m.text for m in await h.say("bob", "/notify", chat="bob", private=True, lang="en")]
    assert listed == [
        "You are told when a game starts in:\n"
        "1. a group whose name the platform did not give\n"
        "/notify 1 stops the first, /notify all stops them all."
    ]
    stopped = [m.text for m in await h.say("bob", "/notify 1", chat="bob", private=True, lang="en")]
    assert stopped == ["No more game alerts from a group whose name the platform did not give."]
    assert all("group-1" not in text for text in listed + stopped)
    await h.db.close()

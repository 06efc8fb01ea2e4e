"""storage of issue 42 on SQLite and PostgreSQL: /notify subscriptions and when each
subscriber was last told, achievements announced once, and the finished hands records read."""

from __future__ import annotations

from storage import Database, LedgerLine


def line(user: str, amount: str) -> LedgerLine:
    return LedgerLine(user, user.upper(), amount, False, "0")


async def test_a_subscription_is_kept_once_and_removed_once(db: Database):
    async with db.transaction() as tx:
        await tx.subscribe("g1", "tg:1", "Old name", 10.0)
        await tx.subscribe("g2", "tg:1", "Second", 20.0)
        await tx.subscribe("g1", "tg:2", "Old name", 30.0)
        await tx.subscribe("g1", "tg:1", "New name", 40.0)  # again: the title follows
    assert await db.subscriptions_of("tg:1") == [("g1", "New name"), ("g2", "Second")]
    assert await db.subscribers("g1") == [("tg:1", None), ("tg:2", None)]
    async with db.transaction() as tx:
        assert await tx.unsubscribe("g1", "tg:1")
        assert not await tx.unsubscribe("g1", "tg:1")
        assert not await tx.unsubscribe("g9", "tg:1")
    assert await db.subscriptions_of("tg:1") == [("g2", "Second")]
    assert await db.subscribers("g1") == [("tg:2", None)]
    assert await db.subscriptions_of("tg:9") == []


async def test_told_at_is_kept_per_group_and_person(db: Database):
    async with db.transaction() as tx:
        for user in ("tg:1", "tg:2", "tg:3"):
            await tx.subscribe("g1", user, "G", 1.0)
        await tx.subscribe("g2", "tg:1", "H", 1.0)
        await tx.mark_told("g1", ["tg:1", "tg:3"], 1234.5)
    assert await db.subscribers("g1") == [("tg:1", 1234.5), ("tg:2", None), ("tg:3", 1234.5)]
    assert await db.subscribers("g2") == [("tg:1", None)]
    async with db.transaction() as tx:
        await tx.mark_told("g1", ["tg:1"], 2000.0)
    assert (await db.subscribers("g1"))[0] == ("tg:1", 2000.0)


async def test_a_rolled_back_mark_leaves_the_person_untold(db: Database):
    async with db.transaction() as tx:
        await tx.subscribe("g1", "tg:1", "G", 1.0)
    try:
        async with db.transaction() as tx:
            await tx.mark_told("g1", ["tg:1"], 50.0)
            raise RuntimeError("the step failed")
    except RuntimeError:
        pass
    assert await db.subscribers("g1") == [("tg:1", None)]


async def test_an_achievement_is_announced_once(db: Database):
    async with db.transaction() as tx:
        assert await tx.announce("g1", "tg:1", "double", 5.0)
        assert not await tx.announce("g1", "tg:1", "double", 6.0)
        assert await tx.announce("g1", "tg:2", "double", 6.0)
        assert await tx.announce("g2", "tg:1", "double", 6.0)
    async with db.transaction() as tx:
        assert not await tx.announce("g1", "tg:1", "double", 7.0)  # also in a later one
    assert await db.announced("g1") == {("tg:1", "double"), ("tg:2", "double")}
    assert await db.announced("g3") == set()


async def test_finished_hands_read_back_with_their_lines_in_seat_order(db: Database):
    ids = []
    for number, result in enumerate(({"declarer": 1}, {"redeal": True}), 1):
        async with db.transaction() as tx:
            hand = await tx.start_hand("g1", "m1", number, {"game": "erqiwang", "n": number})
            lines = [line(f"tg:{seat}", str(seat - 1)) for seat in (3, 1, 2)] + [
                line("ai:3", "1/2")
            ]
            await tx.finish_hand(hand, "g1", result, lines)
        ids.append(hand)
    async with db.transaction() as tx:  # unfinished: not read; another chat: not read
        await tx.start_hand("g1", "m1", 3, {"game": "erqiwang"})
        other = await tx.start_hand("g2", "m2", 1, {"game": "situan"})
        await tx.finish_hand(other, "g2", {"x": 1}, [line("tg:1", "5")])
    hands = await db.finished_hands("g1")
    assert [h.id for h in hands] == ids
    first = hands[0]
    assert first.game == "erqiwang" and first.result == {"declarer": 1}
    assert first.lines == [
        ("tg:3", "TG:3", "2"),
        ("tg:1", "TG:1", "0"),
        ("tg:2", "TG:2", "1"),
        ("ai:3", "AI:3", "1/2"),
    ]
    assert first.started > 0
    assert hands[1].result == {"redeal": True}
    later = await db.finished_hands("g1", after=ids[0])
    assert [h.id for h in later] == [ids[1]]
    assert await db.finished_hands("g1", after=ids[1]) == []
    assert [h.game for h in await db.finished_hands("g2")] == ["situan"]


async def test_a_moved_group_takes_its_subscriptions_and_achievements(db: Database):
    async with db.transaction() as tx:
        await tx.subscribe("old", "tg:1", "G", 1.0)
        await tx.announce("old", "tg:1", "double", 2.0)
        await tx.move_table("old", "new")
    assert await db.subscribers("new") == [("tg:1", None)]
    assert await db.subscribers("old") == []
    assert await db.announced("new") == {("tg:1", "double")}
    assert await db.announced("old") == set()

"""The quick room on two bot processes sharing PostgreSQL (issue 54): 200 people say
``/quick situan`` at once — Telegram people through the real python-telegram-bot webhooks of
both processes, as a load balancer spreads them, Discord people at the process that runs
Discord's shard 0 (Discord delivers every direct message there) — while both processes match
the queue as their heartbeats do. Each person is seated once, each table opened once, held by
the process that opened it; a table with a Discord player is held only by the process that
hears Discord's direct messages; each Telegram person is shown their hand once, privately."""

from __future__ import annotations

import asyncio
from collections import Counter

from adapters.router import SendRouter
from bot.community.quick_seating import is_quick
from bot.hosting.quick_reach import DISCORD, TELEGRAM, Reach
from bot.reading.command import Command
from bot.views.outgoing import Kind, Outgoing
from storage import Database
from tests.cluster.test_webhook_forwarding import LONG_LEASE, Process
from tests.telegram.fake_bot_api import FakeBotAPI, user
from tests.waiting import eventually

TELEGRAM_PEOPLE = 160
DISCORD_PEOPLE = 40


async def test_two_processes_seat_each_of_two_hundred_quick_people_once(postgres_server):
    api = FakeBotAPI()
    base = await api.start()
    address = postgres_server.database()
    # a runs Telegram and Discord's shard 0; b runs Telegram and Discord's other shards.
    # Nothing renews leases here (no timers run): a lease longer than any run keeps them.
    both = Reach.of_process(True, True, (0,))
    a = Process("a", base, await Database.open(address), lease=LONG_LEASE, reach=both)
    telegram_only = Reach.of_process(True, True, (1,))
    b = Process("b", base, await Database.open(address), lease=LONG_LEASE, reach=telegram_only)
    assert a.manager.quick.reach.platforms == {TELEGRAM, DISCORD}
    assert b.manager.quick.reach.platforms == {TELEGRAM}
    discord_sent: list[Outgoing] = []

    async def to_discord(message: Outgoing) -> None:
        discord_sent.append(message)

    for process in (a, b):
        router = SendRouter()
        router.routes.update({"tg:": process.adapter.outbox, "dc:": to_discord})
        process.manager.send = router
    await a.adapter.start()
    await b.adapter.start()
    everyone = [f"tg:u{1000 + n}" for n in range(TELEGRAM_PEOPLE)]
    everyone += [f"dc:{5000 + n}" for n in range(DISCORD_PEOPLE)]
    done = asyncio.Event()
    beating: list[asyncio.Task[None]] = []
    try:

        async def telegram_quick(n: int) -> None:
            process = (a, b)[n % 2]
            person = user(1000 + n, f"T{n}", "en")
            await process.post("/quick situan", 1 + n, sender=person, chat=1000 + n)

        async def discord_quick(n: int) -> None:
            said = Command(
                "quick", ("situan",), f"dc:{5000 + n}", f"D{n}", f"dc:{9000 + n}", True, "en"
            )
            (answer,) = await a.manager.handle(said)
            assert answer.kind == Kind.REPLY and "quick queue" in answer.text

        async def heartbeats(process: Process) -> None:
            while not done.is_set():  # as the heartbeat runs the matching step
                await process.manager.quick.match()
                await asyncio.sleep(0)

        async def a_joins_once_b_has_matched() -> None:
            # Which process's heartbeat comes first is the scheduler's: a starts once b has
            # opened a table, so that both are shown matching, then both go on together.
            for _ in range(2000):  # awaited, bounded
                if b.manager.tables:
                    break
                await asyncio.sleep(0.005)
            beating.append(asyncio.create_task(heartbeats(a)))

        beating.append(asyncio.create_task(heartbeats(b)))
        await asyncio.gather(
            *(telegram_quick(n) for n in range(TELEGRAM_PEOPLE)),
            *(discord_quick(n) for n in range(DISCORD_PEOPLE)),
            a_joins_once_b_has_matched(),
        )

        async def all_seated() -> bool:
            seated = sum(len(users) for _, users in await a.manager.db.quick_tables())
            return seated >= len(everyone)

        for _ in range(2000):  # awaited, bounded: a bug fails here rather than hangs
            if await all_seated():
                break
            await asyncio.sleep(0.01)
        done.set()
        await asyncio.gather(*beating)

        tables = await a.manager.db.quick_tables()
        seated = Counter(person for _, users in tables for person in users)
        assert sorted(seated) == sorted(everyone) and set(seated.values()) == {1}
        chats = [chat for chat, _ in tables]
        assert len(set(chats)) == len(chats) == len(everyone) // 4 and all(map(is_quick, chats))
        # Each table is open at one process only, the one holding its lease.
        at_a = {chat for chat in chats if chat in a.manager.tables}
        at_b = {chat for chat in chats if chat in b.manager.tables}
        assert at_a | at_b == set(chats) and not at_a & at_b
        leases = await a.manager.db.leases_of(chats, a.manager.clock())
        assert all(leases[chat].owner == ("a" if chat in at_a else "b") for chat in chats)
        # Only a hears a Discord player's direct messages: every such table is a's.
        for chat, users in tables:
            if any(person.startswith("dc:") for person in users):
                assert chat in at_a
        assert at_b, "b opened no table: the test would not show two processes matching"
        # Each Telegram person is shown their own hand once, privately; no group hears it.
        await eventually(
            lambda: all_hands_shown(api), 30.0, 0.05, "each Telegram person shown their hand"
        )
        for n in range(TELEGRAM_PEOPLE):
            hands = [m for m in api.chat_messages(1000 + n) if "Your hand" in hand_text(m)]
            assert len(hands) == 1, (n, hands)
        assert not [c for c in api.calls_to("sendMessage") if int(c.params["chat_id"]) < 0]
        dealt = Counter(m.user for m in discord_sent if (m.slot or "").startswith("hand"))
        assert set(dealt) == {p for p in everyone if p.startswith("dc:")}
        assert all(m.kind == Kind.PRIVATE and m.user for m in discord_sent)
    finally:
        done.set()
        await asyncio.gather(*beating)
        await a.adapter.stop()
        await b.adapter.stop()
        await api.stop()
        await a.manager.db.close()
        await b.manager.db.close()


def hand_text(message: dict[str, object]) -> str:
    return str(message.get("text") or message.get("caption") or "")


def all_hands_shown(api: FakeBotAPI) -> bool:
    return all(
        any("Your hand" in hand_text(m) for m in api.chat_messages(1000 + n))
        for n in range(TELEGRAM_PEOPLE)
    )

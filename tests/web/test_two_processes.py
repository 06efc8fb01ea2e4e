"""Issue 50 item 1: two bot processes on one PostgreSQL database, each serving the web table,
and pages on both. In real headless Chromium, for each game: seat 0's page reaches process A
(which holds the table) and seat 1's page process B (which does not). B serves its page from
the store and pushes it every step A stores; the move made on seat 1's page is carried out by
A. Then A is killed (kill -9) while the table waits for seat 0: seat 0's page reconnects —
through its doorway, now to B — and its move is carried out by B, which has taken the table
over; the hand finishes there. Every frame either page received is checked against the
engine's view of that seat (no card it may not know), the stored hand replays to the stored
result, and each page's move is stored once."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from adapters.web.auth import LinkSigner
from adapters.web.links import seat_link
from engine import game_of
from engine.actions import Auto
from storage import Database
from tests.telegram.fake_bot_api import FakeBotAPI, text_update, user
from tests.web.test_browser import open_page, tap
from tests.web.two_processes import SECRET, BotProcess, Doorway, Telegram, seen_views, unseen_cards

pytestmark = pytest.mark.asyncio(loop_scope="session")
GROUPS = {"situan": -9101, "erqiwang": -9102}
ANN, BOB = user(11, "Ann", "en"), user(12, "Bob", "en")
SEATED = ("tg:u11", "tg:u12")
NEVER = 120.0
"""What a step waited for that has not come in this long never will (the test would hang)."""


async def until(what: Callable[[], Any], seconds: float = NEVER) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        found = what()
        if asyncio.iscoroutine(found):
            found = await found
        if found:
            return found
        assert time.monotonic() < deadline, "never happened"
        await asyncio.sleep(0.05)


def states(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [f["state"] for f in frames if f.get("type") == "state"]


async def test_pages_on_two_processes_play_a_hand_of_each_game_through_a_kill_9(
    browser: Any, postgres_server: Any, tmp_path: Path
) -> None:
    api = FakeBotAPI()
    base = await api.start()
    address = postgres_server.database()
    a = BotProcess("a", base, address, tmp_path)
    b = BotProcess("b", base, address, tmp_path)
    await asyncio.gather(a.start(), b.start())
    db = await Database.open(address)
    doors = [Doorway([a.web, b.web]), Doorway([b.web, a.web])]
    telegram = Telegram()
    try:
        for door in doors:
            await door.start()
        for game, group in GROUPS.items():
            for sender, text in (
                (ANN, f"/new {game}"),
                (ANN, "/settings ai_delay 0"),
                (ANN, "/settings turn_seconds 600"),
                (BOB, "/join"),
                (ANN, "/addbot"),
                (ANN, "/addbot"),
                (ANN, "/start"),
            ):
                await telegram.post(a, text_update(sender, group, text))
        chats = {game: f"tg:{group}" for game, group in GROUPS.items()}
        for chat in chats.values():
            await until(lambda chat=chat: _dealt(db, chat))
            assert (await db.leases_of([chat], time.time()))[chat].owner.startswith("a#")

        signer = LinkSigner(SECRET.encode())
        frames: dict[tuple[str, int], list[dict[str, Any]]] = {}
        pages: dict[tuple[str, int], Any] = {}
        for game, chat in chats.items():
            for seat in (0, 1):
                seen = frames[game, seat] = []
                url = seat_link(doors[seat].base, signer, SEATED[seat], chat, seat)
                pages[game, seat] = page = await open_page(browser, url, seen)
                await page.locator('[data-role="hand"] [data-card]').first.wait_for()

        # Seat 1's page is on B, which does not hold the table: B judges its choice from
        # the store, and its moves go to A — a card (or a pass) in 四团, then 托管.
        await turn_of_seat_1(pages["situan", 0], frames["situan", 0], frames["situan", 1])
        await play_or_pass(pages["situan", 1])
        await until(lambda: _acted(db, chats["situan"], 1, ("play", "pass")))
        for game in chats:
            await pages[game, 1].locator('[data-action="auto"][data-args="on"]').click()
        for game, chat in chats.items():
            await until(lambda chat=chat: _autos(db, chat, 1))
            # The table waits for seat 0 (a person): its page, on A, is told so by A …
            await until(lambda game=game: any(s["turn"] == 0 for s in states(frames[game, 0])))
            # … and seat 1's page, on B, follows every step A stored.
            await until(lambda game=game, chat=chat: _page_has_last_step(db, chat, frames[game, 1]))
            lease = (await db.leases_of([chat], time.time()))[chat]
            assert lease.owner.startswith("a#"), "the move was carried out by A, which holds it"

        before = {game: await pages[game, 0].evaluate(CONNECTION) for game in chats}
        a.kill()  # mid-hand: each table waits for seat 0
        for game in chats:  # the page reconnects (now to B) and is given the table again
            # A state A sent just before it died may still come in by the dead connection (a
            # tap on it would be lost): the 托管 is pressed once a state came by the next one.
            await pages[game, 0].wait_for_function(
                f"() => Number({CONNECTION}) > {before[game]}", timeout=NEVER * 1000
            )
            await pages[game, 0].locator('[data-action="auto"][data-args="on"]').click()
        for game, chat in chats.items():
            try:
                await until(lambda chat=chat: _finished(db, chat))
            except AssertionError:  # say where it stopped: the stored hand's end and B's log
                hand = (await db.hands_of(chat))[0]
                raise AssertionError(
                    f"{game} never finished; its last stored actions {hand.actions[-6:]};"
                    f" B's log ends:\n{b.log_path.read_text()[-3000:]}"
                ) from None
            lease = (await db.leases_of([chat], time.time()))[chat]
            assert lease.owner.startswith("b#"), "B took the table over and finished the hand"

            # Nothing lost or doubled: the stored hand replays to its stored result, and each
            # page's move is in it once.
            hand = (await db.hands_of(chat))[0]
            replayed = game_of(game).hand_from_record(hand.start)
            moves = [game_of(game).action_from_json(raw) for raw in hand.actions]
            for move in moves:
                replayed.apply(move)
            assert replayed.over
            autos = [m.seat for m in moves if isinstance(m, Auto) and m.on]
            assert sorted(autos) == [0, 1], autos
            for seat in (0, 1):  # both pages saw the end, and never a card they may not know
                seen = [s for s in states(frames[game, seat]) if s["number"] == 1]
                await until(
                    lambda game=game, seat=seat: any(
                        s["phase"] != "playing" for s in states(frames[game, seat])
                    )
                )
                assert seen and all(s["you"] == seat for s in seen)
                views = seen_views(hand.start, hand.actions, seat)
                for state in seen:
                    assert not unseen_cards(state, views), (seat, unseen_cards(state, views))
        for page in pages.values():
            await page.context.close()
    finally:
        a.kill()
        await b.stop()
        for door in doors:
            await door.close()
        await db.close()
        await api.stop()


CONNECTION = "document.body.dataset.connection"
"""The page's connection that brought its newest state (1 for the first, then one more each
time it reconnects)."""
READY_OR_REFUSED = """() => document.querySelector('[data-action="play"][data-ready="true"]')
    !== null || document.querySelector('[data-role="refusal"]').textContent !== ''"""
"""The page has the host's verdict on the cards chosen (a function: the page's CSP)."""


async def play_or_pass(page: Any) -> None:
    """Seat 1's page, its turn come: a single card the host says may be played (tapped
    one after another), else pass."""
    cards = page.locator('[data-role="hand"] [data-card]')
    refusal = page.locator('[data-role="refusal"]')
    for index in range(await cards.count()):
        await refusal.evaluate("el => el.textContent = ''")
        await tap(page, [index])
        await page.wait_for_function(READY_OR_REFUSED)
        if await page.locator('[data-action="play"][data-ready="true"]').count():
            await page.locator('[data-action="play"]').click()
            return
        await tap(page, [index])  # unchosen
    await page.locator('[data-action="pass"]').click()


async def turn_of_seat_1(first: Any, seen_first: list[Any], seen_second: list[Any]) -> None:
    """Until seat 1 is to play: seat 0's page plays when its turn comes first (on A)."""
    deadline = time.monotonic() + NEVER
    while (states(seen_second) or [{}])[-1].get("turn") != 1:
        last = (states(seen_first) or [{}])[-1]
        if last.get("turn") == 0:
            await play_or_pass(first)
            await until(lambda moves=last["moves"]: states(seen_first)[-1]["moves"] > moves)
        assert time.monotonic() < deadline, "seat 1 never came to play"
        await asyncio.sleep(0.05)


async def _acted(db: Database, chat: str, seat: int, acts: tuple[str, ...]) -> bool:
    hands = await db.hands_of(chat)
    return bool(hands) and any(
        raw.get("seat") == seat and raw.get("act") in acts for raw in hands[0].actions
    )


async def _dealt(db: Database, chat: str) -> bool:
    return bool(await db.hands_of(chat))


async def _autos(db: Database, chat: str, seat: int) -> bool:
    hands = await db.hands_of(chat)
    return (
        any(raw.get("act") == "auto" and raw.get("seat") == seat for raw in hands[0].actions)
        if hands
        else False
    )


async def _finished(db: Database, chat: str) -> bool:
    hands = await db.hands_of(chat)
    return bool(hands) and hands[0].result is not None


async def _page_has_last_step(db: Database, chat: str, seen: list[dict[str, Any]]) -> bool:
    """Whether the page's newest state is of the table's last stored step (its moves)."""
    stored = await db.open_tables(chat)
    shown = states(seen)
    return bool(stored and shown) and shown[-1]["moves"] == stored[0].settings.get("turn_count")

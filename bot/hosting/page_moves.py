"""A move made on a web page, carried out by the process that holds its table.

A page may be connected to a process that does not hold its table (`bot.hosting.page_questions`).
Its move is then forwarded to the table's owner — the lease names it — as a signal on the
shared store (`MOVES`, no broker and no address needed: any adapter's process takes them),
and the owner answers with the player's own replies (`ANSWERS`). The owner runs it as any
command (`bot.hosting.manager.TableManager.handle`): its posts to the chat go out from there.

Never two owners, never a move lost or doubled: a forwarded move carries a delivery key
(`bot.reading.command.Delivery`, platform ``web``) stored with the step it causes. If the owner does
not answer within its lease (it is dying), the move is run here — which takes the table
over once the lease has run out (`bot.hosting.table_leases`), and drops the move if the owner stored
it after all; while the owner still holds the lease the player is told to try again, and nothing
changes. With one process (no signals) a move is simply run here."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from bot.hosting.manager import TableManager
from bot.reading.command import Command, Delivery
from bot.views.outgoing import Kind
from storage.signals import MISSED, Signals

log = logging.getLogger(__name__)
MOVES = "cardbot_moves"
"""``{"to": owner, "from": asker, "id": …, "command": {…}}``: run this move, owner."""
ANSWERS = "cardbot_answers"
"""``{"to": asker, "id": …, "said": [texts]}``: the move was run; the player was told these."""
ANSWER_WITHIN = 2.0
"""Seconds a live owner answers a forwarded move within (on a loaded machine too)."""
PLATFORM = "web"
"""The platform of a forwarded move's delivery key."""


class PageMoves:
    """Carries out the moves of the pages connected to this process (``signals`` None: one
    process). Start it (`start`) before pages connect."""

    def __init__(
        self,
        manager: TableManager,
        signals: Signals | None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.manager = manager
        self.signals = signals
        self.clock = clock
        self.waiting: dict[str, asyncio.Future[list[str]]] = {}
        """The moves forwarded from here, by id, until their owner answers."""
        self.running: set[asyncio.Task[None]] = set()
        self.forwarded = 0
        """Moves handed to another process (for tests and the bench)."""
        self.taken = 0
        """Moves another process handed here."""

    async def start(self) -> None:
        if self.signals is not None and self.manager.ownership is not None:
            await self.signals.listen(MOVES, self._asked)
            await self.signals.listen(ANSWERS, self._answered)

    async def stop(self) -> None:
        for task in list(self.running):
            task.cancel()
        await asyncio.gather(*self.running, return_exceptions=True)

    async def carry_out(self, command: Command) -> list[str]:
        """Run a page's move where its table is; returns the player's own replies (for the
        page), the rest sent as any command's answers are."""
        ownership = self.manager.ownership
        if self.signals is None or ownership is None or command.chat in self.manager.open:
            return await self.here(command)
        leases = await self.manager.db.leases_of([command.chat], self.clock())
        lease = leases.get(command.chat)
        if lease is None or lease.owner == ownership.owner:
            return await self.here(command)  # nobody's: taken here (`TableManager.handle`)
        move = secrets.token_hex(8)
        command = replace(command, delivery=Delivery(PLATFORM, move))
        # Waited for until its lease has run out, at the least: a live owner answers long
        # before; a dead one's table can be taken here then.
        wait = max(lease.expires - self.clock(), ANSWER_WITHIN) + ANSWER_WITHIN / 4
        said = await self._forward(lease.owner, move, command, wait)
        return await self.here(command) if said is None else said

    async def here(self, command: Command) -> list[str]:
        said = []
        for message in await self.manager.handle(command):
            if message.kind == Kind.REPLY and message.user == command.user:
                said.append(message.resolved().text)
            else:
                await self.manager.send(message)
        return said

    async def _forward(
        self, owner: str, move: str, command: Command, wait: float
    ) -> list[str] | None:
        """The owner's answer to the move; None when it gave none within ``wait`` seconds."""
        assert self.signals is not None and self.manager.ownership is not None
        answer = asyncio.get_running_loop().create_future()
        self.waiting[move] = answer
        asked = {"to": owner, "from": self.manager.ownership.owner, "id": move,
                 "command": _written(command)}  # fmt: skip
        try:
            await self.signals.send(MOVES, json.dumps(asked, ensure_ascii=False))
            self.forwarded += 1
            return await asyncio.wait_for(answer, wait)
        except TimeoutError:
            log.warning("the owner of %s did not answer a page's move: run here", command.chat)
            return None
        finally:
            self.waiting.pop(move, None)

    def _asked(self, payload: str) -> None:
        ownership = self.manager.ownership
        if payload == MISSED or ownership is None:
            return  # a move missed meanwhile is run by its asker when its wait ends
        try:
            asked = json.loads(payload)
            if asked.get("to") != ownership.owner:
                return
            command = _read(asked["command"], asked["id"])
        except (ValueError, KeyError, TypeError):
            log.warning("a forwarded move could not be read")
            return
        task = asyncio.ensure_future(self._run(command, str(asked["from"]), str(asked["id"])))
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    async def _run(self, command: Command, asker: str, move: str) -> None:
        self.taken += 1
        try:
            said = await self.here(command)
        except Exception:
            log.exception("a forwarded move at %s failed", command.chat)
            said = []
        assert self.signals is not None
        answer = {"to": asker, "id": move, "said": said}
        try:
            await self.signals.send(ANSWERS, json.dumps(answer, ensure_ascii=False))
        except Exception:  # the asker runs it itself when its wait ends: dropped as delivered
            log.exception("the answer to a forwarded move could not be sent")

    def _answered(self, payload: str) -> None:
        if payload == MISSED:
            return
        try:
            answer = json.loads(payload)
            waiting = self.waiting.get(answer.get("id"))
            said = [str(text) for text in answer.get("said", [])]
        except (ValueError, TypeError, AttributeError):
            return
        if waiting is not None and not waiting.done():
            waiting.set_result(said)


def _written(command: Command) -> dict[str, Any]:
    return {"name": command.name, "args": list(command.args), "user": command.user,
            "user_name": command.user_name, "chat": command.chat, "lang": command.lang,
            "stamp": command.stamp}  # fmt: skip


def _read(data: dict[str, Any], move: str) -> Command:
    return Command(
        str(data["name"]),
        tuple(str(a) for a in data["args"]),
        str(data["user"]),
        str(data["user_name"]),
        str(data["chat"]),
        lang=data.get("lang"),
        stamp=data.get("stamp"),
        delivery=Delivery(PLATFORM, str(move)),
    )

"""The replay page's two questions (`bot.page.replay` steps a record through, in the replay
worker: `adapters.web.replaying`):

- ``POST /replay/api``: a pasted hand record (`/export`'s), for anyone;
- ``POST /replay/api/hand``: a stored hand, asked with a credential that proves the visitor
  (a link the bot signed for them, or a Telegram Mini App's ``initData``): ``{"id": 12}``, the
  hand's id (the chat's ``/replay`` and the settlement's button), or ``{"hand": 3}``, hand 3
  of the match of the table page the visitor came from (its Replay button).

A stored hand opens from storage whatever became of its table (a match over, a table stopped
or forgotten), for who played it (its ledger lines), for a visitor the bot signed a link of
that chat for (a seat or a spectator there), and for a member of its group (``may_watch``,
Telegram's). Anyone else, and a hand that is not stored or not finished, get one answer: 404
saying what to do instead — no one learns whether a hand exists. No credential, or a forged
or expired one: 401, before the body is read."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeGuard

from aiohttp import web

from adapters.serving import BadJson, RefusalLog, ServerLimits, parse_json, read_body
from adapters.web.answers import unauthorized
from adapters.web.auth import Denied, Visitor
from adapters.web.params import chat_of_param
from adapters.web.replaying import RECORD_BYTES, Busy, Replays
from bot.community.player_records import AI_PREFIX
from bot.hosting.manager import TableManager
from bot.hosting.page_questions import PageQuestions
from bot.i18n import N_, normalize_language, t
from bot.table.table_fields import ai_name
from storage.hand_lookup import KeptHand

Prove = Callable[[str], Visitor]
"""The visitor an ``Authorization`` value proves (`Denied` when it proves no one)."""
MayWatch = Callable[[str, str], Awaitable[bool]]
HEADERS = {"Cache-Control": "no-store"}
NOT_YOURS = N_("Not a hand you played or may watch: ask /replay where you play for your own hands.")


class StoredReplays:
    """Replays of pasted records, and of stored hands for the people who may see them."""

    def __init__(
        self,
        prove: Prove,
        manager: TableManager,
        questions: PageQuestions,
        replays: Replays,
        limits: ServerLimits,
        refusals: RefusalLog,
        may_watch: MayWatch | None = None,
    ) -> None:
        self.prove = prove
        self.manager = manager
        self.questions = questions
        self.replays = replays
        self.limits = limits
        self.refusals = refusals
        self.may_watch = may_watch

    async def pasted(self, request: web.Request) -> web.Response:
        """A record's replay, worked out off the event loop (`adapters.web.replaying`)."""
        if request.content_length is not None and request.content_length > RECORD_BYTES:
            raise web.HTTPRequestEntityTooLarge(RECORD_BYTES, request.content_length)
        body = await read_body(request, self.limits)
        if len(body) > RECORD_BYTES:
            raise web.HTTPRequestEntityTooLarge(RECORD_BYTES, len(body))
        lang = request.query.get("lang") or self.manager.language
        return await self._worked_out(request, body, lang[:16])

    async def stored(self, request: web.Request) -> web.Response:
        try:
            visitor = self.prove(request.headers.get("Authorization", ""))
        except Denied:
            raise unauthorized() from None
        try:
            message = parse_json(await read_body(request, self.limits))
        except BadJson:
            raise web.HTTPBadRequest() from None
        if not isinstance(message, dict):
            raise web.HTTPBadRequest()
        asked = normalize_language(str(message.get("lang") or ""))
        kept = await self._hand(visitor, message)
        if kept is None or kept.result is None or not await self._may_see(visitor, kept):
            lang = normalize_language(visitor.lang) or asked or self.manager.language
            self.refusals.refused(f"a replay for {visitor.user}: not theirs, or no such hand")
            return web.json_response({"error": t(lang, NOT_YOURS)}, status=404, headers=HEADERS)
        lang = normalize_language(visitor.lang) or asked or self.manager.language_at(kept.chat)
        record = kept.record()
        if len(kept.names) == 4:  # the seats named as the players were (`bot.page.replay`)
            # An AI seat's name is the reader's words ("电脑 3"), as at the table, not the
            # ledger's, written in the table's language.
            record["names"] = [
                ai_name(lang, seat) if player.startswith(AI_PREFIX) else name
                for seat, (player, name) in enumerate(zip(kept.players, kept.names, strict=True))
            ]
        body = json.dumps(record, ensure_ascii=False).encode()
        return await self._worked_out(request, body, lang)

    async def _hand(self, visitor: Visitor, message: dict[str, Any]) -> KeptHand | None:
        """The hand the message names: by its id, or by its number in the match of the
        visitor's table page (the match their link was signed in, or the one now there)."""
        hand_id, number = message.get("id"), message.get("hand")
        if _count(hand_id):
            return await self.manager.db.kept_hand(hand_id)
        if not _count(number):
            return None
        param = message.get("table")
        chat = visitor.chat or (chat_of_param(param) if isinstance(param, str) else None)
        if not chat:
            return None
        match = visitor.match
        if match is None:
            table = await self.questions.table(chat) or await self.questions.ended(chat)
            match = table.match if table is not None else None
        for found, of_match in await self.manager.db.hands_numbered(chat, number):
            if of_match == match:
                return await self.manager.db.kept_hand(found)
        return None

    async def _may_see(self, visitor: Visitor, kept: KeptHand) -> bool:
        if visitor.user in kept.players:
            return True
        if visitor.seat is not None and visitor.chat == kept.chat:
            return True  # the bot signed this visitor a page of that chat: seated or watching
        return self.may_watch is not None and await self.may_watch(kept.chat, visitor.user)

    async def _worked_out(self, request: web.Request, body: bytes, lang: str) -> web.Response:
        try:
            status, answer = await self.replays.answer(request.remote or "", body, lang)
        except Busy as busy:
            self.refusals.refused(f"a replay ({busy.status}): one at a time, a few a minute")
            return web.json_response(
                {"error": "busy"}, status=busy.status, headers={**HEADERS, "Retry-After": "5"}
            )
        return web.Response(
            body=answer,
            status=status,
            content_type="application/json",
            charset="utf-8",
            headers=HEADERS,
        )


def _count(value: object) -> TypeGuard[int]:
    """A positive whole number as JSON gives it (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool) and 0 < value < 2**62

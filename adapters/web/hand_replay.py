"""``POST /replay/api/hand``: a finished hand of the visitor's table, stepped through from its
stored record (`bot.page.replay`, in the replay worker: `adapters.web.replaying`), every hand
shown. The page asks with the credential its table page was opened with: a seat's link or a
watch link of that table, or a Telegram Mini App's ``initData`` (a member of the group may
watch); anyone else is refused as the table page refuses them (401, or 410 as if there were
no table). The hand is named by its number in the table's match (``{"hand": 3}``)."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from adapters.web.auth import Visitor
from adapters.web.replaying import Busy, Replays
from bot.hosting.manager import TableManager

VisitorOf = Callable[[web.Request], Awaitable[tuple[Visitor, dict[str, Any]]]]
"""The visitor a request's credential proves, admitted to its table, and its JSON body."""
HEADERS = {"Cache-Control": "no-store"}


class StoredReplays:
    """Replays of a table's finished hands, for the people the table's page admits."""

    def __init__(self, visitor_of: VisitorOf, manager: TableManager, replays: Replays) -> None:
        self.visitor_of = visitor_of
        self.manager = manager
        self.replays = replays

    async def answer(self, request: web.Request) -> web.Response:
        visitor, message = await self.visitor_of(request)
        number = message.get("hand")
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise web.HTTPBadRequest()
        record = await self.record(visitor.chat, number)
        if record is None:
            raise web.HTTPNotFound(
                text='{"error": "no such hand"}', content_type="application/json"
            )
        lang = visitor.lang or self.manager.language_at(visitor.chat)
        body = json.dumps(record, ensure_ascii=False).encode()
        try:
            status, answer = await self.replays.answer(request.remote or "", body, lang)
        except Busy as busy:
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

    async def record(self, chat: str, number: int) -> dict[str, Any] | None:
        """The finished hand ``number`` of the match now at ``chat`` as a hand record."""
        table = self.manager.tables.get(chat)
        if table is None:
            return None
        hands = await self.manager.db.hands_of(chat, match=table.match, since_number=number)
        for stored in hands:
            if stored.number == number and stored.result is not None:
                return {**stored.start, "actions": stored.actions}
        return None

"""One table manager, several platforms: each outgoing message goes to the adapter whose
chats it belongs to (chat names carry the platform's prefix, ``tg:`` or ``dc:``)."""

from __future__ import annotations

import logging

from bot.hosting.keeping import Sender
from bot.views.outgoing import Outgoing

log = logging.getLogger(__name__)


class SendRouter:
    def __init__(self) -> None:
        self.routes: dict[str, Sender] = {}

    async def __call__(self, message: Outgoing) -> None:
        for prefix, send in self.routes.items():
            if message.chat.startswith(prefix):
                await send(message)
                return
        log.info("no adapter runs for %s; message dropped", message.chat)

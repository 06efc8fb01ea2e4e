"""One table manager, several platforms: each outgoing message goes to the adapter whose
chats it belongs to (chat names carry the platform's prefix, ``tg:`` or ``dc:``). A quick
table's chat is no platform's (`bot.hosting.quick_room`): its messages are each one player's,
and go to the adapter of that player's platform (user ids carry the same prefix)."""

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
        for prefix, send in self.routes.items():
            if message.user is not None and message.user.startswith(prefix):
                await send(message)
                return
        log.info("no adapter runs for %s; message dropped", message.chat)

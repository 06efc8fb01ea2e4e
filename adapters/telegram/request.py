"""Every Bot API call the bot makes passes here (python-telegram-bot's request object): one
that sends, edits or deletes a message first waits its turn in the bot-wide send budget
(`adapters.send_budget`, by the priority of the message being delivered), then, in a group,
passes that group's call budget (`adapters.delivery.Delivery.before_group_call`), which
counts it at the moment it is made.

The pacer's slots decide when group messages are released; this is where the one-minute
budget is kept even when a call is made late (behind a slow upload) or a message costs two
calls (an edit that failed and is sent anew), and where a forum's topics share their
supergroup's budget.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from telegram.error import NetworkError
from telegram.request import HTTPXRequest, RequestData

from adapters.send_budget import CALLING, SendBudget
from adapters.telegram.keyboards import chat_key

GROUP_CALLS = frozenset(
    {
        "sendMessage",
        "sendPhoto",
        "sendDocument",
        "sendMediaGroup",
        "copyMessage",
        "forwardMessage",
        "editMessageText",
        "editMessageCaption",
        "editMessageMedia",
        "editMessageReplyMarkup",
        "deleteMessage",
    }
)
"""The methods Telegram counts against a group's messages a minute (and against the bot's
messages a second, in any chat)."""


class CountedRequest(HTTPXRequest):
    def __init__(
        self,
        *,
        before_group_call: Callable[[str], Awaitable[None]] | None = None,
        send_budget: SendBudget | None = None,
        **settings: Any,
    ) -> None:
        super().__init__(**settings)
        self.before_group_call = before_group_call
        """Waits for the group's own budget before a call to it (the adapter's outbox)."""
        self.send_budget = send_budget
        self.answered: bool | None = None
        """Whether the Bot API answered the last call made (None: none made yet) — the
        connection state ``/healthz`` reports."""

    async def do_request(
        self,
        url: str,
        method: str,
        request_data: RequestData | None = None,
        read_timeout: Any = None,
        write_timeout: Any = None,
        connect_timeout: Any = None,
        pool_timeout: Any = None,
    ) -> tuple[int, bytes]:
        if self.send_budget is not None and url.rsplit("/", 1)[-1] in GROUP_CALLS:
            await self.send_budget.call(CALLING.get())  # bot-wide first: then it is made
        group = group_of(url, request_data)
        if group is not None and self.before_group_call is not None:
            await self.before_group_call(group)
        try:
            answer = await super().do_request(
                url,
                method,
                request_data,
                read_timeout=read_timeout,
                write_timeout=write_timeout,
                connect_timeout=connect_timeout,
                pool_timeout=pool_timeout,
            )
        except NetworkError:  # TimedOut too: no answer came
            self.answered = False
            raise
        self.answered = True
        return answer


def group_of(url: str, request_data: RequestData | None) -> str | None:
    """The group (its key, topics aside) a call writes to; None for any other call."""
    if request_data is None or url.rsplit("/", 1)[-1] not in GROUP_CALLS:
        return None
    chat = request_data.parameters.get("chat_id")
    try:
        chat_id = int(str(chat))
    except ValueError:
        return None  # a channel's @name: not a table's group
    return chat_key(chat_id) if chat_id < 0 else None

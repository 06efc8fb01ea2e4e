"""python-telegram-bot's rate limiter (its own bot-wide 30 calls a second and per-group
limit, and the waits a 429 asks for), timed: how long each call waited for it is the
``library`` budget's wait in the figures (`bot.ops.metrics`). The bot's own budget comes first
(`adapters.send_budget`, the ``bot`` wait), so this one rarely waits but after a 429.

Only calls that send, edit or delete a message count against a group's messages a minute:
the library counts every call naming a group, so a question about a group (a web watcher's
``getChatMember``) would spend the group's budget and queue the group's own answers behind
it. Such a call passes here without the group's (and the per-chat) limit."""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.ext import AIORateLimiter

from adapters.telegram.request import GROUP_CALLS
from bot.ops import metrics

Answer = Any
"""What a Bot API call returns (a flag, a JSON object or a list of them)."""


class TimedRateLimiter(AIORateLimiter):
    async def process_request(
        self,
        callback: Callable[..., Coroutine[Any, Any, Answer]],
        args: Any,
        kwargs: dict[str, Any],
        endpoint: str,
        data: dict[str, Any],
        rate_limit_args: int | None,
    ) -> Answer:
        asked = time.monotonic()

        async def call(*call_args: Any, **call_kwargs: Any) -> Answer:
            # The limiter lets the call go now (again, after a RetryAfter): all waited so far.
            metrics.waited("telegram", "library", time.monotonic() - asked)
            return await callback(*call_args, **call_kwargs)

        if endpoint not in GROUP_CALLS:  # not a message: the group's limit is not for it
            data = {key: value for key, value in data.items() if key != "chat_id"}
        return await super().process_request(call, args, kwargs, endpoint, data, rate_limit_args)

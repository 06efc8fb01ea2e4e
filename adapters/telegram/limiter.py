"""python-telegram-bot's rate limiter (its own bot-wide 30 calls a second and per-group
limit, and the waits a 429 asks for), timed: how long each call waited for it is the
``library`` budget's wait in the figures (`bot.metrics`). The bot's own budget comes first
(`adapters.send_budget`, the ``bot`` wait), so this one rarely waits but after a 429."""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine
from typing import Any

from telegram.ext import AIORateLimiter

from bot import metrics

Answer = Any
"""What a Bot API call returns (a flag, a JSON object or a list of them)."""


class TimedRateLimiter(AIORateLimiter):
    async def process_request(
        self, callback: Callable[..., Coroutine[Any, Any, Answer]], args: Any,
        kwargs: dict[str, Any], endpoint: str, data: dict[str, Any], rate_limit_args: int | None,
    ) -> Answer:  # fmt: skip
        asked = time.monotonic()

        async def call(*call_args: Any, **call_kwargs: Any) -> Answer:
            # The limiter lets the call go now (again, after a RetryAfter): all waited so far.
            metrics.waited("telegram", "library", time.monotonic() - asked)
            return await callback(*call_args, **call_kwargs)

        return await super().process_request(call, args, kwargs, endpoint, data, rate_limit_args)

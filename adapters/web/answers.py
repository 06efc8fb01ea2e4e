"""The web table's refusals (one answer for "no table" and "not for you"), and the reading of
the words a page sends (cards, a bid)."""

from __future__ import annotations

from typing import Any

from aiohttp import web

ARGS_AT_MOST = 64
GONE_BODY = '{"error": "no table"}'
"""The one answer for a good credential that opens no table: none there, or not for you."""


class NoTable(Exception):
    """The credential is good but opens no table: none is there (its match is over, or it
    is another match's link), or the table is not this user's to see. One answer for both."""


def gone() -> web.HTTPNotFound:
    return web.HTTPNotFound(text=GONE_BODY, content_type="application/json")


def unauthorized() -> web.HTTPUnauthorized:
    return web.HTTPUnauthorized(
        text='{"error": "unauthorized"}',
        content_type="application/json",
        headers={"WWW-Authenticate": "Link, tma"},
    )


def page_words(value: Any) -> list[str] | None:
    """A page's list of short words (cards, a bid); None for anything else."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > ARGS_AT_MOST:
        return None
    if not all(isinstance(v, str) and 0 < len(v) <= 12 for v in value):
        return None
    return list(value)

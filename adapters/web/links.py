"""The links the adapters hand out to open the web table (the page's address scheme):

- ``<base>/table#<token>``: a seat's page (or a spectator's), signed for one user
  (`seat_link`): Discord's "Open table" answer, the console's link;
- ``<base>/table?t=<param>``: the Mini App's URL for a button (``WebAppInfo``) of the
  table of a chat (`mini_app_url`): Telegram opens it with the user's ``initData``;
- ``https://t.me/<bot>/<app>?startapp=<param>``: a direct Mini App link to the table
  (`direct_link`), for the group's table message; Telegram hands ``param`` back in
  ``initData.start_param``.

``param`` is the table's chat in the characters Telegram allows there (``[A-Za-z0-9_-]``,
at most 64): its UTF-8 in unpadded URL-safe base64 (`table_param`).
"""

from __future__ import annotations

from urllib.parse import quote

from adapters.web.auth import LINK_SECONDS, WATCH, LinkSigner
from adapters.web.params import chat_of_param, table_param

__all__ = ["chat_of_param", "direct_link", "mini_app_url", "seat_link", "table_param"]


def seat_link(
    base: str,
    signer: LinkSigner,
    user: str,
    chat: str,
    seat: int | None,
    seconds: float = LINK_SECONDS,
) -> str:
    """The page of ``user``'s ``seat`` at the table of ``chat`` (None: the public view),
    good for ``seconds``. The token is after ``#``: it never reaches a server's log."""
    token = signer.sign(user, chat, WATCH if seat is None else seat, seconds)
    return f"{base.rstrip('/')}/table#{token}"


def mini_app_url(base: str, chat: str) -> str | None:
    """The Mini App URL for a ``WebAppInfo`` button of the table of ``chat`` (HTTPS, as
    Telegram requires of ``base``); None when the chat cannot be named in it."""
    param = table_param(chat)
    return None if param is None else f"{base.rstrip('/')}/table?t={param}"


def direct_link(bot_username: str, app_name: str, chat: str) -> str | None:
    """A direct Mini App link to the table of ``chat`` (``app_name``: the Mini App's short
    name, registered with @BotFather); None when the chat cannot be named in it."""
    param = table_param(chat)
    if param is None:
        return None
    return f"https://t.me/{quote(bot_username)}/{quote(app_name)}?startapp={param}"

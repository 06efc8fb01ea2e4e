"""Who a web page is: a Telegram Mini App's ``initData`` checked with the bot's token as
Telegram documents it, or a link the bot signed (Discord, the console).

A credential arrives in a header (``Authorization: tma <initData>`` or ``Authorization:
Link <token>``) or in a WebSocket's first message — never in a URL a server logs: links
carry their token after ``#``, which browsers do not send, and Telegram puts ``initData``
there too. Anything wrong with a credential is one answer, `Denied` (HTTP 401), with no
detail a forger could use.

Links are signed with HMAC-SHA256 under one key (`LinkSigner`): ``WEB_LINK_SECRET`` when
set — processes sharing a database and one public address must share it, since any of them
may get the page's request — else a random key made at start, so that links die with the
process (the console prints a new one at each start; a Discord player asks for a new one).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl

from adapters.web.params import chat_of_param

TELEGRAM_KEY = b"WebAppData"
"""The key Telegram names for deriving a Mini App's secret from the bot token."""
INIT_DATA_MAX_AGE = 86_400.0
"""Seconds an ``initData`` stays good after its ``auth_date`` (a Mini App keeps the one it
was opened with; a day covers a long session, and a stolen one is no good after)."""
CLOCK_SKEW = 60.0
"""An ``auth_date`` this far ahead of our clock is still taken (clocks differ)."""
LINK_SECONDS = 3600.0
"""How long a signed link opens its page (a Discord "Open table" answer)."""
MAX_CREDENTIAL = 8192
"""Characters of a credential read at most: anything longer is refused unread."""
WATCH = -1
"""The seat a link carries when it opens the public view only."""
NAME_LENGTH = 64
"""Characters of a user's name kept from a credential: the rest is cut at the door."""


class Denied(Exception):
    """A credential that is missing, malformed, forged, expired or not this seat's: 401."""


@dataclass(frozen=True)
class Visitor:
    """Who a page is, as a credential proves: a user of the bot's platforms (``tg:u…``,
    ``dc:u…``, the console's ``you``), at the table of ``chat``; ``seat`` is the seat a link
    was signed for (`WATCH`: the public view; None: whatever the table says, for Telegram,
    whose credential names no seat)."""

    user: str
    chat: str
    seat: int | None
    lang: str | None = None
    """The language the platform gave (Telegram's ``language_code``)."""
    name: str = ""
    match: str | None = None
    """The match a link was signed in (`bot.table.state.Table.match`): it opens nothing after
    that match (None: a credential that names no match, Telegram's)."""


# ----------------------------------------------------------------- Telegram Mini Apps


def telegram_secret(bot_token: str) -> bytes:
    return hmac.new(TELEGRAM_KEY, bot_token.encode(), hashlib.sha256).digest()


def check_init_data(
    init_data: str,
    bot_token: str,
    now: float | None = None,
    max_age: float = INIT_DATA_MAX_AGE,
) -> dict[str, str]:
    """The fields of a Mini App's ``initData`` once its hash is right and its ``auth_date``
    fresh; `Denied` otherwise. The data-check string is every field but ``hash``, as
    ``key=value`` lines sorted by key; the hash is HMAC-SHA256 of it under HMAC-SHA256 of
    the bot token under the key ``WebAppData``, in hex."""
    if not init_data or len(init_data) > MAX_CREDENTIAL:
        raise Denied("no initData")
    try:
        pairs = parse_qsl(init_data, keep_blank_values=True, strict_parsing=True)
    except ValueError:
        raise Denied("malformed initData") from None
    fields = dict(pairs)
    if len(fields) != len(pairs):
        raise Denied("a field given twice")
    given = fields.pop("hash", "")
    checked = "\n".join(f"{key}={fields[key]}" for key in sorted(fields))
    wanted = hmac.new(telegram_secret(bot_token), checked.encode(), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(wanted, given.lower()):
        raise Denied("bad hash")
    try:
        signed_at = float(fields.get("auth_date", ""))
    except ValueError:
        raise Denied("no auth_date") from None
    now = time.time() if now is None else now
    if not now - max_age <= signed_at <= now + CLOCK_SKEW:
        raise Denied("expired")
    return fields


def telegram_visitor(
    init_data: str,
    bot_token: str,
    chat: str | None,
    now: float | None = None,
    max_age: float = INIT_DATA_MAX_AGE,
) -> Visitor:
    """The Telegram user an ``initData`` proves, at the table its ``start_param`` names (a
    direct Mini App link) or, without one, at ``chat`` (the page's address: a button's
    Mini App URL names its table there)."""
    fields = check_init_data(init_data, bot_token, now, max_age)
    try:
        user = json.loads(fields.get("user", ""))
        user_id = int(user["id"])
    except (ValueError, KeyError, TypeError):
        raise Denied("no user") from None
    param = fields.get("start_param")
    table = chat_of_param(param) if param else chat
    if table is None:
        raise Denied("no table")
    name = " ".join(str(user.get(k) or "") for k in ("first_name", "last_name")).strip()
    lang = user.get("language_code")
    lang = lang[:16] if isinstance(lang, str) else None
    return Visitor(f"tg:u{user_id}", table, None, lang, name[:NAME_LENGTH])


# ----------------------------------------------------------------- the bot's own links


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class LinkSigner:
    """Signs and checks the bot's page links: HMAC-SHA256 over the user, the table's chat,
    the seat and the expiry, under ``key`` (random when none is given)."""

    def __init__(
        self,
        key: bytes | None = None,
        clock: Callable[[], float] = time.time,
        match_of: Callable[[str], str | None] | None = None,
    ) -> None:
        self.key = key if key else secrets.token_bytes(32)
        self.clock = clock
        self.match_of: Callable[[str], str | None] = match_of or (lambda chat: None)
        """The match now at a chat's table (`TableManager.match_at`): a link is signed for it,
        and opens nothing once another match sits there."""

    def sign(self, user: str, chat: str, seat: int, seconds: float = LINK_SECONDS) -> str:
        """A token for ``user``'s page at ``chat``, for ``seat`` (`WATCH`: the public view),
        good for ``seconds`` and for the match now at that table only."""
        expires = int(self.clock() + seconds)
        fields: dict[str, object] = {"u": user, "c": chat, "s": seat, "e": expires}
        match = self.match_of(chat)
        if match is not None:
            fields["m"] = match
        body = json.dumps(fields, separators=(",", ":"), ensure_ascii=False)
        payload = _b64(body.encode())
        return f"{payload}.{self._mac(payload)}"

    def _mac(self, payload: str) -> str:
        return _b64(hmac.new(self.key, payload.encode(), hashlib.sha256).digest())

    def check(self, token: str) -> Visitor:
        """The visitor a token was signed for; `Denied` if forged or expired."""
        if not token or len(token) > MAX_CREDENTIAL or token.count(".") != 1:
            raise Denied("malformed link")
        payload, mac = token.split(".")
        if not hmac.compare_digest(self._mac(payload), mac):
            raise Denied("bad signature")
        try:
            body = json.loads(_unb64(payload))
            user, chat, seat, expires = body["u"], body["c"], body["s"], body["e"]
            match = body.get("m")
        except (ValueError, KeyError, TypeError, AttributeError):
            raise Denied("malformed link") from None
        valid = isinstance(user, str) and isinstance(chat, str) and isinstance(seat, int)
        if not valid or not isinstance(expires, int) or not WATCH <= seat <= 3:
            raise Denied("malformed link")
        if match is not None and not isinstance(match, str):
            raise Denied("malformed link")
        if self.clock() > expires:
            raise Denied("expired")
        return Visitor(user, chat, seat, match=match)


def visitor_of(
    authorization: str,
    table: str | None,
    signer: LinkSigner,
    bot_token: str | None,
    now: float | None = None,
    max_age: float = INIT_DATA_MAX_AGE,
) -> Visitor:
    """The visitor an ``Authorization`` value proves: ``Link <token>``, or ``tma
    <initData>`` where the bot runs on Telegram. ``table``: the table the page's address
    names (for a Mini App opened by a button)."""
    scheme, _, credential = authorization.strip().partition(" ")
    scheme = scheme.lower()
    if scheme == "link":
        return signer.check(credential.strip())
    if scheme == "tma" and bot_token:
        return telegram_visitor(credential.strip(), bot_token, table, now, max_age)
    raise Denied("no credential")

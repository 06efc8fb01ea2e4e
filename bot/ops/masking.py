"""Secrets kept out of what is printed or logged, masked where they stand — a URL's password
field, a token's value as a whole — and never by replacing the secret's text wherever it
happens to occur: a database password ``p`` or ``bot`` must not turn ``python -m bot`` into
``***ython -m ***``.

`masked_urls` masks the password of every ``scheme://user:password@host`` address in a
text (and a ``password=`` query parameter), whatever the password is; `masked_values`
masks a known secret only where it stands as a value of its own: not inside a longer run of
the characters tokens are made of (letters, digits, ``_`` and ``-``), or right after
``bot`` (Telegram's API puts the token there: ``https://…/bot<token>/getMe``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MASK = "***"
_TOKEN_CHARACTERS = "A-Za-z0-9_-"
_URL_PASSWORD = re.compile(
    r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://[^\s:/?#@]*:)(?P<password>[^\s/?#@]+)(?=@)"
)
"""``scheme://user:`` then the password field, up to the ``@`` that ends the user part."""
_QUERY_PASSWORD = re.compile(r"(?P<head>[?&]password=)(?P<password>[^&\s#]+)", re.IGNORECASE)


def masked_urls(text: str, mask: str = MASK) -> str:
    """``text`` with the password field of every address in it replaced by ``mask``."""
    text = _URL_PASSWORD.sub(lambda found: found["head"] + mask, text)
    return _QUERY_PASSWORD.sub(lambda found: found["head"] + mask, text)


def _standing_alone(secret: str) -> re.Pattern[str]:
    edge = f"[{_TOKEN_CHARACTERS}]"
    return re.compile(f"(?:(?<!{edge})|(?<=bot)){re.escape(secret)}(?!{edge})")


def masked_values(text: str, secrets: Iterable[str], mask: str = MASK) -> str:
    """``text`` with each of ``secrets`` replaced by ``mask`` where it stands as a value of
    its own (see the module's note); the longest first, so that a secret holding another is
    masked whole."""
    for secret in sorted({s for s in secrets if s}, key=len, reverse=True):
        text = _standing_alone(secret).sub(mask, text)
    return text


def token_secrets(token: str) -> list[str]:
    """What of a platform token must never be shown: the token itself and, for Telegram's
    ``<bot id>:<secret>``, each half where it stands alone."""
    bot_id, colon, secret_half = token.partition(":")
    return [token, *(part for part in (bot_id, secret_half) if part)] if colon else [token]

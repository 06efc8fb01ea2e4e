"""Why a platform could not start, in one sentence fit for a terminal: never a traceback,
never the token. (`StartupError` is the settings' too: `bot.config`.)"""

from __future__ import annotations

from bot.config import StartupError

__all__ = ["StartupError", "scrubbed"]


def scrubbed(text: str, *secrets: str) -> str:
    """``text`` with every secret (a token, and its parts around ``:``) blanked out."""
    for secret in secrets:
        for part in {secret, *secret.split(":")}:
            if len(part) >= 6:
                text = text.replace(part, "***")
    return text

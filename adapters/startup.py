"""Why a platform could not start, in one sentence fit for a terminal: never a traceback,
never the token. (`StartupError` is the settings' too: `bot.ops.config`.)"""

from __future__ import annotations

from bot.ops.config import StartupError
from bot.ops.masking import masked_values, token_secrets

__all__ = ["StartupError", "scrubbed"]


def scrubbed(text: str, *tokens: str) -> str:
    """``text`` with each token (and a Telegram token's secret half) masked where it stands
    as a value — never every occurrence of a piece of it (`bot.ops.masking`)."""
    return masked_values(text, [part for token in tokens for part in token_secrets(token)])

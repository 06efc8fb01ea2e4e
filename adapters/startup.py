"""Why a platform could not start, in one sentence fit for a terminal: never a traceback,
never the token."""

from __future__ import annotations


class StartupError(Exception):
    """A platform refused to start (a rejected token, an unreachable API)."""


def scrubbed(text: str, *secrets: str) -> str:
    """``text`` with every secret (a token, and its parts around ``:``) blanked out."""
    for secret in secrets:
        for part in {secret, *secret.split(":")}:
            if len(part) >= 6:
                text = text.replace(part, "***")
    return text


def port_setting(name: str, text: str) -> int:
    """The TCP port a setting names (1 to 65535); `StartupError` for anything else."""
    try:
        port = int(text.strip())
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise StartupError(f"{name}={text[:32]}: say a port number, 1 to 65535")
    return port

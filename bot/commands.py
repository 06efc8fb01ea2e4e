"""Text commands, the reference interface: every platform's buttons become these too."""

from __future__ import annotations

from dataclasses import dataclass

COMMANDS = frozenset(
    {
        "new",
        "join",
        "leave",
        "addbot",
        "kick",
        "start",
        "next",
        "ready",
        "stop",
        "score",
        "settings",
        "set",
        "rules",
        "help",
        "lang",
        "play",
        "pass",
        "bid",
        "trump",
        "bury",
        "surrender",
        "bonus",
        "show",
        "reveal",
        "auto",
        "hand",
        "export",
        "stats",
        "top",
        "pick",
        "clear",
        "go",
        "resume",
    }
)


@dataclass(frozen=True)
class Command:
    """A command from a user: ``/play 7777`` in chat ``chat`` (``private``: a direct chat)."""

    name: str
    args: tuple[str, ...]
    user: str
    user_name: str
    chat: str
    private: bool = False
    lang: str | None = None
    """The user's platform language, when the platform tells it."""
    stamp: str | None = None
    """For a button press: the stamp the button carried (see `bot.controls.Stamp`)."""
    admin: bool = False
    """The user administers the chat (the platform says so): host commands are theirs too."""


def parse_command(
    text: str, user: str, user_name: str, chat: str, private: bool = False,
    lang: str | None = None, bot_name: str | None = None,
) -> Command | None:  # fmt: skip
    """``"/play@CardBot S10 S10"`` → Command("play", ("S10", "S10")); None for plain text, and
    for a command addressed to another bot (``/new@OtherBot``) when ``bot_name`` is known."""
    words = text.strip().split()
    if not words or not words[0].startswith("/"):
        return None
    name, _, target = words[0][1:].partition("@")
    if target and bot_name is not None and target.lower() != bot_name.lower():
        return None
    name = name.lower()
    if not name:
        return None
    return Command(name, tuple(words[1:]), user, user_name, chat, private, lang)

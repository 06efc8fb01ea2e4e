"""Text commands, the reference interface: every platform's buttons become these too (the
commands themselves are declared in `bot.commands.registry`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.reading.words import COMMAND_WORDS, command_words

NAME_LENGTH = 64
"""Characters of a user's name a command carries at most (Telegram's own limit for a name)."""


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
    """For a button press: the stamp the button carried (see `bot.views.controls.Stamp`)."""
    admin: bool = False
    """The user administers the chat (the platform says so): host commands are theirs too."""
    chat_title: str | None = None
    """The group's name, where the platform tells it: a private hand names its group."""
    delivery: Delivery | None = None
    """The platform's update this command came in (none from the console or a timer)."""

    def __post_init__(self) -> None:
        # Cut at the door, before anything stores or echoes it: a platform's name field may
        # hold anything a forged or odd client puts there (an audit sent 100,000 characters).
        if len(self.user_name) > NAME_LENGTH:
            object.__setattr__(self, "user_name", self.user_name[:NAME_LENGTH])


@dataclass(frozen=True)
class Delivery:
    """Which of a platform's updates a command came in: Telegram re-sends a webhook post it got
    no timely answer for and a polled batch the bot was killed before confirming, so the same
    update may come twice. The manager drops a command whose delivery was stored already, and
    stores it in the very transaction of the step it causes (`bot.hosting.keeping.TableKeeper`)."""

    platform: str
    """``telegram:<bot id>`` (ids are each bot's own) or ``discord``."""
    update: str
    """The update's id; ``<id>#<n>`` for the n-th of several commands one update carries."""

    def at(self, chat: str) -> str:
        """Its key at one table: a private command may be routed to several tables, each
        stepping in a transaction of its own."""
        return f"{self.update}@{chat}"


def parse_command(
    text: str,
    user: str,
    user_name: str,
    chat: str,
    private: bool = False,
    lang: str | None = None,
    bot_name: str | None = None,
    plain: bool = False,
) -> Command | None:
    """``"/play@CardBot S10 S10"`` → Command("play", ("S10", "S10")); None for plain text, and
    for a command addressed to another bot (``/new@OtherBot``) when ``bot_name`` is known. In a
    private chat ``/play@2 S10`` names the player's second table (``bot.commands.private_chat``).
    With ``plain`` (a private chat with the bot, the console) text without a slash is read as
    players type it: ``出 2222``, ``不要``, ``叫分 100`` (`bot.reading.words`)."""
    words = text.strip().split()
    if words and plain and not words[0].startswith("/"):
        name, args = command_words(text)  # ``出 2222``, ``不要``, ``叫分 100``
        return Command(name, args, user, user_name, chat, private, lang)
    if not words or not words[0].startswith("/"):
        return None
    name, _, target = words[0][1:].partition("@")
    args = tuple(words[1:])
    if private and target.isascii() and target.isdigit():
        args = (f"@{target}", *args)  # ``/play@2 ♠3``: which of the player's tables (no bot
        # is named by digits alone)
    elif target and bot_name is not None and target.lower() != bot_name.lower():
        return None
    name = COMMAND_WORDS.get(name.lower(), name.lower())  # ``/出 2222`` as ``/play 2222``
    if not name:
        return None
    return Command(name, args, user, user_name, chat, private, lang)

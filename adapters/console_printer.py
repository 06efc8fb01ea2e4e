"""The console's printer: what the host says to the console's one person, in their language, as
lines on the terminal (pictures saved to files with --pictures); it says what to type next when the
table waits for them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from bot.i18n import N_, t
from bot.pictures import render_async
from bot.views.outgoing import Kind, Outgoing

log = logging.getLogger("adapters.console")
CHAT = "console"
"""The console's one table's chat."""
HUMAN = "you"
"""The console's one person."""


class ConsolePrinter:
    """Prints outgoing messages: group posts, the table message (only when it changed) and
    the human's private messages, each with its own label."""

    def __init__(
        self, lang: str, write: Callable[[str], None] = print, pictures: Path | None = None
    ) -> None:
        self.lang = lang
        self.write = write
        self.pictures = pictures
        """Where pictures are written: ``<pictures>-hand.png`` …; None: no pictures."""
        self._last_table = ""
        self._posts: dict[str, str] = {}
        """What each group post with a slot said when printed: a post edited only to take its
        buttons off (a phase that ended) is not printed again."""
        self._hand_slot: str | None = None
        self.printed = asyncio.Event()
        """Set after each message: the play loop looks again whether the match is over."""
        self.follow: Callable[[], str] | None = None
        """The table's language, which its labels and lines follow (a table resumed in 繁體
        prints 繁體 from its first line, a restart's notice included)."""

    def follow_table(self, language_at: Callable[[], str]) -> None:
        """From now on, print in the table's language as ``language_at`` tells it."""
        self.follow = language_at

    def speak(self, lang: str) -> None:
        """Print in ``lang`` from now on (a /lang, a resumed table's language)."""
        self.lang = lang

    async def __call__(self, message: Outgoing) -> None:
        if self.follow is not None:
            self.lang = self.follow()
        try:
            await self._print(message.resolved())
        finally:
            self.printed.set()

    async def _print(self, message: Outgoing) -> None:
        if message.kind == Kind.TABLE:
            if message.text == self._last_table:
                return
            self._last_table = message.text
            label = t(self.lang, "[table]")
        elif message.kind in (Kind.PRIVATE, Kind.REPLY) and message.user not in (None, HUMAN):
            return  # another player's private message: never shown here
        elif message.kind in (Kind.PRIVATE, Kind.REPLY):
            label = t(self.lang, "[you]")
        else:
            label = t(self.lang, "[group]")
            if message.slot is not None:
                if self._posts.get(message.slot) == message.text:
                    return
                self._posts[message.slot] = message.text
        indented = message.text.replace("\n", "\n    ")
        self.write(f"{label} {indented}")
        if message.kind in (Kind.GROUP, Kind.REPLY) and message.buttons:
            self._say_what_to_type(message)
        if message.picture is not None and self.pictures is not None:
            await self._picture(message)

    def _say_what_to_type(self, message: Outgoing) -> None:
        """The console shows no buttons: a message that has them says what to type instead
        (the lobby's /join, /addbot, /start; the settlement's /ready)."""
        commands = dict.fromkeys(b.command for row in message.buttons for b in row if not b.url)
        if commands:
            typed = " · ".join(commands)
            self.write("    " + t(self.lang, "(type {commands})", commands=typed))
        pages = [b.label for row in message.buttons for b in row if b.url and b.url[0] == "/"]
        for label in pages:  # a page of the web table (a replay): its own button does it there
            self.write(
                "    "
                + t(
                    self.lang,
                    N_("(on the web table, press “{button}” under the settlement)"),
                    button=label,
                )
            )

    def say(self, key: str, **values: object) -> None:
        """A line of the console's own, in its language."""
        if self.follow is not None:
            self.lang = self.follow()
        self.write(t(self.lang, key, **values))

    async def _picture(self, message: Outgoing) -> None:
        """Write the picture (off the event loop); a failure is logged, the text stood."""
        assert message.picture is not None and self.pictures is not None
        hand = message.kind == Kind.PRIVATE
        path = self.pictures.with_name(
            f"{self.pictures.name}-{'hand' if hand else 'settlement'}.png"
        )
        try:
            png = await render_async(message.picture)
            path.write_bytes(png)
        except Exception as error:
            log.warning("no picture written to %s: %s", path, error)
            return
        if hand and message.slot == self._hand_slot:
            return  # the same hand's file, kept current: its path was said
        if hand:
            self._hand_slot = message.slot
        self.write(t(self.lang, "[picture] {path}", path=str(path)))

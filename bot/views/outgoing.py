"""Neutral outgoing messages: what the host wants said, before any platform's API."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum


class Kind(StrEnum):
    """What a message is: ``group``, a new group post; ``table``, the per-hand table message,
    edited in place; ``private``, to one user only; ``reply``, an answer to the user who sent
    the command (privately where the platform allows); ``delete``, an adapter's deletion of a
    message it sent (its text is the platform's id of that message)."""

    GROUP = "group"
    TABLE = "table"
    PRIVATE = "private"
    REPLY = "reply"
    DELETE = "delete"


@dataclass(frozen=True)
class Button:
    """A neutral button: its label, the command a press sends, and the stamp (table, hand,
    turn) the press must still match (`bot.views.controls.Stamp`)."""

    label: str
    command: str
    stamp: str
    url: str | None = None
    """A button that opens this link instead of sending a command (an adapter's own)."""
    group: str = ""
    """Which set of choices it belongs to — ``rank``, ``count``, ``card:<suit>`` (``card:T``
    for trumps), ``bid`` — so an adapter with few buttons a message can make a menu of it."""
    chat: str | None = None
    """The table a press acts at, when not the message's own (a choice between tables)."""
    opens_app: bool = False
    """With ``url``: the link opens inside the platform as a Mini App (Telegram's
    ``WebAppInfo``, which private chats alone may carry)."""


@dataclass(frozen=True)
class Outgoing:
    """One message, of a `Kind`."""

    kind: Kind
    chat: str
    text: str
    user: str | None = None
    buttons: tuple[tuple[Button, ...], ...] = field(default=())
    """Rows of buttons under the message."""
    filename: str | None = None
    """Send the text as a file of this name where the platform can (a hand record)."""
    slot: str | None = None
    """Messages edited in place name their slot (``table …``/``hand …`` with the hand's
    stamp): a message replaces the last one of the same slot in its conversation, and a new
    slot (the next hand) starts a new message."""
    public: bool = False
    """For a reply: it names nothing of the player's cards, so where the player cannot be
    answered privately it may be said in the group ("you are not seated here — /join")."""
    urgent: bool = True
    """For the table message: whether it should be shown soon (a trick ended, the turn came
    to a person). A state of plays between AI seats may wait and be folded into the next."""
    asked: bool = False
    """For a private hand: the player asked for it (/hand): where the platform keeps a chat's
    history, it is shown anew at the end (the old one removed) rather than edited above."""
    write: Callable[[], str] | None = field(default=None, compare=False, repr=False)
    """Writes ``text`` when the message is about to be sent (the table message): states that
    are superseded before their turn to be sent are never written, and the one sent shows
    the latest time left."""
    picture: Callable[[], bytes] | None = field(default=None, compare=False, repr=False)
    """Draws a PNG that goes with the text (a private hand, a settlement), where the platform
    shows pictures. It never replaces the text (kept for search, accessibility and clients
    that hide images). Adapters call it off the event loop (`bot.pictures.render_async`); a
    `bot.pictures.PictureError` means: send the text alone."""
    header: str | None = None
    """For the table message: None, it is edited in place (under the header it has); else
    it is sent anew as the newest message of the chat, with this header above the table (the
    posts of the moment), and the table message above it keeps only its own header, or is
    deleted if it had none (`adapters.pacing`)."""
    final: bool = False
    """For the table message: the hand is over and this is its last state (posts after it
    leave it where it is)."""
    mention: str | None = None
    """For a group post: the player it calls, whose name is in ``text``; the platform makes
    that name a mention that notifies them (Telegram's text mention, Discord's user mention
    allowed for that user only)."""
    said: Callable[[str], str] | None = field(default=None, compare=False, repr=False)
    """For a group post: its text for a reader of another language (a quick table's players,
    each told in their own: `bot.hosting.quick_room`); None: the text as it is."""
    pictured: Callable[[str], Callable[[], bytes] | None] | None = field(
        default=None, compare=False, repr=False
    )
    """For a post with a picture: its picture for a reader of another language (the
    settlement's, at a quick table); None: ``picture`` as it is."""

    def __init__(
        self,
        kind: Kind,
        chat: str,
        text: str,
        user: str | None = None,
        buttons: tuple[tuple[Button, ...], ...] = (),
        filename: str | None = None,
        slot: str | None = None,
        public: bool = False,
        urgent: bool = True,
        asked: bool = False,
        write: Callable[[], str] | None = None,
        picture: Callable[[], bytes] | None = None,
        header: str | None = None,
        final: bool = False,
        mention: str | None = None,
        said: Callable[[str], str] | None = None,
        pictured: Callable[[str], Callable[[], bytes] | None] | None = None,
    ) -> None:
        # Written out, the fields above in their order and with their defaults
        # (tests/bot/test_outgoing.py holds the two together): the __init__ a frozen
        # dataclass generates sets each field through object.__setattr__, four times slower,
        # and every message of every table is made here.
        self.__dict__.update(
            kind=kind,
            chat=chat,
            text=text,
            user=user,
            buttons=buttons,
            filename=filename,
            slot=slot,
            public=public,
            urgent=urgent,
            asked=asked,
            write=write,
            picture=picture,
            header=header,
            final=final,
            mention=mention,
            said=said,
            pictured=pictured,
        )

    def resolved(self) -> Outgoing:
        """This message with its text written."""
        if self.write is None:
            return self
        return self.with_text(self.write())

    def moved_below(self, header: str, mention: str | None = None) -> Outgoing:
        """This table state, sent anew below what the chat shows, headed by ``header`` (which
        may call a player: ``mention``)."""
        moved = object.__new__(Outgoing)
        moved.__dict__.update(self.__dict__, header=header, mention=mention)
        return moved

    def shown_text(self, header: str | None) -> str:
        """The text as the chat shows it: the header above, if any."""
        return f"{header}\n\n{self.text}" if header else self.text

    def picture_in(self, lang: str) -> Callable[[], bytes] | None:
        """The picture for a reader of ``lang`` (`pictured`), else as it is."""
        return self.picture if self.pictured is None else self.pictured(lang)

    def text_in(self, lang: str) -> str:
        """The text for a reader of ``lang`` (`said`), else as it is."""
        return self.text if self.said is None else self.said(lang)

    def with_text(self, text: str) -> Outgoing:
        """This message saying ``text`` instead (written now: no `write` left). Made as
        `dataclasses.replace` would, without its generic pass over every field: every table
        message is written here before it is sent."""
        written = object.__new__(Outgoing)
        written.__dict__.update(self.__dict__, text=text, write=None)
        return written

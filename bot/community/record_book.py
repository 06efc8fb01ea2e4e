"""Each group's history as records read it, kept current as hands finish, and the
announcement of achievements — once each, also after a restart.

`RecordBook` reads a group's finished hands from storage the first time it is asked (the
figures of the past are rebuilt from the hand records), then only the hands finished since,
folding each into the records as it comes (`bot.community.player_records.fold`) and into the
all-time standings of ``/top``. Only the hands of the last `RECENT_SECONDS` are kept themselves (for
``/top week`` and ``month``): a busy group finishes thousands of hands a year, and a thousand groups
would otherwise keep every one of them in memory. An achievement is announced when a player's
records show it and storage has no note of its announcement; the note is written before the line
goes out, so no restart or second process announces it again."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

from bot.community.player_records import (
    PlayerRecord,
    RecordReader,
    Records,
    Standings,
    best,
    counted,
    earned,
    fold,
    ranking,
    tally,
)
from bot.i18n import N_, t
from storage import Database
from storage.rows import FinishedHand

log = logging.getLogger(__name__)
ACHIEVED = N_("Achievements: {feats}")


RECENT_SECONDS = 30 * 86_400.0
"""How far back a group's finished hands are kept themselves: the longest ``/top`` period
short of all time (`bot.commands.chat.PERIODS`)."""


@dataclass
class ChatHistory:
    """A group's records and all-time standings, folded from every finished hand, and its
    hands of the last `RECENT_SECONDS` (oldest first)."""

    recent: list[FinishedHand] = field(default_factory=list)
    records: Records = field(default_factory=dict)
    standings: dict[str | None, Standings] = field(default_factory=dict)
    """All-time standings by game, and over every game (None)."""
    last: int = 0
    """The id of the last hand folded in."""

    def top(
        self,
        since: float | None,
        game: str | None,
        readers: Mapping[str, RecordReader],
        limit: int = 10,
    ) -> list[tuple[str, Fraction, int]]:
        """(name, total, hands) of the best players since ``since`` (None: all time, which
        the standings hold; else within `RECENT_SECONDS`), at ``game`` (None: every game)."""
        if since is None:
            return best(self.standings.get(game, {}), limit)
        return ranking(self.recent, since, game, readers, limit)


class RecordBook:
    def __init__(
        self, db: Database, readers: Mapping[str, RecordReader], clock: Callable[[], float]
    ) -> None:
        self.db = db
        self.readers = readers
        self.clock = clock
        self._chats: dict[str, ChatHistory] = {}

    async def history(self, chat: str) -> ChatHistory:
        """The group's history up to its last finished hand in storage."""
        kept = self._chats.setdefault(chat, ChatHistory())
        new = await self.db.finished_hands(chat, kept.last)
        if new:
            fold(kept.records, new, self.readers)
            for hand in new:
                if counted(hand, self.readers):
                    tally(kept.standings.setdefault(None, {}), hand)
                    tally(kept.standings.setdefault(hand.game, {}), hand)
            kept.recent += new
            kept.last = new[-1].id
        cutoff = self.clock() - RECENT_SECONDS
        if kept.recent and kept.recent[0].started < cutoff:
            kept.recent = [hand for hand in kept.recent if hand.started >= cutoff]
        return kept

    async def record_of(self, chat: str, user: str) -> PlayerRecord | None:
        return (await self.history(chat)).records.get(user)

    def forget(self, chat: str) -> None:
        """The group's history is read anew when next asked (its chat moved)."""
        self._chats.pop(chat, None)

    async def rebuilt(self, chat: str) -> Records:
        """The group's records counted afresh from every stored hand (what the kept ones
        must equal)."""
        return fold({}, await self.db.finished_hands(chat), self.readers)

    async def announcements(
        self, chat: str, users: Iterable[str], game: str, lang: str
    ) -> str | None:
        """The one line announcing what ``users`` newly achieved at ``game`` in ``chat``
        (None: nothing new), each achievement noted in storage as announced first."""
        said = await self.announced(chat, users, game)
        return None if said is None else said(lang)

    async def announced(
        self, chat: str, users: Iterable[str], game: str
    ) -> Callable[[str], str] | None:
        """`announcements`' line, for a reader of any language (each player of a quick table
        reads it in their own: `bot.views.outgoing.Outgoing.said`); noted in storage once,
        before it is written."""
        history = await self.history(chat)
        people = [user for user in dict.fromkeys(users) if user in history.records]
        found = earned(history.records, people, game, self.readers)
        if not found:
            return None
        announced = await self.db.announced(chat)
        due = [(user, feat) for user, feat in found if (user, feat.code) not in announced]
        if not due:
            return None
        fresh = []
        async with self.db.transaction() as tx:
            for user, feat in due:
                if await tx.announce(chat, user, feat.code, self.clock()):
                    fresh.append((history.records[user].name, feat.title))
        if not fresh:
            return None

        def said(lang: str) -> str:
            feats = " · ".join(f"{name} — {t(lang, title)}" for name, title in fresh)
            return t(lang, ACHIEVED, feats=feats)

        return said

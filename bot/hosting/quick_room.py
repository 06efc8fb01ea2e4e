"""The quick room (issue 54): the tables of strangers the quick queues match, which live in no
group, and what they say, told to each player privately on their own platform.

`match` runs a matching step of every queue (`bot.community.quick_seating`): each table found
is opened here as any table is (`bot.table.lobby`, `bot.table.dealing`), rated, one hand long,
calling nobody by mention, with AI players of the level nearest the people's ratings in the
empty seats, and dealt at once. On PostgreSQL any process may run the step: its transaction
seats each person once and records each table once; the process that opened a table takes
its lease.

A quick table's chat (``q:…``) is no platform's, so nothing of it may go out as it is made
(`fan_out`): a private message goes to its player (the sender routes it by the user's
platform); what a group would read — the table message, the posts of the moment — goes to
each person at the table as one private message per trick, edited as the trick goes on
(its slot names the trick), with the posts of that trick above the table, each written in
the reader's own language (`Outgoing.said`; the table: `table_message`'s ``lang``). Nobody
is called by mention, and no group ever sees a card. Once the next trick begins, a trick's
message gets its last words (less the stale line of whose turn it was); and when the turn
comes to a person whose hand has a trick's message below it, the hand comes anew at the end
of their chat, its buttons at hand (as /hand brings it).

Which process may open and hold a quick table: `bot.hosting.quick_reach`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field, replace

from bot.commands.quick_commands import QUICK_WAIT
from bot.community.quick_seating import (
    QUICK_NARRATION,
    is_quick,
    new_quick_chat,
    seat_waiting,
)
from bot.games import FRONTS, RECORD_READERS
from bot.hosting.keeping import Sender, TableKeeper
from bot.hosting.open_tables import OpenTables
from bot.hosting.quick_reach import EVERYONE, Reach
from bot.hosting.table_leases import Leases
from bot.i18n import t
from bot.ops.logs import table_context
from bot.reading.command import Command
from bot.table import dealing, lobby
from bot.table.effects import Effects
from bot.table.hand_views import HAND_SLOT
from bot.table.state import Table
from bot.views.outgoing import Kind, Outgoing
from storage import Database
from storage.platforms_of_users import platform_of
from storage.quick_queue import QueueEntry

log = logging.getLogger(__name__)


@dataclass
class Narration:
    """What one quick table's players have been told of the trick now: its number (closed
    tricks so far), the posts of it, and the table as last written in each language."""

    trick: int = 0
    begun: bool = False
    """This trick's message went out (anew, below everything before it)."""
    posts: list[Outgoing] = field(default_factory=list)
    tables: dict[str, str] = field(default_factory=dict)
    settled: bool = False
    """The hand's settlement went out (a message of its own, below this trick's): what is
    said after it (the match's end) goes below it too, not up into the trick's message."""

    def slot(self, chat: str) -> str:
        return f"{QUICK_NARRATION}{chat} {self.trick}"

    def written(self, lang: str, closed: bool = False) -> str:
        """The trick's message for a reader of ``lang``: its posts, then the table as last
        written; ``closed``: without the line of whose turn it was."""
        table = self.tables.get(lang, self.tables.get("", ""))
        if closed:
            turn = t(lang, "Turn: {name}", name="\0").partition("\0")[0]
            table = "\n".join(line for line in table.split("\n") if not line.startswith(turn))
        posts = [post.text_in(lang) for post in self.posts]
        return "\n\n".join(part for part in [*posts, table] if part)


class QuickRoom:
    def __init__(
        self,
        db: Database,
        tables: OpenTables,
        keeper: TableKeeper,
        leases: Leases,
        send: Sender,
        clock: Callable[[], float],
        seeds: Callable[[int], int] | None,
        language: str,
        quick_wait: float = QUICK_WAIT,
        reach: Reach = EVERYONE,
    ) -> None:
        self.db = db
        self.tables = tables
        self.keeper = keeper
        self.leases = leases
        self.send = send
        """Sends a message of a quick table, through `fan_out` (the manager's sender)."""
        self.clock = clock
        self.seeds = seeds
        self.language = language
        self.quick_wait = quick_wait
        self.reach = reach
        """Whose tables this process may hold: it matches only them (`bot.hosting.quick_reach`)."""
        self.people: dict[str, tuple[tuple[str, str], ...]] = {}
        """Quick table chat → (user, language) of each person seated there: kept past the
        table's closing, whose last posts still go to them."""
        self.told: dict[str, Narration] = {}
        self.buried: set[tuple[str, str]] = set()
        """(chat, user) of each player whose hand has a trick's message below it."""
        self.opened: dict[str, Table] = {}
        """Quick table chat → its table, kept past its closing (which lets the open tables
        forget it before its last step is sent): that step is written in each language."""

    # ----------------------------------------------------------------- opening tables

    async def match(self) -> list[str]:
        """One matching step of every queue; opens the tables found and returns their chats."""
        opened = []
        for chat in [chat for chat in self.people if chat not in self.tables]:
            self.forget(chat)  # closed, and its last words went when its last step was sent
        now = self.clock()
        for game, front in FRONTS.items():
            for preset in front.game.presets:
                try:
                    found = await seat_waiting(
                        self.db,
                        game,
                        preset,
                        now,
                        self.quick_wait,
                        new_quick_chat,
                        self.reach.platforms,
                    )
                except Exception:  # its transaction seated nobody: the next beat tries again
                    log.exception("the quick queue of %s (%s) could not be matched", game, preset)
                    continue
                for chat, people, ai_seats in found:
                    try:
                        await self.open(chat, game, preset, people, ai_seats)
                        opened.append(chat)
                    except Exception:  # seated in storage: the table's own faults, logged
                        log.exception("quick table %s could not be opened", chat)
        return opened

    async def open(
        self, chat: str, game: str, preset: str, people: tuple[QueueEntry, ...], ai_seats: int
    ) -> None:
        """Open, store and deal the table ``chat`` matched for ``people``."""
        names = await self.db.names_of([entry.user for entry in people])
        host = people[0]
        async with self.tables.lock(chat), table_context(chat):
            if await self.leases.take(chat) is not None:
                return  # cannot happen for a new chat; never two owners all the same
            lang = host.lang or self.language
            table = Table(chat, game, preset, host.user, lang, self.clock, self.seeds)
            table.set_table_options(
                replace(
                    table.table_options,
                    rated=True,
                    max_hands=1,
                    mention_turn=False,
                    ai_level=nearest_level(game, people),
                )
            )
            for entry in people:
                name = names.get(entry.user) or entry.user
                lobby.join(table, Command("join", (), entry.user, name, chat, True, entry.lang))
            seated = Command("addbot", (), host.user, "", chat, True)
            for _ in range(ai_seats):
                lobby.addbot(table, seated)
            table.sent.retire_buttons()  # the lobby's posts were never sent: nothing to retire
            effects = Effects(table_changed=True)
            effects.extend(dealing.deal(table))
            self.tables.put(table)
            self.keeper.forget(chat)
            await self.keeper.store_step(table, effects)
            out = self.fan_out_all(effects.out)
        for message in out:
            await self.send(message)

    # ----------------------------------------------------------------- telling the players

    def fan_out_all(self, messages: Iterable[Outgoing]) -> list[Outgoing]:
        return [each for message in messages for each in self.fan_out(message)]

    def fan_out(self, message: Outgoing) -> list[Outgoing]:
        """``message`` as its readers get it: unchanged where its chat is not a quick table's;
        else each person's private message (see the module's note)."""
        chat = message.chat
        if not is_quick(chat):
            return [message]
        if message.kind == Kind.DELETE:
            return []  # a group's deletion: a quick table has no group
        if message.user is not None and message.kind in (Kind.PRIVATE, Kind.REPLY):
            return [self._below_the_narration(message)]  # its player's own
        table = self.tables.get(chat) or self.opened.get(chat)
        people = self._people(chat, table)
        told = self.told.setdefault(chat, Narration())
        trick = len(table.closings.events) if table is not None else told.trick
        closed: list[Outgoing] = []
        if trick != told.trick:
            closed = self._closed(chat, told, people)
            self.told[chat] = told = Narration(trick)
        if message.kind == Kind.TABLE:
            told.tables = self._tables_written(message, people)
        elif message.picture is not None or message.buttons or told.settled:
            # A settlement: a message of its own, its picture with it; and what follows it (the
            # match's end) in messages of their own below it.
            told.settled = True
            return closed + [
                replace(
                    message,
                    kind=Kind.PRIVATE,
                    text=message.text_in(lang),
                    picture=message.picture_in(lang),
                    user=user,
                    mention=None,
                    said=None,
                    pictured=None,
                )
                for user, lang in people
            ]
        else:
            told.posts.append(message)
        if not told.begun:  # a new message, below each person's hand: it comes anew next time
            told.begun = True
            self.buried.update((chat, user) for user, _ in people)
        return closed + [
            Outgoing(Kind.PRIVATE, chat, told.written(lang), user=user, slot=told.slot(chat))
            for user, lang in people
        ]

    @staticmethod
    def _closed(chat: str, told: Narration, people: Iterable[tuple[str, str]]) -> list[Outgoing]:
        """The last words of a trick's message, once the next trick has begun: as it last
        read, less the line of whose turn it was (stale now), and with no button."""
        if not told.begun:
            return []
        return [
            Outgoing(
                Kind.PRIVATE,
                chat,
                told.written(lang, closed=True),
                user=user,
                slot=told.slot(chat),
                final=True,
            )
            for user, lang in people
        ]

    @staticmethod
    def _tables_written(message: Outgoing, people: Iterable[tuple[str, str]]) -> dict[str, str]:
        """The table message in each reader's language (`Outgoing.said`), written now."""
        made = message.resolved()  # first in the table's own: it takes the closings shown
        written = {"": made.text}
        for _, lang in people:
            written.setdefault(lang, made.text_in(lang))
        return written

    def _people(self, chat: str, table: Table | None) -> tuple[tuple[str, str], ...]:
        if table is not None:
            self.opened[chat] = table
            self.people[chat] = tuple(
                (seat.user, table.lang_of(seat.user))
                for seat in table.seats
                if seat is not None and seat.user is not None
            )
        return self.people.get(chat, ())

    def _below_the_narration(self, message: Outgoing) -> Outgoing:
        """A player's own message; their hand comes anew at the end of their chat (as when
        asked for with /hand) when their turn comes if a trick's message went out below it
        since: in a quick table's private chat the narration comes a message a trick, and
        the hand's buttons would end up many messages up."""
        if not (message.slot or "").startswith(HAND_SLOT) or message.user is None:
            return message
        if message.asked:
            self.buried.discard((message.chat, message.user))
            return message
        if (message.chat, message.user) in self.buried and self._to_act(message):
            self.buried.discard((message.chat, message.user))
            return replace(message, asked=True)
        return message

    def _to_act(self, message: Outgoing) -> bool:
        """Whether the hand is of the person who is to act now (not on 托管, not gone): the
        one who needs its buttons. The others' hands change in place, moved at their turn."""
        table = self.tables.get(message.chat)
        if table is None or table.hand is None or not table.waits_for_a_person():
            return False
        seat = table.turn_seat
        assert seat is not None  # a person is waited for
        occupant = table.seats[seat]
        return occupant is not None and occupant.user == message.user

    def forget(self, chat: str) -> None:
        """The table closed and its last words went: nothing more is said there."""
        self.people.pop(chat, None)
        self.told.pop(chat, None)
        self.buried = {(at, user) for at, user in self.buried if at != chat}
        self.opened.pop(chat, None)

    async def hand_back(
        self, command: Command, out: list[Outgoing], send: Callable[[Outgoing], Awaitable[None]]
    ) -> list[Outgoing]:
        """Of the messages a command's step made, those the command's own platform takes
        (returned to its adapter); those for players on other platforms go by ``send``."""
        platform = platform_of(command.user)
        kept = []
        for message in out:
            if is_quick(message.chat) and platform_of(message.user or "") != platform:
                await send(message)
            else:
                kept.append(message)
        return kept


def nearest_level(game: str, people: Iterable[QueueEntry]) -> str:
    """The AI level whose fixed rating is nearest the people's mean μ: the queue's level."""
    mus = [entry.mu for entry in people]
    mean = sum(mus) / len(mus)
    levels = RECORD_READERS[game].ai_ratings
    return min(levels, key=lambda level: abs(levels[level][0] - mean))

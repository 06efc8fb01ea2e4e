"""What adapters ask about the tables this process holds: narrow questions (is this user the
host, seated, invited; which game, phase, language, match is at a chat), never a table itself.
`TableManager` answers them; they read its open tables, leases and invitations only."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from bot.ai_seats.slow_decisions import Thinking
from bot.commands.notices import Invitations
from bot.games import presets
from bot.hosting.open_tables import ChatLock, OpenTables
from bot.hosting.table_leases import Leases
from bot.hosting.timers import Timers
from bot.i18n import t
from bot.table.state import PLAYING, Phase, Table


class TableQuestions:
    """The questions, over the fields a `TableManager` sets up in its constructor."""

    open: OpenTables
    language: str
    user_langs: dict[str, str]
    leases: Leases
    invitations: Invitations
    timers: Timers

    @property
    def tables(self) -> Mapping[str, Table]:
        """The tables this process runs, by chat (for tests and benchmarks; adapters ask the
        questions below)."""
        return self.open.by_chat

    @property
    def held(self) -> set[str]:
        return self.leases.held

    @property
    def thinking(self) -> Thinking:
        return self.timers.thinking

    def lock(self, chat: str) -> ChatLock:
        return self.open.lock(chat)

    def table_count(self) -> int:
        return len(self.open)

    def has_table(self, chat: str) -> bool:
        """Whether ``chat`` has an open table here (a closed one is not kept)."""
        return chat in self.open

    def tables_in(self, chats: Callable[[str], bool]) -> list[str]:
        """The chats with a table for which ``chats`` says yes (a platform's topics of one
        group)."""
        return [chat for chat in self.open if chats(chat)]

    def is_host(self, chat: str, user: str) -> bool | None:
        """Whether ``user`` hosts the table in ``chat`` (None: no table there)."""
        table = self.open.get(chat)
        return None if table is None else table.host == user

    def invited(self, chat: str, user: str) -> bool:
        """Whether ``user`` was told of the table now open in ``chat`` by a /notify message:
        its Join button may then be pressed in their private chat."""
        table = self.open.get(chat)
        match = table.match if table is not None and table.is_open() else None
        return self.invitations.invited(chat, user, match)

    def phase_at(self, chat: str) -> Phase | None:
        """Where the table of ``chat`` is (None: no table there)."""
        table = self.open.get(chat)
        return None if table is None else table.state

    def open_games(self) -> list[tuple[str, str]]:
        """(chat, game) of every table open in this process."""
        return [(table.chat, table.game) for table in self.open.tables()]

    def game_at(self, chat: str) -> str | None:
        table = self.open.get(chat)
        return None if table is None else table.game

    def free_seats(self, chat: str) -> int:
        table = self.open.get(chat)
        return 0 if table is None else sum(seat is None for seat in table.seats)

    def deadline_at(self, chat: str) -> float | None:
        """When the table of ``chat`` acts by itself next (None: it waits for a command)."""
        table = self.open.get(chat)
        return None if table is None else table.next_wake()

    def is_seated(self, chat: str, user: str) -> bool:
        """Whether ``user`` sits at the open table of ``chat`` (a closed table keeps its
        seats for its final view, but they give no rights)."""
        table = self.open.get(chat)
        return table is not None and table.is_open() and table.seat_of(user) is not None

    def name_at(self, chat: str, user: str) -> str:
        """The player's name as the table in ``chat`` knows it; a person it does not know is
        "a player" in the table's language (an id is never shown)."""
        table = self.open.get(chat)
        known = table.names.get(user) if table is not None else None
        return known or t(self.language_at(chat), "A player")

    def match_at(self, chat: str) -> str | None:
        """The match now at the table of ``chat`` held here (a page link is signed for it)."""
        table = self.open.get(chat)
        return table.match if table is not None else None

    def language_at(self, chat: str) -> str:
        table = self.open.get(chat)
        return table.lang if table is not None else self.language

    def reader_language(self, chat: str, user: str) -> str:
        """The language ``user`` reads at the table of ``chat``: their own choice (/lang), else
        the one the table speaks to them (each player of a quick table has theirs), else the
        table's."""
        table = self.open.get(chat)
        known = table.lang_of(user) if table is not None else self.language
        return self.user_langs.get(user) or known

    def table_of(self, user: str) -> str | None:
        """The chat of the open table where ``user`` sits (a running hand first), for what
        names no table: a deep link without one, completing /play in a private chat. (Typed
        private commands are routed by `bot.commands.private_chat`.)"""
        seated = self.open.seating(user)
        seated.sort(key=lambda table: table.state != PLAYING)
        return seated[0].chat if seated else None

    def suggestions(self, chat: str, user: str) -> list[tuple[str, str]]:
        """What ``user`` may complete `/play` with at the table in ``chat``: (how it reads
        in the player's language, what `/play` takes)."""
        table = self.open.get(chat)
        seat = table.seat_of(user) if table is not None else None
        if table is None or seat is None or table.hand is None or table.hand.over:
            return []
        lang, front = table.lang_of(user), table.front
        values = dict.fromkeys(front.suggestions(table.hand, seat))
        return [(front.suggestion_label(lang, value), value) for value in values]

    @staticmethod
    def presets(game: str) -> tuple[str, ...]:
        return presets(game)

    def seat_at(self, chat: str, user: str) -> int | None:
        """The seat ``user`` holds at the open table of ``chat`` (None: none)."""
        table = self.open.get(chat)
        return None if table is None or not table.is_open() else table.seat_of(user)

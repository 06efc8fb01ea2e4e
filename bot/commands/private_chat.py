"""Commands typed in a private chat: which of the player's tables they act at.

A player usually sits at one table, and what they type to the bot privately acts there. A
player seated at several names one — ``/play@2 ♠3`` or ``/play @2 ♠3``, by the number the bot
lists or by a word of the group's name. Without a name, a move goes to the one table whose
hand waits on the player (``/hand`` shows every running hand); anything else is answered with
the list and a button per table, and nothing is done. Buttons need none of this: each carries
its table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from bot.commands.registry import MOVES, NEEDS_NO_TABLE, SHOWS_HAND
from bot.i18n import N_, t
from bot.reading.command import Command
from bot.reading.echo import echoed
from bot.table.effects import Effects
from bot.table.state import PLAYING, Table
from bot.views.outgoing import Button, Kind, Outgoing


@dataclass(frozen=True)
class Routed:
    """Where a private command acts: ``commands`` (one per table: several for ``/hand``),
    or ``answer`` instead (which table? — nothing done)."""

    commands: tuple[Command, ...] = ()
    answer: Effects | None = None
    several: bool = False
    """The player sits at more than one table: each answer says which it came from."""


def needs_routing(tables: Mapping[str, Table], command: Command) -> bool:
    """A command typed in a private chat that is not itself an open table's."""
    here = tables.get(command.chat)
    open_here = here is not None and here.is_open()
    return command.private and command.name not in NEEDS_NO_TABLE and not open_here


def route(seated: Sequence[Table], command: Command, lang: str) -> Routed:
    """Where a private command acts, given the open tables where its sender sits (in the
    order the bot lists them: `bot.hosting.open_tables.OpenTables.seating`)."""
    choice, args = _table_choice(command.args)
    command = replace(command, args=args)
    several = len(seated) > 1
    if choice is not None and seated:
        found = _chosen(seated, choice)
        if len(found) == 1:
            return Routed((replace(command, chat=found[0].chat),), several=several)
        return Routed(answer=_which(seated, command, lang, unknown=choice))
    if len(seated) <= 1:
        chats = [table.chat for table in seated] or [command.chat]
        return Routed((replace(command, chat=chats[0]),))
    running = [table for table in seated if table.state == PLAYING and table.hand is not None]
    if command.name in SHOWS_HAND and running:
        return Routed(tuple(replace(command, chat=table.chat) for table in running), several=True)
    if command.name in MOVES:
        waiting = [table for table in running if _waits_on(table, command.user)]
        candidates = waiting or running
        if len(candidates) == 1:
            return Routed((replace(command, chat=candidates[0].chat),), several=True)
    return Routed(answer=_which(seated, command, lang))


def name_the_table(out: list[Outgoing], table: Table, user: str, lang: str) -> list[Outgoing]:
    """The answers to ``user`` headed with the table they came from."""
    label = table.label(lang)
    return [
        replace(message, text=t(lang, "At {table}: {text}", table=label, text=message.text))
        if message.kind == Kind.REPLY and message.user == user
        else message
        for message in out
    ]


def _table_choice(args: tuple[str, ...]) -> tuple[str | None, tuple[str, ...]]:
    """``("@2", "S3")`` → ("2", ("S3",)); ``#2`` works too."""
    if args and len(args[0]) > 1 and args[0][0] in "@#":
        return args[0][1:], args[1:]
    return None, args


def _chosen(seated: Sequence[Table], choice: str) -> list[Table]:
    if choice.isascii() and choice.isdigit():
        number = int(choice) if len(choice) <= 3 else 0
        return [seated[number - 1]] if 1 <= number <= len(seated) else []
    word = choice.casefold()
    return [table for table in seated if word in table.title.casefold()]


def _waits_on(table: Table, user: str) -> bool:
    seat = table.seat_of(user)
    return seat is not None and table.turn_seat == seat and not table.paused


def _which(
    seated: Sequence[Table], command: Command, lang: str, unknown: str | None = None
) -> Effects:
    """Which table? The list, an example with the number, and a button per table (it shows
    that table's hand, whose buttons then act there)."""
    said = [echoed(" ".join(command.args))] if command.args else []
    example = " ".join([f"/{command.name}", "@1", *said])
    lines = []
    if unknown is not None:
        choice = f"@{echoed(unknown)}"
        lines.append(t(lang, N_("None of your tables is {choice}."), choice=choice))
    lines.append(
        t(
            lang,
            N_(
                "You sit at several tables: say which one after the command, as in "
                "{example}, or press a table for its hand there."
            ),
            example=example,
        )
    )
    buttons = []
    for number, table in enumerate(seated, 1):
        name = f"@{number} · {table.label(lang)}"
        lines.append(f"{name} — {t(lang, table.front.title)}")
        buttons.append(Button(name, "/hand", table.stamp().text(), chat=table.chat))
    out = Outgoing(
        Kind.REPLY,
        command.chat,
        "\n".join(lines),
        user=command.user,
        buttons=tuple((button,) for button in buttons),
    )
    return Effects(out=[out])

"""Being told when a game starts: ``/notify`` in a group subscribes (or unsubscribes) the
sender; when a table opens there, each subscriber gets a private message with a Join button —
at most one per group per `NOTICE_GAP` seconds per person, counted in storage so a restart
does not reset it. ``/notify`` in a private chat lists the subscriptions and stops them.

Every /new opens a new match here, so "a table opens" and "a new match starts" are one event:
one message, not two.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from bot.i18n import N_, t
from bot.reading.command import Command
from bot.table.effects import Effects
from bot.table.state import Table
from bot.views.outgoing import Button, Kind, Outgoing
from storage import Database

NOTICE_GAP = 600.0
"""Seconds between two notices of one group to one person."""
NOTICE_SLOT = "notify"
"""The slot of a notice (with the match's tag): adapters tell it from other private
messages (Discord: a member whose DMs are closed is told so in the channel, ephemerally)."""
ALL_WORDS = frozenset({"all", "全部", "所有"})
UNNAMED = N_("a group whose name the platform did not give")
"""A subscription's group when the platform gave no name (a chat's id is never shown)."""
MATCH_ROUNDING = 1e-6
"""A match's id is the time it opened, to the microsecond (`bot.table.state.Table`)."""


class Invitations:
    """Who was told of which table, so that the Join button of the notice works from their
    private chat (a press there acts only on tables its presser was invited to). Kept in
    memory, and recalled from storage for a table rebuilt after a restart (`recall`): a
    subscriber was told of a match when storage says they were told at or after its start."""

    def __init__(self) -> None:
        self._invited: dict[tuple[str, str], str] = {}

    def invite(self, chat: str, user: str, match: str) -> None:
        self._invited[(chat, user)] = match

    def invited(self, chat: str, user: str, match: str | None) -> bool:
        return match is not None and self._invited.get((chat, user)) == match

    async def recall(self, db: Database, chat: str, match: str) -> None:
        """The invitations to the match of ``chat`` (its id is the time it opened), from the
        stored subscriptions: those told since it opened were told of it."""
        opened = float(match) - MATCH_ROUNDING
        for user, told_at in await db.subscribers(chat):
            if told_at is not None and told_at >= opened:
                self.invite(chat, user, match)

    def forget(self, chat: str) -> None:
        self._invited = {key: match for key, match in self._invited.items() if key[0] != chat}


class NoticeHost(Protocol):
    """What notices need of the manager."""

    db: Database
    language: str
    user_langs: dict[str, str]
    invitations: Invitations

    @property
    def clock(self) -> Callable[[], float]: ...


def _reply(command: Command, lang: str, key: str, **values: object) -> Effects:
    text = t(lang, key, **values)
    return Effects(out=[Outgoing(Kind.REPLY, command.chat, text, user=command.user)])


async def notify(host: NoticeHost, command: Command, table: Table | None, lang: str) -> Effects:
    """``/notify``: in a group, subscribe or unsubscribe; privately, list or stop."""
    if command.private:
        return await _in_private(host, command, lang)
    title = command.chat_title or (table.label(lang) if table is not None else "")
    async with host.db.transaction() as tx:
        if await tx.unsubscribe(command.chat, command.user):
            return _reply(command, lang, "You will no longer be told when a game starts here.")
        await tx.subscribe(command.chat, command.user, title, host.clock())  # never the id
    effects = _reply(
        command,
        lang,
        "I will tell you privately when a game starts here (at most once in "
        "10 minutes). /notify again stops it.",
    )
    confirm = t(
        lang,
        "You will be told here when a game starts in {group}. /notify here lists "
        "and stops these messages.",
        group=title or t(lang, "that group"),
    )
    effects.out.append(
        Outgoing(
            Kind.PRIVATE,
            command.chat,
            confirm,
            user=command.user,
            slot=f"{NOTICE_SLOT} {command.chat}",
        )
    )
    return effects


async def _in_private(host: NoticeHost, command: Command, lang: str) -> Effects:
    subscribed = await host.db.subscriptions_of(command.user)
    if not subscribed:
        return _reply(
            command,
            lang,
            "You have no game alerts. Say /notify in a group to be told when a game starts there.",
        )
    if not command.args:
        lines = [t(lang, "You are told when a game starts in:")]
        lines += [
            f"{number}. {title or t(lang, UNNAMED)}"
            for number, (_, title) in enumerate(subscribed, 1)
        ]
        lines.append(t(lang, "/notify 1 stops the first, /notify all stops them all."))
        return Effects(
            out=[Outgoing(Kind.REPLY, command.chat, "\n".join(lines), user=command.user)]
        )
    word = command.args[0].lower()
    if word in ALL_WORDS:
        chosen = subscribed
    elif word.isascii() and word.isdigit() and 1 <= int(word) <= len(subscribed):
        chosen = [subscribed[int(word) - 1]]
    else:
        return _reply(
            command,
            lang,
            "Say /notify and a number from 1 to {count}, or all.",
            count=len(subscribed),
        )
    async with host.db.transaction() as tx:
        for chat, _ in chosen:
            await tx.unsubscribe(chat, command.user)
    names = t(lang, ", ").join(title or t(lang, UNNAMED) for _, title in chosen)
    return _reply(command, lang, "No more game alerts from {groups}.", groups=names)


async def table_opened(host: NoticeHost, table: Table, opener: str) -> Effects:
    """The private notices of a table just opened: to each subscriber of its group but the
    opener, unless they were told of a game there less than `NOTICE_GAP` seconds ago. When
    they were told is stored with the step that opens the table (``Effects.told``)."""
    now = host.clock()
    due = [
        user
        for user, told_at in await host.db.subscribers(table.chat)
        if user != opener and (told_at is None or now - told_at >= NOTICE_GAP)
    ]
    if not due:
        return Effects()
    out = []
    stamp = table.stamp().text()
    for user in due:
        lang = host.user_langs.get(user) or await host.db.player_lang(user) or table.lang
        text = t(
            lang,
            "A {game} table opened in {group}: {name} hosts it. Press Join to sit down.",
            game=t(lang, table.front.title),
            group=table.label(lang),
            name=table.names.get(opener) or t(lang, "A player"),
        )
        join = Button(t(lang, "Join"), "/join", stamp, chat=table.chat)
        host.invitations.invite(table.chat, user, table.match)
        out.append(
            Outgoing(
                Kind.PRIVATE,
                table.chat,
                text,
                user=user,
                buttons=((join,),),
                slot=f"{NOTICE_SLOT} {table.tag}",
            )
        )
    return Effects(out=out, told=(tuple(due), now))

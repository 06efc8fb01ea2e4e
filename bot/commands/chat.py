"""The commands a chat answers itself, before or beside its table: opening a table, a
player's statistics and the chat's leaderboard, the last hand's record, a private /lang,
and /score where no table is open.

Each is a `ChatHandler`: ``(host, command, table, lang) -> Effects`` — or None, which hands
the command on to the chat's table (`bot.commands.steps`). ``host`` is the manager, seen through
the few things these handlers need of it (`ChatHost`).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from typing import Protocol

from bot.commands import notices
from bot.community.player_records import achievements_of
from bot.community.record_book import ACHIEVED, RecordBook
from bot.games import FRONTS, GAME_NAMES, RECORD_READERS, preset_text, presets_text
from bot.i18n import LANGUAGES, N_, normalize_language, t
from bot.reading.command import Command
from bot.reading.echo import echoed
from bot.table import lobby
from bot.table.effects import Effects
from bot.table.state import CLOSED, Table
from bot.views.outgoing import Kind, Outgoing
from engine.errors import RecordError
from storage import Database


class ChatHost(Protocol):
    """What the chat's own commands need of the manager."""

    db: Database
    language: str
    user_langs: dict[str, str]
    invitations: notices.Invitations
    records: RecordBook

    @property
    def clock(self) -> Callable[[], float]: ...

    def open_table(self, command: Command, game: str, preset: str, lang: str) -> Table:
        """A new table in the command's chat, hosted by its sender (replacing a closed one);
        `RecordError` for a preset the game does not have."""

    def tables_seating(self, user: str) -> Iterable[Table]:
        """The tables where ``user`` has a seat."""

    async def closed_table(self, chat: str) -> Table | None:
        """The table last closed in ``chat``, as storage keeps it (None: there is none)."""


ChatHandler = Callable[[ChatHost, Command, Table | None, str], Awaitable[Effects | None]]


def reply(command: Command, lang: str, key: str, **values: object) -> Effects:
    text = t(lang, key, **values)
    return Effects(out=[Outgoing(Kind.REPLY, command.chat, text, user=command.user)])


def games_text(lang: str) -> str:
    """The games a table can be opened for: the name /new takes, and the game in ``lang``."""
    return " / ".join(
        t(lang, "{name} ({game})", name=name, game=t(lang, FRONTS[name].title))
        for name in GAME_NAMES
    )


async def new(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    if table is not None and table.state != CLOSED:
        return reply(command, lang, "A table is already open here.")
    game = command.args[0].lower() if command.args else ""
    if game not in FRONTS:
        return reply(command, lang, "Say /new and the game: {games}.", games=games_text(lang))
    front = FRONTS[game]
    preset = command.args[1] if len(command.args) > 1 else front.game.default_preset
    try:
        table = host.open_table(command, game, preset, lang)
    except RecordError:
        return reply(
            command,
            lang,
            "Unknown preset {preset}. Presets: {choices}.",
            preset=echoed(preset),
            choices=presets_text(lang, game),
        )
    opened = t(
        lang,
        "{name} opened a {game} table ({preset}). /join to sit down, /addbot for an "
        "AI player, /start when four are seated.",
        name=command.user_name,
        game=t(lang, front.title),
        preset=preset_text(lang, game, preset),
    )
    effects = Effects(table_changed=True)
    lobby_post = Outgoing(Kind.GROUP, command.chat, opened, buttons=(lobby.lobby_buttons(table),))
    effects.out.append(table.with_buttons_of_the_phase(lobby_post, "lobby"))
    join = Command("join", (), command.user, command.user_name, command.chat, False, command.lang)
    effects.extend(lobby.join(table, join))
    table.keep_lobby_open()
    effects.extend(await notices.table_opened(host, table, command.user))
    return effects


async def stats(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    """``/stats``: in a group, the sender's records there (`bot.community.player_records`);
    privately, their figures over every group."""
    if not command.private:
        return await _records_here(host, command, lang)
    found = await host.db.player_stats(command.user)
    text = t(
        lang,
        "{name}: {hands} hands, {wins} won, total {total}, first out {first} "
        "times, bonus in {bonus} hands",
        name=command.user_name,
        hands=found["hands"],
        wins=found["wins"],
        total=found["total"],
        first=found["first_out"],
        bonus=found["bonus_hands"],
    )
    return Effects(out=[Outgoing(Kind.REPLY, command.chat, text, user=command.user)])


async def _records_here(host: ChatHost, command: Command, lang: str) -> Effects:
    record = await host.records.record_of(command.chat, command.user)
    if record is None:
        return reply(command, lang, "No hand of yours has been finished here yet.")
    lines = [
        t(
            lang,
            "{name} here: {hands} hands, {wins} won, total {total}; {streak} won in a "
            "row now, best {best}; biggest win {big}",
            name=command.user_name,
            hands=record.hands,
            wins=record.wins,
            total=record.total,
            streak=record.streak,
            best=record.best_streak,
            big=record.best_hand,
        )
    ]
    feats: list[str] = []
    for game in GAME_NAMES:
        reader = RECORD_READERS[game]
        lines += reader.stats_lines(lang, record)
        if record.games[game]:
            feats += [
                t(lang, feat.title)
                for feat in achievements_of(game, RECORD_READERS)
                if feat.earned(record) and t(lang, feat.title) not in feats
            ]
    if feats:
        lines.append(t(lang, ACHIEVED, feats=" · ".join(feats)))
    return Effects(out=[Outgoing(Kind.REPLY, command.chat, "\n".join(lines), user=command.user)])


PERIODS: dict[str, float | None] = {
    "week": 7 * 86_400.0, "周": 7 * 86_400.0, "週": 7 * 86_400.0, "本周": 7 * 86_400.0,
    "本週": 7 * 86_400.0, "month": 30 * 86_400.0, "月": 30 * 86_400.0, "本月": 30 * 86_400.0,
    "all": None, "全部": None, "总": None, "總": None,
}  # fmt: skip
"""``/top`` periods as players type them: the last 7 or 30 days, or all time."""
PERIOD_TITLES = {7 * 86_400.0: N_("the last 7 days"), 30 * 86_400.0: N_("the last 30 days")}


async def top(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    """``/top [week|month|all] [GAME]``: the group's leaderboard over a period, for a game."""
    period: float | None = None
    game: str | None = None
    for word in (arg.lower() for arg in command.args):
        if word in PERIODS:
            period = PERIODS[word]
        elif word in FRONTS:
            game = word
        else:
            return reply(
                command,
                lang,
                "Say /top with week, month or all, and a game if you like: {games}.",
                games=games_text(lang),
            )
    history = await host.records.history(command.chat)
    since = None if period is None else host.clock() - period
    rows = history.top(since, game, RECORD_READERS)
    if not rows:
        return reply(command, lang, "No hand has been finished here yet.")
    what = t(lang, PERIOD_TITLES[period]) if period is not None else t(lang, "all time")
    if game is not None:
        what += t(lang, ", ") + t(lang, FRONTS[game].title)
    lines = [t(lang, "Leaderboard ({what}):", what=what)]
    lines += [
        t(
            lang,
            "{place}. {name} {total} ({hands} hands)",
            place=place,
            name=name,
            total=total,
            hands=hands,
        )
        for place, (name, total, hands) in enumerate(rows, 1)
    ]
    kind = Kind.REPLY if command.private else Kind.GROUP  # asked privately: said privately
    return Effects(out=[Outgoing(kind, command.chat, "\n".join(lines), user=command.user)])


async def export(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    hands = [h for h in await host.db.hands_of(command.chat) if h.result is not None]
    if not hands:
        return reply(command, lang, "No finished hand to export yet.")
    last = hands[-1]
    record = dict(last.start)
    record["actions"] = last.actions
    text = json.dumps(record, ensure_ascii=False)
    name = f"hand-{last.number}.json"
    out = Outgoing(Kind.PRIVATE, command.chat, text, user=command.user, filename=name)
    return Effects(out=[out])


async def language(
    host: ChatHost, command: Command, table: Table | None, lang: str
) -> Effects | None:
    """``/lang`` in a private chat is the player's language for every private message, at
    every table (and the table where they sit learns it at once); in a group it is the
    table's (`bot.table.setting_commands.lang`)."""
    if not command.private:
        return None
    wanted = normalize_language(command.args[0]) if command.args else None
    if wanted is None:
        lang = host.user_langs.get(command.user) or host.language
        return reply(
            command, lang, "Languages: {languages}", languages=t(lang, ", ").join(LANGUAGES)
        )
    host.user_langs[command.user] = wanted
    await host.db.set_player(command.user, command.user_name, wanted)
    for seated in host.tables_seating(command.user):
        seated.set_player_language(command.user, wanted, command.user_name)
    effects = reply(command, wanted, "Language set.")
    effects.table_changed = table is not None and table.seat_of(command.user) is not None
    return effects


async def final_score(
    host: ChatHost, command: Command, table: Table | None, lang: str
) -> Effects | None:
    """``/score`` after a match ends shows its final score, read from storage (a closed
    table is not kept in memory; storage keeps it until the retention period ends); at an
    open table, the table's own (`bot.table.lobby.score`)."""
    if table is None:
        table = await host.closed_table(command.chat)
    if table is not None and table.state == CLOSED:
        return lobby.score(table, command)
    return None


NO_TABLE = N_("No table here. Open one with /new and the game: {games}.")

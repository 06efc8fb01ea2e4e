"""``/quick``: a person asks, in a private chat (or the console), for a table of strangers.

``/quick situan|erqiwang [PRESET] [noai]`` puts them in that game's queue (`storage.quick_queue`;
``noai``: only a table of four people, never AI seats); ``/quick`` alone says where they
stand; ``/quick stop`` takes them out. The queue is matched by `bot.community.quick_seating`. Every
refusal says what to do instead and changes nothing.
"""

from __future__ import annotations

import math

from bot.commands.chat import ChatHost, games_text, reply
from bot.community.quick_seating import is_quick
from bot.community.skill_ratings import MODEL
from bot.games import FRONTS, preset_text, presets_text
from bot.i18n import N_, t
from bot.reading.command import Command
from bot.table.effects import Effects
from bot.table.state import Table
from storage.quick_queue import QueueEntry

QUICK_WAIT = 90.0
"""Seconds the longest waiting waits before a table opens with AI seats (the issue's
``quick_wait``)."""
DAY = 86_400.0
PAUSE = 3600.0
"""How long three leaves within a day pause a person's quick queue."""
STOP_WORDS = frozenset({"stop", "停", "停止", "退出", "取消"})
NO_AI_WORDS = frozenset({"noai", "no-ai", "不要电脑", "不要電腦"})


async def quick(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    if not command.private:
        return reply(
            command,
            lang,
            "/quick is for a private chat with the bot: write it to "
            "me there, and I find you a table of players from anywhere.",
        )
    words = [arg.lower() for arg in command.args]
    if not words:
        return await _where(host, command, lang)
    if words[0] in STOP_WORDS:
        async with host.db.transaction() as tx:
            left = await tx.leave_queue(command.user)
        return reply(
            command,
            lang,
            "You left the quick queue." if left else NOT_WAITING,
            games=games_text(lang),
        )
    if any(is_quick(seated.chat) for seated in host.tables_seating(command.user)):
        return reply(command, lang, AT_A_QUICK_TABLE)
    game = words[0]
    if game not in FRONTS:
        return reply(command, lang, "Say /quick and a game: {games}.", games=games_text(lang))
    accepts_ai = not any(word in NO_AI_WORDS for word in words[1:])
    named = [arg for arg in command.args[1:] if arg.lower() not in NO_AI_WORDS]
    front = FRONTS[game]
    preset = named[0] if named else front.game.default_preset
    if preset not in front.game.presets:
        return reply(
            command,
            lang,
            "Unknown preset {preset}. Presets: {choices}.",
            preset=preset,
            choices=presets_text(lang, game),
        )
    paused_for = await paused(host, command.user)
    if paused_for:
        return reply(
            command,
            lang,
            "You left three hands before their end within a day: "
            "your quick queue is paused for {minutes} more minutes.",
            minutes=paused_for,
        )
    mu = next(
        (row.mu for row in await host.db.ratings_of(command.user) if row.game == game), MODEL.mu
    )
    entry = QueueEntry(command.user, game, preset, mu, host.clock(), accepts_ai, lang)
    async with host.db.transaction() as tx:
        await tx.set_player(command.user, command.user_name, None)
        joined = await tx.join_queue(entry)
    if not joined:
        return reply(
            command,
            lang,
            "You are waiting for a quick table already: /quick to see "
            "where you stand, /quick stop to leave.",
        )
    said = QUEUED if accepts_ai else QUEUED_NO_AI
    return reply(
        command,
        lang,
        said,
        game=t(lang, front.title),
        preset=preset_text(lang, game, preset),
        seconds=round(QUICK_WAIT),
    )


async def paused(host: ChatHost, user: str) -> int:
    """The minutes left of the person's pause (0: none): three hands left before their end
    within a day pause the queue for an hour after the third."""
    now = host.clock()
    leaves = await host.db.leaves_since(user, now - DAY - PAUSE)
    for third, first in zip(leaves[2:], leaves, strict=False):
        if third - first <= DAY and now < third + PAUSE:
            return max(1, math.ceil((third + PAUSE - now) / 60))
    return 0


async def _where(host: ChatHost, command: Command, lang: str) -> Effects:
    entry = await host.db.queue_entry(command.user)
    if entry is None:
        return reply(command, lang, NOT_WAITING, games=games_text(lang))
    others = await host.db.waiting_in(entry.game, entry.preset) - 1
    said = WAITED_ALONE if others == 0 else WAITED
    return reply(
        command,
        lang,
        said,
        seconds=round(host.clock() - entry.since),
        game=t(lang, FRONTS[entry.game].title),
        preset=preset_text(lang, entry.game, entry.preset),
        others=others,
    )


async def block(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    """``/block NAME``: the person of that name at the sender's last quick table is never
    matched with them again (either way round)."""
    if not command.private:
        return reply(
            command, lang, "/block is for a private chat with the bot: write it to me there."
        )
    tables = [users for _, users in await host.db.quick_tables() if command.user in users]
    if not tables:
        return reply(
            command,
            lang,
            "/block is for the players of your last quick table, and "
            "you have not played at one yet.",
        )
    others = [user for user in tables[-1] if user != command.user]
    names = await host.db.names_of(others)
    wanted = " ".join(command.args).strip().casefold()
    found = [user for user in others if names.get(user, "").casefold() == wanted]
    if not wanted or not found:
        listed = t(lang, ", ").join(names.get(user, "?") for user in others)
        return reply(
            command,
            lang,
            "Say /block and the name of a player at your last quick table: {names}.",
            names=listed,
        )
    async with host.db.transaction() as tx:
        await tx.block(command.user, found[0], host.clock())
    return reply(command, lang, "You will not be matched with {name} again.", name=names[found[0]])


async def report(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    """``/report [WHY]``: the sender's last finished hand goes to the operator's list, with
    what they say; its record is kept with every hand."""
    if not command.private:
        return reply(
            command, lang, "/report is for a private chat with the bot: write it to me there."
        )
    last = await host.db.last_hand_of(command.user)
    if last is None:
        return reply(
            command, lang, "/report is for a hand you played, and you have not finished one yet."
        )
    async with host.db.transaction() as tx:
        await tx.report(command.user, last[0], last[1], " ".join(command.args), host.clock())
    return reply(command, lang, "Thank you: your last hand's record is with the operator.")


AT_A_QUICK_TABLE = N_(
    "You are playing at a quick table: finish its hand, then say /quick again for the next."
)
NOT_WAITING = N_("You are in no quick queue. Say /quick and a game to join one: {games}.")
QUEUED = N_(
    "You are in the quick queue for {game} ({preset}). A table opens when four are "
    "waiting, or after {seconds} s with two or three of you and AI players in the empty "
    "seats. /quick to see where you stand, /quick stop to leave."
)
WAITED = N_(
    "You have waited {seconds} s for a quick {game} table ({preset}); {others} more wait "
    "with you. /quick stop to leave."
)
WAITED_ALONE = N_(
    "You have waited {seconds} s for a quick {game} table ({preset}), alone so far: a table "
    "needs at least one more person. /quick stop to leave."
)
QUEUED_NO_AI = N_(
    "You are in the quick queue for {game} ({preset}). A table opens when four "
    "are waiting (no AI players, as you asked). /quick to see where you stand, "
    "/quick stop to leave."
)

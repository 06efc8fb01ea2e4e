"""``/rating`` and ``/top rating [week]``: a player's skill ratings (`bot.community.skill_ratings`)
and the rating leaderboards, read from storage — the same in every chat and on every platform, since
a rating is the player's, not a group's."""

from __future__ import annotations

from collections.abc import Iterable

from bot.commands import chat as chat_commands
from bot.commands.chat import ChatHost, games_text, reply
from bot.community.skill_ratings import Rating, display, title_of
from bot.games import FRONTS, GAME_NAMES
from bot.i18n import t
from bot.reading.command import Command
from bot.table.effects import Effects
from bot.table.state import Table
from bot.views.outgoing import Kind, Outgoing
from storage.ratings import RatingMove

RATING_WORDS = frozenset({"rating", "ratings", "等级分", "等級分", "段位"})
"""What ``/top`` takes for the rating leaderboards rather than the group's ledger."""
WEEK_WORDS = frozenset({"week", "周", "週", "本周", "本週"})
WEEK = 7 * 86_400.0


def rating_line(lang: str, game: str, rating: Rating, hands: int) -> str:
    value = display(rating)
    return t(
        lang,
        "{game}: {value} {title} (μ {mu:.1f}, σ {sigma:.1f}; rated hands: {hands})",
        game=t(lang, FRONTS[game].title),
        value=value,
        title=t(lang, title_of(value)),
        mu=rating.mu,
        sigma=rating.sigma,
        hands=hands,
    )


async def rating(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    """``/rating [GAME]``: the sender's ratings, every game they were rated at (or one)."""
    games = list(GAME_NAMES)
    if command.args:
        wanted = command.args[0].lower()
        if wanted not in FRONTS:
            return reply(
                command,
                lang,
                "Say /rating, or /rating and a game: {games}.",
                games=games_text(lang),
            )
        games = [wanted]
    found = [
        row for row in await host.db.ratings_of(command.user) if row.game in games and row.hands > 0
    ]
    if not found:
        return reply(
            command, lang, "You have no rating yet: it comes with your first hand at a rated table."
        )
    lines = [t(lang, "{name}'s ratings:", name=command.user_name)]
    lines += [rating_line(lang, row.game, Rating(row.mu, row.sigma), row.hands) for row in found]
    return Effects(out=[Outgoing(Kind.REPLY, command.chat, "\n".join(lines), user=command.user)])


async def top(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    """``/top rating …``: the rating leaderboards; else the group's own (`chat_commands.top`)."""
    if command.args and command.args[0].lower() in RATING_WORDS:
        return await top_rating(host, command, lang)
    return await chat_commands.top(host, command, table, lang)


async def top_rating(host: ChatHost, command: Command, lang: str) -> Effects:
    """``/top rating [GAME] [week]``: the best rated players of each game (or one), or the
    week's movers: who gained the most display points over the last 7 days."""
    games: list[str] = list(GAME_NAMES)
    week = False
    for word in (arg.lower() for arg in command.args[1:]):
        if word in WEEK_WORDS:
            week = True
        elif word in FRONTS:
            games = [word]
        else:
            return reply(
                command,
                lang,
                "Say /top rating, with a game and week if you like: {games}.",
                games=games_text(lang),
            )
    lines: list[str] = []
    for game in games:
        if week:
            rows = movers(await host.db.rating_moves(game, host.clock() - WEEK))
        else:
            rows = [
                (row.name, display(Rating(row.mu, row.sigma)), None)
                for row in await host.db.rating_board(game)
            ]
        if not rows:
            continue
        heading = (
            "Rating movers of the last 7 days, {game}:" if week else "Rating leaderboard, {game}:"
        )
        lines.append(t(lang, heading, game=t(lang, FRONTS[game].title)))
        lines += [
            board_line(lang, place, name, value, moved)
            for place, (name, value, moved) in enumerate(rows, 1)
        ]
    if not lines:
        return reply(command, lang, "Nobody has a rating yet.")
    kind = Kind.REPLY if command.private else Kind.GROUP
    return Effects(out=[Outgoing(kind, command.chat, "\n".join(lines), user=command.user)])


def board_line(lang: str, place: int, name: str, value: int, moved: int | None) -> str:
    if moved is None:
        return t(
            lang,
            "{place}. {name} {value} {title}",
            place=place,
            name=name,
            value=value,
            title=t(lang, title_of(value)),
        )
    return t(
        lang,
        "{place}. {name} {moved:+d} (now {value})",
        place=place,
        name=name,
        moved=moved,
        value=value,
    )


def movers(moves: Iterable[RatingMove], limit: int = 10) -> list[tuple[str, int, int | None]]:
    """(name, display now, display gained) of who gained most over ``moves`` (oldest first):
    from their rating before their first move to after their last."""
    first: dict[str, Rating] = {}
    last: dict[str, tuple[str, Rating]] = {}
    for move in moves:
        first.setdefault(move.user, Rating(move.mu_before, move.sigma_before))
        last[move.user] = (move.name, Rating(move.mu, move.sigma))
    gains = [
        (name, display(now), display(now) - display(first[user]))
        for user, (name, now) in last.items()
    ]
    gains.sort(key=lambda row: -row[2])
    return [(name, value, gained) for name, value, gained in gains[:limit]]

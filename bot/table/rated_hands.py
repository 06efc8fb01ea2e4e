"""Rating a finished hand (`bot.community.skill_ratings`) inside the transaction that stores its
end, so the hand and its players' new ratings commit together or not at all.

The seats are taken as they sat when the hand ended (`rated_seats`, in the step that ended
it): a step may deal the next hand at once, and a person who left mid-hand frees their seat
before the next one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.community.skill_ratings import MODEL, RatedSeat, Rating, display, rate
from bot.games import RECORD_READERS
from bot.i18n import t
from bot.table.state import Table
from storage.base import Transaction
from storage.ratings import RatingMove


def rated_seats(table: Table) -> tuple[RatedSeat, ...] | None:
    """The seats of the hand just ended at ``table``, if the table is rated; None where it
    is not (a practice table never is, whatever its options say), or where no person sits (AI
    players' ratings are fixed), or where one person holds two seats (a test table: the hand says
    nothing of their skill)."""
    if not table.table_options.rated or table.table_options.practising:
        return None
    seats = []
    for occupant in table.seats:
        if occupant is None:
            return None
        seats.append(RatedSeat(occupant.user, occupant.name, occupant.level, occupant.left))
    people = [seat.user for seat in seats if seat.user is not None]
    if not people or len(set(people)) != len(people):
        return None
    return tuple(seats)


async def rate_hand(
    tx: Transaction,
    game: str,
    result: dict[str, Any],
    seats: Sequence[RatedSeat],
    hand_id: int,
    at: float,
) -> list[RatingMove]:
    """Rate the hand with the people's stored ratings and the AI levels' fixed ones; the
    people's new ratings are written. Returns the moves (none: the hand is not rated)."""
    reader = RECORD_READERS[game]
    results = reader.rated_results(result)
    if results is None:
        return []
    people = {index: seat.user for index, seat in enumerate(seats) if seat.user is not None}
    stored = await tx.ratings_to_update(game, list(people.values()), MODEL.mu, MODEL.sigma)
    fixed = {level: Rating(*value) for level, value in reader.ai_ratings.items()}
    before = [
        Rating(stored[seat.user].mu, stored[seat.user].sigma)
        if seat.user is not None
        else fixed.get(seat.level, fixed["normal"])
        for seat in seats
    ]
    lost = [index for index in people if seats[index].left]
    after = rate(results, before, lost)
    moves = [
        RatingMove(
            user,
            seats[index].name,
            before[index].mu,
            before[index].sigma,
            after[index].mu,
            after[index].sigma,
        )
        for index, user in people.items()
    ]
    await tx.save_ratings(game, hand_id, at, moves)
    for index in lost:
        await tx.note_leave(people[index], at)
    return moves


def moves_line(lang: str, moves: Sequence[RatingMove]) -> str:
    """The players' new ratings after a hand, for the post ending it: the display value and
    how far it moved."""
    said = []
    for move in moves:
        now = display(Rating(move.mu, move.sigma))
        moved = now - display(Rating(move.mu_before, move.sigma_before))
        said.append(t(lang, "{name} {value} ({moved:+d})", name=move.name, value=now, moved=moved))
    return t(lang, "Ratings: {moves}", moves=t(lang, ", ").join(said))

"""Skill ratings: who beat whom in a hand, as OpenSkill's Plackett–Luce model rates it.

A rating is OpenSkill's (μ, σ): μ the skill it believes, σ how unsure it is (a newcomer
starts at the model's own 25 and 25/3). The rating is updated by the ``openskill`` library
itself, never a formula of ours; what is the game's is what a hand is rated as
(`bot.community.player_records.RecordReader.rated_results`): 四团's is one result, its two
teams of partners; 二七王's is three one-against-one results, the declarer against each
defender, which the library rates in turn — the declarer takes all three, one after the other
(as if three games were played), each defender one. (Rated as two teams, the declarer against
the three defenders, the library would sum the defenders' μ and expect them to win almost
always: among equal players every rating sank.)

An AI seat takes part with the fixed rating of its level (the game's
`bot.community.player_records.RecordReader.ai_ratings`, measured by ``bench/ai_ratings.py``) and is
never updated, so a hand against AI players moves a person by what beating (or losing to) that level
is worth.

Players see a display value of 0–3000 (`display`) and a rank title (`title_of`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from openskill.models import PlackettLuce

from bot.i18n import N_

MODEL = PlackettLuce()
"""The library's defaults: μ 25, σ 25/3, β 25/6, τ 25/300 (σ grows by τ before each hand, so a
rating never settles for good)."""


class RatedSeat(NamedTuple):
    """Who sat at a seat of a rated hand when it ended."""

    user: str | None
    """The person's id; None for an AI player."""
    name: str
    level: str
    """An AI player's level."""
    left: bool
    """The person left during the hand: they take it as lost."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MODEL.mu
    sigma: float = MODEL.sigma


DISPLAY_SCALE = 60.0
"""Display points per unit of the conservative estimate μ − 3σ: a newcomer (25 − 3·25/3 = 0)
shows 0, and 50 — further than any rating the model reaches in practice — shows 3000."""
DISPLAY_TOP = 3000

TITLES: tuple[tuple[int, str], ...] = (
    (0, N_("Novice")),
    (600, N_("Regular")),
    (1200, N_("Expert")),
    (1800, N_("Master")),
    (2400, N_("Grandmaster")),
)
"""The rank titles from the display value up: in Chinese 新手, 熟手, 高手, 大师, 宗师 — the
everyday words for a beginner, a practised hand, an expert, a master and a grand master
(the first four as the issue names them; 宗师 is the common word above 大师). Five equal
bands of 600 over the 0–3000 scale."""


def display(rating: Rating) -> int:
    """The 0–3000 figure players see: the conservative estimate μ − 3σ, scaled, so it rises as
    the rating grows surer as well as higher."""
    value = round((rating.mu - 3 * rating.sigma) * DISPLAY_SCALE)
    return max(0, min(DISPLAY_TOP, value))


def title_of(value: int) -> str:
    """The message id of the rank title of a display value."""
    found = TITLES[0][1]
    for floor, title in TITLES:
        if value >= floor:
            found = title
    return found


def rate(
    results: Sequence[Sequence[Sequence[int]]],
    ratings: Sequence[Rating],
    lost: Sequence[int] = (),
) -> list[Rating]:
    """Every seat's rating after a hand: ``results`` what the hand is rated as, each the seats
    of its teams, winners first, rated by the library in turn from the ratings as they stand
    (a seat in several results takes each, one after the other); ``ratings`` each seat's
    rating before the hand. A seat in ``lost`` (a person who left the hand) takes each of its
    results as lost whatever its team did: it is rated in a team of its own, last."""
    after = list(ratings)
    for teams in results:
        gone = [seat for seat in lost if any(seat in team for team in teams)]
        groups = [[seat for seat in team if seat not in gone] for team in teams]
        groups = [team for team in groups if team] + [[seat] for seat in gone]
        placed = [
            [MODEL.rating(mu=after[s].mu, sigma=after[s].sigma) for s in team] for team in groups
        ]
        rated = MODEL.rate(placed, ranks=[float(place) for place in range(len(groups))])
        for team, new in zip(groups, rated, strict=True):
            for seat, value in zip(team, new, strict=True):
                after[seat] = Rating(value.mu, value.sigma)
    return after

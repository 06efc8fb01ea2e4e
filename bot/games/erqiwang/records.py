"""二七王 hands as records count them: 冲关 by level, and the declarer's bids by band, made
or not (`bot.community.player_records`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.community.player_records import Achievement, PlayerRecord, SeatFacts
from bot.i18n import N_, t

BID_BANDS = ((60, "≤60"), (80, "65–80"), (100, "85–100"), (10_000, "105+"))
"""The declarer's record is kept per band of bids (the points the defenders must reach: the
lower, the harder to make)."""
BONUS_MARK = "bonus:"


def bid_band(bid: int) -> str:
    return next(band for top, band in BID_BANDS if bid <= top)


class ErqiwangRecords:
    game = "erqiwang"
    achievements = (
        Achievement("huanghou", N_("冲关 皇后"), lambda r: r.marks["bonus:皇后"] >= 1),
        Achievement("huangshang", N_("冲关 皇上"), lambda r: r.marks["bonus:皇上"] >= 1),
        Achievement("bid60", N_("a bid of 60 or less made"), lambda r: r.marks["made:≤60"] >= 1),
    )

    ai_ratings: ClassVar[dict[str, tuple[float, float]]] = {
        "easy": (23.479, 1.693),
        "normal": (22.489, 1.529),
        "hard": (26.77, 1.552),
    }
    """``python bench/ai_ratings.py --game erqiwang --deals 300`` (hard on 8 playouts a
    decision), taken as measured under the reading of `rated_results` (three one-against-one
    results; bench/results/ai_ratings.txt)."""

    def rated_results(self, result: Mapping[str, Any]) -> list[list[list[int]]] | None:
        """Three one-against-one results: the declarer against each defender in turn, from
        the declarer's next seat on, the declarer winning all three or losing all three; a
        redeal (everyone passed) is not rated.

        Not the declarer against the three defenders as two teams: the library sums a team's
        μ, so three equal defenders (75) would be expected to beat an equal declarer (25)
        almost always — every made contract a great surprise, every lost one none — and the
        defenders, who lose about as often as declarers do, would sink every hand they lose
        and rise little when they win: over 200 hands among equal players every display
        value sank to 0. One against one, equal players are expected to win half their
        results, whichever side they sit on."""
        declarer = result.get("declarer")
        if result.get("redeal") or not isinstance(declarer, int):
            return None
        won = bool(result.get("declarer_won"))
        defenders = [(declarer + step) % 4 for step in (1, 2, 3)]
        return [[[declarer], [seat]] if won else [[seat], [declarer]] for seat in defenders]

    def seat_facts(self, result: Mapping[str, Any], seat: int) -> SeatFacts:
        marks = [
            BONUS_MARK + str(bonus.get("name"))
            for bonus in result.get("bonuses") or ()
            if bonus.get("seat") == seat
        ]
        bid = result.get("bid")
        if result.get("declarer") == seat and isinstance(bid, int):
            made = bool(result.get("declarer_won"))
            marks.append(f"{'made' if made else 'lost'}:{bid_band(bid)}")
        return SeatFacts(tuple(marks))

    def stats_lines(self, lang: str, record: PlayerRecord) -> list[str]:
        if not record.games[self.game]:
            return []
        bonuses = t(lang, ", ").join(
            f"{t(lang, mark.removeprefix(BONUS_MARK))} ×{count}"
            for mark, count in sorted(record.marks.items())
            if mark.startswith(BONUS_MARK)
        ) or t(lang, "none")
        bands = []
        for _, band in BID_BANDS:
            made, lost = record.marks[f"made:{band}"], record.marks[f"lost:{band}"]
            if made or lost:
                bands.append(
                    t(lang, "{band} made {made} of {bids}", band=band, made=made, bids=made + lost)
                )
        declared = t(lang, ", ").join(bands) or t(lang, "none")
        return [
            t(lang, "二七王: 冲关 {bonuses}; as declarer {bids}", bonuses=bonuses, bids=declared)
        ]

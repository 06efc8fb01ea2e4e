"""四团 hands as records count them: 上游, 双关 and the biggest 墩
(`bot.community.player_records`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from bot.community.player_records import Achievement, PlayerRecord, SeatFacts
from bot.i18n import N_, t
from engine.situan.outcome import team_of
from engine.situan.result import TEAM_NAMES


class SituanRecords:
    game = "situan"
    achievements = (
        Achievement("first_out1", N_("a first 上游"), lambda r: r.marks["first_out"] >= 1),
        Achievement("first_out10", N_("上游 ten times"), lambda r: r.marks["first_out"] >= 10),
        Achievement("double1", N_("a first 双关"), lambda r: r.marks["double"] >= 1),
        Achievement("dun8", N_("a 墩 of eight or more"), lambda r: r.sizes.get("dun", 0) >= 8),
    )

    ai_ratings: ClassVar[dict[str, tuple[float, float]]] = {
        "easy": (22.889, 2.079),
        "normal": (23.475, 2.039),
        "hard": (27.297, 2.116),
    }
    """``python bench/ai_ratings.py --game situan --deals 300`` (hard on 8 playouts a
    decision; bench/results/ai_ratings.txt)."""

    def rated_results(self, result: Mapping[str, Any]) -> list[list[list[int]]] | None:
        """One result: seats 0 and 2 against 1 and 3, the winning team first. A hand carried
        over into a series has no winner yet: the hand that decides the series is rated."""
        winner = result.get("winner")
        if winner not in TEAM_NAMES:
            return None
        teams = [[seat for seat in range(4) if team_of(seat) == team] for team in (0, 1)]
        return [teams if winner == TEAM_NAMES[0] else teams[::-1]]

    def seat_facts(self, result: Mapping[str, Any], seat: int) -> SeatFacts:
        marks = []
        finish = result.get("finish") or []
        if finish and finish[0] == seat:
            marks.append("first_out")
        if result.get("ended_by") == "double" and result.get("winner") == TEAM_NAMES[team_of(seat)]:
            marks.append("double")
        duns = (result.get("dun") or [[]] * 4)[seat]
        sizes = [size for size in duns if isinstance(size, int)]  # "LJ3", "KINGS4": no rank
        return SeatFacts(tuple(marks), (("dun", max(sizes)),) if sizes else ())

    def stats_lines(self, lang: str, record: PlayerRecord) -> list[str]:
        if not record.games[self.game]:
            return []
        first, double = record.marks["first_out"], record.marks["double"]
        if "dun" not in record.sizes:  # no 墩 yet: no size to name ("最大的墩 — 张" says nothing)
            return [
                t(
                    lang,
                    "四团: 上游 {first} times, 双关 {double} times, no 墩 yet",
                    first=first,
                    double=double,
                )
            ]
        return [
            t(
                lang,
                "四团: 上游 {first} times, 双关 {double} times, biggest 墩 {dun}",
                first=first,
                double=double,
                dun=record.sizes["dun"],
            )
        ]

"""四团 as a `engine.game.Game`: rules, deals and records behind the shared protocol."""

from __future__ import annotations

from typing import Any

from engine.actions import Action
from engine.game import Carry, Game, Player, fresh_seed
from engine.situan import record as records
from engine.situan.deal import Deal, deal_from_seed
from engine.situan.events import SituanEvent
from engine.situan.hand import SituanHand
from engine.situan.rules import PRESETS, Rules
from engine.situan.views import SituanView


class SituanGame(Game[SituanView, SituanEvent, Rules]):
    name = "situan"
    default_preset = "nanchang"

    @property
    def presets(self) -> tuple[str, ...]:
        return tuple(PRESETS)

    def rules(self, preset: str | None = None, **options: Any) -> Rules:
        return Rules.from_preset(preset or self.default_preset, **options)

    def deal(
        self,
        rules: Rules,
        seed: int | str | None = None,
        deal: Deal | None = None,
        carry: Carry | None = None,
    ) -> SituanHand:
        """The first hand of a match is led by the flipped card (or the first ♠3); later
        hands by the previous 上游, with a carried-over series' totals."""
        if deal is None:
            deal = deal_from_seed(fresh_seed() if seed is None else seed)
        if carry is None:
            return SituanHand(rules, deal)
        return SituanHand(rules, deal, carry.first, carry.team_totals)

    def hand_from_record(self, record: dict[str, Any]) -> SituanHand:
        return records.hand_from_record(record)

    def action_from_json(self, raw: Any) -> Action:
        return records.read_action(raw)

    def replay(self, record: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
        return records.replay(record, actions)

    def ai_player(self, level: str, seed: int | None = None, **search: Any) -> Player:
        from engine.ai.situan import ai_player  # the players import the rules, not back

        return ai_player(level, seed, **search)


SITUAN = SituanGame()

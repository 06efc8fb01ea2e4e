"""二七王 as a `engine.game.Game`: rules, deals and records behind the shared protocol."""

from __future__ import annotations

import random
from typing import Any

from engine.actions import Action
from engine.erqiwang import record as records
from engine.erqiwang.deal import Deal, deal_from_seed
from engine.erqiwang.events import ErqiwangEvent
from engine.erqiwang.hand import ErqiwangHand
from engine.erqiwang.rules import PRESETS, Rules
from engine.erqiwang.views import ErqiwangView
from engine.game import Carry, Game, Player, fresh_seed


class ErqiwangGame(Game[ErqiwangView, ErqiwangEvent, Rules]):
    name = "erqiwang"
    default_preset = "classic"

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
    ) -> ErqiwangHand:
        """The first hand of a match is bid first by seat 0 or, with ``first_bidder:
        random``, by a seat drawn from the seed; later hands by the carried first bidder."""
        if seed is None:
            seed = fresh_seed()
        if deal is None:
            deal = deal_from_seed(seed, rules.decks)
        if carry is not None:
            first = carry.first
        elif rules.first_bidder == "random":
            first = random.Random(f"{seed}:first bidder").randrange(4)
        else:
            first = 0
        return ErqiwangHand(rules, deal, first)

    def hand_from_record(self, record: dict[str, Any]) -> ErqiwangHand:
        return records.hand_from_record(record)

    def action_from_json(self, raw: Any) -> Action:
        return records.read_action(raw)

    def replay(self, record: dict[str, Any], actions: list[Any]) -> dict[str, Any]:
        return records.replay(record, actions)

    def ai_player(self, level: str, seed: int | None = None, **search: Any) -> Player:
        from engine.ai.erqiwang import ai_player  # the players import the rules, not back

        return ai_player(level, seed, **search)


ERQIWANG = ErqiwangGame()

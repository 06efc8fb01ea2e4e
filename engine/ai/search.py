"""The ``hard`` players: determinized sampling over the hidden cards (perfect-information
Monte Carlo, as in bridge and skat programs).

A decision is made from the seat's view alone. Each iteration deals the cards this seat has not
seen to the other hands (and, in 四团, the bottom; in 二七王, for a defender, the declarer's
buried cards) consistently with what is public, builds an engine hand in the same state, and
plays every candidate action out to the end with the ``normal`` player in all four seats. The
candidate with the best average result for this seat's side is chosen; the ``normal`` player's
own choice wins ties and is what is played when there is nothing to weigh.

The parts: the budget and the choice (`engine.ai.search_decision`), each game's sampled deals
(`engine.ai.situan_sampling`, `engine.ai.erqiwang_sampling`) and its candidates and playouts
(`engine.ai.situan_search`, `engine.ai.erqiwang_search`).
"""

from __future__ import annotations

from engine.ai.erqiwang_search import ErqiwangSearchAI
from engine.ai.situan_search import SituanSearchAI

__all__ = ["ErqiwangSearchAI", "SituanSearchAI"]

"""At a practice table, the rule behind each refusal, beside the refusal itself (each game's
front keeps its own: `bot.games.game_front.GameFront.refusal_lessons`), and the hint's offer."""

from __future__ import annotations

from bot.games import AnyFront
from bot.i18n import N_, t

HINT_NUDGE = N_("Not sure? /hint shows a move the rules allow, and why.")


def lesson(lang: str, front: AnyFront, code: str) -> str:
    """The rule behind a refusal (where the game writes one) and the hint's offer."""
    key = front.refusal_lessons.get(code)
    said = [t(lang, key)] if key else []
    return "\n".join([*said, t(lang, HINT_NUDGE)])

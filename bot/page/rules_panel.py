"""The web table's rules panel (issue 55 item 3): what /rules says and draws, as JSON the
page lays out with its own card faces.

Its one source is what /rules already uses: the game's four-line primer (`GameFront.
primer_text`) and the primer's picture (`GameFront.primer_picture`: the "what beats what"
ladder, its headers and its result line). The panel reads the picture's values instead of
drawing them, so the ladder is written once, in the game's primer module, for both.
"""

from __future__ import annotations

from typing import Any

from bot.games.game_front import AnyFront
from bot.i18n import t
from bot.pictures import CardFace


def card_text(face: CardFace) -> str:
    """A face in the page's card notation (`cards.js`): ``S10``, ``LJ``, or a bare rank for
    a 四团 card, which has no suit."""
    return face.suit + face.rank


def rules_panel(front: AnyFront, lang: str) -> dict[str, Any]:
    """The rules of ``front``'s game in ``lang``: the primer's lines, then the ladder of
    plays with their cards, the picture's headers and its result line."""
    picture = front.primer_picture(lang)
    return {
        "game": front.name,
        "lang": lang,
        "title": picture.title,
        "lines": t(lang, front.primer_text).split("\n"),
        "headers": list(picture.headers),
        "ladder": [
            {"label": play.seat, "cards": [card_text(face) for face in play.cards]}
            for play in picture.plays
        ],
        "result": picture.result,
        "by_rank": picture.layout == "by_rank",
    }

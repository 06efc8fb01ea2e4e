"""A table whose match is over, as a page opened after its end draws it.

Memory keeps no closed table (`bot.keeping.TableKeeper.let_go_if_closed`): storage has it,
with the hand its match ended with, until the retention period. A page opened then gets
what a page open at the end kept showing — the last hand's settlement beside the match's
score (`bot.web_view.page_state`) — read from storage, the last hand replayed from its
record. Nothing of it changes any more, and nothing can be played there.
"""

from __future__ import annotations

import logging

from bot.manager import TableManager
from bot.table import Table

log = logging.getLogger(__name__)


async def ended_table(manager: TableManager, chat: str) -> Table | None:
    """The table last closed in ``chat`` with its last hand (None: none is stored, or the
    chat has an open table)."""
    if not chat or manager.has_table(chat):
        return None
    table = await manager.closed_table(chat)
    if table is None:
        return None
    hands = await manager.db.hands_of(chat, table.match, table.hand_number)
    if hands and hands[-1].result is not None:
        game = table.front.game
        try:
            hand = game.hand_from_record(hands[-1].start)
            for raw in hands[-1].actions:
                hand.apply(game.action_from_json(raw))
        except Exception:  # a record this version cannot read: the score alone is shown
            log.exception("the last hand of %s could not be replayed", chat)
        else:
            table.recall_last_hand(hand)
    return table

"""Hints at a table (/hint and the Hint button): asked under the table's lock (`ask`: is it
this seat's turn, is one left), the ``hard`` player's own decision from that seat's view alone
(`hint_job` runs `bot.table.ai_turns.decide_job`, the function every ``hard`` seat is decided
by), answered if the table is still where it was (`answer`: the move's cards chosen in the
private hand and on the page, the player alone told — never the group), and the hint as the
web page shows it. It is thought out with the lock let go by `bot.hosting.hinting.Hints`; a
hinted move, once played at that turn, is marked ``"hinted": true`` in the hand record."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.ai_seats.worker_pool import Job
from bot.i18n import N_, t
from bot.reading.command import Command
from bot.table.ai_turns import ai_player, decide_job
from bot.table.effects import Effects
from bot.table.hand_views import fresh_hand
from bot.table.hint_book import HintAsked
from bot.table.playing import playing_seat
from bot.table.state import PLAYING, Table
from bot.views.outgoing import Kind, Outgoing
from engine.actions import Action, Bury, Play
from engine.ai.search_decision import Weighing

if TYPE_CHECKING:
    pass


HINT_LEVEL = "hard"
"""The AI level whose choice a hint is."""


NO_HINT = N_("No hint could be worked out this time: play as you see fit, or ask again.")


MOVED_ON = N_("The game moved on before the hint was ready: ask again on your turn.")


@dataclass(frozen=True)
class Advice:
    """What a worker makes of a hint: the move, and what the search saw."""

    move: Action
    weighing: Weighing


def still_current(table: Table, asked: HintAsked) -> bool:
    """The table is where it was when the hint was asked: same hand, turn and seat."""
    return (
        table.state == PLAYING
        and table.hand is not None
        and not table.hand.over
        and not table.paused
        and table.hand_number == asked.hand
        and table.turn_count == asked.turn
        and table.turn_seat == asked.seat
        and table.seat_of(asked.user) == asked.seat
    )


def hint_job(job: Job) -> Advice:
    """In a worker: the ``hard`` player's decision (`decide_job`, as for its seats) and what
    its search saw (none, when the job's deadline passed before it began)."""
    late = job.deadline is not None and time.monotonic() >= job.deadline
    move, _ = decide_job(job)
    deciding = ai_player(job.game, job.level, job.share)
    weighing = Weighing() if late else getattr(deciding, "weighing", Weighing())
    return Advice(move, weighing)


def ask(table: Table, command: Command) -> Effects:
    """/hint: checked now, thought out with the lock let go (`Effects.hint_asked`)."""
    seat = playing_seat(table, command)
    hand = table.hand
    assert hand is not None
    if table.turn_seat != seat or hand.over or table.paused:
        return table.reply(command, "A hint is for your own turn: ask again when it comes.")
    if table.acts_by_itself(seat):
        return table.reply(
            command, "You are on auto-play (托管): turn it off with /auto off, then ask for a hint."
        )
    allowed = table.table_options.hints_allowed
    left = table.hints.left(table.hand_number, seat, allowed)
    if left == 0 and allowed == 0:
        return table.reply(
            command,
            "This table gives no hints. The host may allow some: /settings hints_per_hand 3",
        )
    if left == 0:
        return table.reply(
            command,
            "You have had this hand's {count} hints: play on your own "
            "(the host may allow more: /settings hints_per_hand).",
            count=allowed,
        )
    asked = HintAsked(
        table.chat,
        table.hand_number,
        table.turn_count,
        seat,
        command.user,
        table.answer_lang(command),
        table.game,
        hand.view(seat),
        tuple(hand.legal_actions(seat)),
    )
    return Effects(hint_asked=asked)


def answer(table: Table, asked: HintAsked, advice: Advice) -> Effects:
    """The hint told to its player alone, its cards chosen in their hand, and counted."""
    if not still_current(table, asked):
        text = t(asked.lang, MOVED_ON)
        return Effects(out=[Outgoing(Kind.REPLY, table.chat, text, user=asked.user, public=True)])
    table.hints.note(asked.hand, asked.turn, asked.seat, advice.move, advice.weighing)
    left = table.hints.left(asked.hand, asked.seat, table.table_options.hints_allowed)
    text = table.front.hint_text(asked.lang, asked.view, advice.move, advice.weighing)
    if left is not None:
        text += "\n" + t(asked.lang, "Hints left in this hand: {count}", count=left)
    chosen = _chosen(advice.move)
    if chosen:
        table.clear_selection(asked.seat)
        table.pick(asked.seat).counts.update(Counter(chosen))
    out = [Outgoing(Kind.PRIVATE, table.chat, text, user=asked.user)]
    # table_changed: the hint's count is stored with the table (a restart keeps it).
    return Effects(out=out + fresh_hand(table, asked.seat), table_changed=True)


def hint_on_page(table: Table, seat: int, lang: str, cards: Sequence[str]) -> dict[str, Any]:
    """The hint given at this turn as the web page shows it: its line in the page's
    language, and which of the page's ``cards`` (its hand, as drawn) to choose ({} if none)."""
    told = table.hints.told_with(table.hand_number, table.turn_count, seat)
    if told is None or table.hand is None:
        return {}
    move, weighing = told
    text = table.front.hint_text(lang, table.hand.view(seat), move, weighing or Weighing())
    chosen: list[int] = []
    for token in _chosen(move):  # a card text (二七王) or a rank (四团, whose cards are texts)
        for index, card in enumerate(cards):
            if index not in chosen and (card == token or card_rank(card) == token):
                chosen.append(index)
                break
    return {"text": text, "chosen": chosen, "turn": table.turn_count}


def card_rank(text: str) -> str:
    """A card text's rank: ``S10`` → ``10``, ``LJ`` → ``LJ``."""
    return text if text in ("LJ", "BJ") else text[1:]


def _chosen(move: Action) -> list[str]:
    """The move's cards as the hand's pick buttons choose them: ranks in 四团 (its plays are
    by rank), card texts in 二七王."""
    if isinstance(move, Play) and move.ranks:
        return list(move.ranks)
    if isinstance(move, (Play, Bury)):
        return [c.text for c in move.cards]
    return []

"""Reading a group chat as its members see it, for the live-table tests of both platforms: the
group's messages rebuilt from the bot's calls (sent, edited, deleted, in order), and the checks
that the live table is always the newest of them and that no other shows the turn."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.situan.combos import RANKS
from tests.waiting import eventually

TITLE = re.compile(r"^(?:四团|二七王|Situan|Er Qi Wang) · (?:第 \d+ 局|hand \d+)$", re.M)
"""The table message's own first line: a message showing it shows the table."""
TURN_LINE = re.compile(r"^(?:轮到：|Turn: )", re.M)
"""The table's turn line (a mention "Ann：轮到你了，还剩 15 秒。" is no turn line)."""
INTERNAL_ID = re.compile(r"\b(?:tg|dc):[-\w]")
BIDS_OPEN = re.compile(r"^(?:叫分：|Bids: )", re.M)
AUCTION_OVER = re.compile(r"叫分结束：|Bidding over: ")
PLAYED = re.compile(r"^(?:本轮：|This trick: |上一轮：|Last trick: )", re.M)
"""A line of the table that shows a card played."""


@dataclass
class Shown:
    id: int
    text: str
    buttons: bool
    plain: bool = True
    """A text message (not a picture or a file)."""
    was_table: bool = False


@dataclass
class GroupCall:
    """One call of the bot in the group, as a platform-neutral step: ``send`` (a new message
    with this id), ``edit`` (of message ``id``), ``delete``."""

    kind: str
    id: int
    text: str = ""
    buttons: bool = False
    plain: bool = True


@dataclass
class GroupView:
    shown: dict[int, Shown] = field(default_factory=dict)
    table: int | None = None
    """The message the bot last sent or edited showing the table."""

    def apply(self, call: GroupCall) -> None:
        if call.kind == "delete":
            self.shown.pop(call.id, None)
            return
        if call.kind == "edit" and call.id not in self.shown:
            return  # refused by the platform (not found)
        was = self.shown[call.id].was_table if call.kind == "edit" else False
        table = bool(TITLE.search(call.text))
        self.shown[call.id] = Shown(call.id, call.text, call.buttons, call.plain, was or table)
        if table:
            self.table = call.id

    def with_title(self) -> list[int]:
        return [m.id for m in self.shown.values() if TITLE.search(m.text)]

    def with_turn_line(self) -> list[int]:
        return [m.id for m in self.shown.values() if TURN_LINE.search(m.text)]


def replay(calls: list[GroupCall]) -> list[tuple[int, GroupView, list[str]]]:
    """Apply the calls in order; after each settled one, what is wrong with the group then
    (empty: nothing). Settled: not a table message sent anew whose old copy the very next
    call retires (the one moment two copies may show)."""
    view = GroupView()
    ends = max((i for i, c in enumerate(calls) if TITLE.search(c.text)), default=-1)
    """The hand's last table state: posts may follow it."""
    found: list[tuple[int, GroupView, list[str]]] = []
    for index, call in enumerate(calls):
        before = view.table
        view.apply(call)
        following = calls[index + 1] if index + 1 < len(calls) else None
        if (
            call.kind == "send"
            and TITLE.search(call.text)
            and before is not None
            and following is not None
            and following.id == before
            and following.kind in ("edit", "delete")
        ):
            continue  # the retire comes next
        found.append((index, _snapshot(view), problems(view, running=index < ends)))
    return found


def _snapshot(view: GroupView) -> GroupView:
    return GroupView(dict(view.shown), view.table)


def problems(view: GroupView, running: bool) -> list[str]:
    wrong: list[str] = []
    titled = view.with_title()
    if view.table is not None and titled != [view.table]:
        wrong.append(f"messages showing the table: {titled}, the live one {view.table}")
    turned = view.with_turn_line()
    if [i for i in turned if i != view.table]:
        wrong.append(f"messages with a turn line: {turned}, the live table {view.table}")
    for message in view.shown.values():
        if message.was_table and message.id != view.table and message.buttons:
            wrong.append(f"a retired table message {message.id} keeps its buttons")
    if running and view.table is not None:
        # Below the live table only a post that cannot be its header (a picture, buttons),
        # which the table follows down in the next slot.
        below = [m for m in view.shown.values() if m.id > view.table]
        if [m.id for m in below if m.plain and not m.buttons]:
            wrong.append(f"messages below the live table {view.table}: {[m.id for m in below]}")
        if len(below) > 1:
            wrong.append(f"the live table {view.table} stays above {[m.id for m in below]}")
    return wrong


def first_wrong(calls: list[GroupCall]) -> str | None:
    """The first settled moment the group shows something wrong, described with the calls."""
    for index, view, wrong in replay(calls):
        if wrong:
            around = calls[max(0, index - 3) : index + 1]
            shown = {i: m.text[:80] for i, m in sorted(view.shown.items())[-5:]}
            return f"after call {index}: {wrong}\ncalls: {around}\nlast shown: {shown}"
    return None


def texts_of_buttons(rows: Any) -> list[str]:
    return [str(b.get("text") or b.get("label") or "") for row in rows for b in row]


def a_triple_to_play(table: Any) -> tuple[str, int]:
    """四团, seat 0 to play: a rank it may play three of, and how many of it it holds (more
    than three: the hand shows ``rank×held``, the play ``rank×3``)."""

    hand = table.hand
    triples = [c for c in hand.legal_plays() if len(c.ranks) == 3 and len(set(c.ranks)) == 1]
    assert triples
    rank = RANKS[triples[0].ranks[0]]
    held = sum(c.rank == rank for c in hand.cards_of(0))
    assert held > 3
    return rank, held


def assert_auction_posted_then_closed(group_texts: list[tuple[int, str]]) -> None:
    """In the group's calls (call index, text), in order: the auction's end comes before the
    first card shows — or in the same message, as the header above the table that already
    shows it (its slot came when the declarer had led) — and no message from then on shows
    the auction open (a bids line with a turn line)."""
    text = dict(group_texts)
    over = next((i for i, shown in group_texts if AUCTION_OVER.search(shown)), None)
    played = next((i for i, shown in group_texts if PLAYED.search(shown)), None)
    assert over is not None and played is not None
    first_card = PLAYED.search(text[played])
    assert first_card is not None
    assert over < played or (
        over == played and AUCTION_OVER.search(text[over][: first_card.start()]) is not None
    ), (text[over], text[played])
    for index, shown in group_texts:
        if index >= over:
            assert not (BIDS_OPEN.search(shown) and TURN_LINE.search(shown)), shown


async def ai_move(world: Any, table: Any, clock: Any) -> None:
    """Let the time of the seat to act run out on the tables' clock: the table moves for it,
    and what its step sends is handed to the platform (the table's lock is held until then).
    ``world``: a Telegram or Discord test world."""
    before = (table.turn_count, table.state, len(table.hand.history))
    clock.now = max(clock.now, table.deadline)  # the bot's timer loop then acts for the seat
    await eventually(
        lambda: (table.turn_count, table.state, table.hand and len(table.hand.history)) != before,
        5.0,
        0.005,
        "a move by the table",
    )
    lock = world.manager.lock(table.chat)
    await eventually(lambda: not lock.locked(), 5.0, 0.002, "the step sent")
    await world.settle()


def assert_live_table_throughout(steps: list[GroupCall]) -> None:
    """Over a whole hand's group calls: at every step the live table is the newest message
    and nothing else shows a turn line (`first_wrong`), the table was sent anew more than
    twice, and at least one copy above it was retired (cut down or deleted)."""
    wrong = first_wrong(steps)
    assert wrong is None, wrong
    assert sum(s.kind == "send" and bool(TITLE.search(s.text)) for s in steps) > 2
    assert any(s.kind in ("edit", "delete") and not TITLE.search(s.text) for s in steps)

"""Pacing group calls: at most one call per slot, coalesced table-message edits.

Telegram allows about 20 messages and edits a minute in one group. A `GroupPacer` releases
at most one group call per ``slot`` seconds (3 s: 20 a minute), and never more than
``budget`` in any 60-second window. Where the adapter tells it when each call is actually
made (``counts_when_made``: `made`), the window counts those moments, and a released call
holds a reservation until it is made (or for ``RESERVATION`` seconds, for a release that
ends in no call at all); a call made late therefore never lets the next ones bunch.
Table-message edits are coalesced — only the latest state is sent, so several plays in
quick succession become one edit.

The live table is always the newest message of the group: a post (a new message) released
while a hand runs is not sent above it, it becomes the table message's header — the table
message is sent anew below everything, headed by the post, and the one above keeps only its
own header (or goes, if it had none: `Outgoing.header`). So no copy of the table with a turn
line stays behind, a play shows within one slot even when posts take the turn, and the
events stay in the chat in order. A header shows above that one state only: the next state
is sent anew below it in the same way, so no post stays above a later turn (issue 49).
A post that cannot be a header (a picture, a file, buttons) goes alone, and the live table
follows it down in the next slot. Posts are never dropped and keep their order.

The hand comes first: while no hand runs, a group's calls (the lobby's posts, deleting typed
commands) are spaced by ``lobby_slot`` (the adapter's choice: half the budget's window rate,
6 s for Telegram), the lines said meanwhile going as one post; so at most half the budget is
the lobby's in any window, and a hand that starts finds enough of it for a table edit every
slot from its first play on (the lobby's calls leave the window as fast as the hand spends).

One ordered stream per group: what a hand says is all shown before the next hand's first
post. A table state of a new slot (the next hand's) that comes while posts or another hand's
state still wait is queued behind them, with whatever is said after it; the plain posts left
at the end of the old hand (the deal's line) become the header of the new hand's table, which
keeps them above it, in order.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from bot.views.outgoing import Kind, Outgoing

WINDOW = 60.0
BUDGET = 20
SLOT = 3.0
RESERVATION = 10.0
"""How long a released call may take to be made before its reservation lapses."""
MERGED_AT_MOST = 1500
"""Characters at most of posts waiting together sent as one call (a platform splits a longer
message into several calls)."""
QUIET = 12.0
"""A table state that is not urgent (plays between AI seats in the middle of a trick) waits
up to this long after the last call, folded into whatever comes next: about one group call
per trick or round instead of one per play."""


class CallBudget:
    """A group's calls in the last ``window`` seconds, shared by every table that posts in it
    (a forum supergroup's topics share one). Where the adapter tells it when each call is
    actually made (``counts_when_made``), the window holds those moments, and each released
    call holds a reservation until it is made (or for ``RESERVATION`` seconds)."""

    def __init__(
        self, budget: int = BUDGET, window: float = WINDOW, counts_when_made: bool = False
    ) -> None:
        self.budget = budget
        self.window = window
        self.counts_when_made = counts_when_made
        self.calls: deque[float] = deque()
        """When the calls of the last window were made (or released, if not told)."""
        self.reserved: deque[float] = deque()
        """When each call released but not yet made was released."""

    def room(self, now: float) -> int:
        # Compared as `now >= call + window`, the very sum `free_at` hands out, so a
        # timer set for that moment always finds the room (no rounding gap).
        while self.calls and now >= self.calls[0] + self.window:
            self.calls.popleft()
        while self.reserved and now >= self.reserved[0] + RESERVATION:
            self.reserved.popleft()
        return self.budget - len(self.calls) - len(self.reserved)

    def released(self, now: float, calls: int = 1) -> None:
        """``calls`` calls were handed to the sender now."""
        for _ in range(calls):
            (self.reserved if self.counts_when_made else self.calls).append(now)

    def made(self, at: float) -> None:
        """A call was made at ``at`` (``counts_when_made``)."""
        if self.reserved:
            self.reserved.popleft()
        self.calls.append(at)

    def free_at(self, now: float, keep: int = 0) -> float:
        """When the window next has room for a call beyond ``keep`` spare ones: now, or when
        enough of its calls and reservations have lapsed."""
        short = keep + 1 - self.room(now)  # how many calls or reservations must lapse
        if short < 1:
            return now
        lapses = sorted(
            [*(c + self.window for c in self.calls), *(r + RESERVATION for r in self.reserved)]
        )
        return lapses[short - 1] if short <= len(lapses) else now

    def made_room_at(self, now: float) -> float:
        """When a call may be made without more than ``budget`` made in any window: now,
        or when the oldest call made leaves it (reservations aside: they are the calls
        being made)."""
        while self.calls and now >= self.calls[0] + self.window:
            self.calls.popleft()
        if len(self.calls) < self.budget:
            return now
        return self.calls[len(self.calls) - self.budget] + self.window

    @property
    def last(self) -> float | None:
        return self.calls[-1] if self.calls else None


class GroupPacer:
    def __init__(
        self,
        clock: Callable[[], float],
        budget: int = BUDGET,
        slot: float = SLOT,
        calls: CallBudget | None = None,
        lobby_slot: float | None = None,
    ) -> None:
        self.clock = clock
        self.slot = slot
        self.lobby_slot = slot if lobby_slot is None else max(slot, lobby_slot)
        """Seconds at least between two calls while no hand runs (posts, deletions): the
        lobby's lines wait and go together, and the hand finds its budget when it starts."""
        self.next_lobby = -1e18
        self.budget = calls if calls is not None else CallBudget(budget)
        self.posts: deque[Outgoing] = deque()
        self.table: Outgoing | None = None
        """The latest table state not yet sent."""
        self.table_urgent = False
        """Whether any table state waiting since the last call was urgent."""
        self.table_moves = False
        """Whether the waiting table state is to be sent anew below (a post went above it)."""
        self.live: Outgoing | None = None
        """The last table state sent, while its hand runs: posts below it move it down."""
        self.next_slot = -1e18
        self.hand_slot: str | None = None
        """The slot of the table message the posts waiting now belong to."""
        self.behind: deque[Waiting] = deque()
        """What a next hand said while this one's posts or state still waited, in order."""
        self.leading = 0
        """How many of the posts waiting were said before the hand of the table state
        waiting (the hand before's last lines): they go first, even before a last state."""

    def submit(self, message: Outgoing) -> None:
        if self.behind:
            self.behind[-1].take(message, self.behind)
            return
        if message.kind != Kind.TABLE:
            self.posts.append(message)
            return
        if message.slot != self.hand_slot and (self.posts or self.table is not None):
            self.behind.append(Waiting(message))  # the next hand: after this one's posts
            return
        self.hand_slot = message.slot
        self.table = message  # the latest state wins
        self.table_urgent = self.table_urgent or message.urgent

    def _next_hand(self) -> None:
        """This hand's posts are all out: the next hand's waiting ones come up. Plain posts
        still waiting at the end of this hand (nothing but text, no table state of its own
        waiting) go above the next hand's table, as its header: the order stays."""
        while self.behind and self.table is None and all(map(_plain, self.posts)):
            if any(p.buttons for p in self.posts):
                break
            nxt = self.behind.popleft()
            self.leading = len(self.posts)
            self.posts.extend(nxt.posts)
            self.hand_slot, self.table, self.table_urgent = nxt.slot, nxt.table, nxt.urgent
            self.table_moves, self.live = False, None

    def due(self) -> list[Outgoing]:
        """The call that may be made now, if any; the rest waits for `next_time`."""
        now = self.clock()
        self._next_hand()
        if (
            now < self.next_slot
            or self.budget.room(now) <= 0
            or (not self.posts and self.table is None)
        ):
            return []
        if not self.posts and not self.table_urgent and now < self._quiet_until():
            return []
        lobby = self._in_lobby()
        if lobby and now < self.next_lobby:
            return []
        if self.posts and not (self.table is not None and self.table.final and not self.leading):
            message = self._post_or_moved_table(self._next_post())
        else:  # a hand's last state goes first, in place: the posts about its end follow
            assert self.table is not None
            # A header belongs to the one state it came with: once the table changes, the
            # message that showed both keeps only the header (a line of the chat) and the
            # table goes anew below it (one call more), never leaving an older turn's post
            # above later edits.
            headed = self.live is not None and bool(self.live.header)
            moves = (self.table_moves and not self.table.final) or headed
            message = self.table.moved_below("") if moves else self.table
            self.table, self.table_urgent, self.table_moves = None, False, False
        if message.kind == Kind.TABLE:
            self.live = None if message.final else message
        self.budget.released(now)
        self.next_slot = now + self.slot
        if lobby:
            self.lobby_spent(now)
        self._next_hand()
        return [message]

    def _in_lobby(self) -> bool:
        """No hand runs: nothing but posts wait, and no table state is live."""
        return self.table is None and self.live is None

    def lobby_ready(self, now: float) -> bool:
        """Whether a lobby call (a post while no hand runs, a deletion) may be made now."""
        return now >= self.next_lobby

    def lobby_spent(self, now: float) -> None:
        self.next_lobby = now + self.lobby_slot

    def _post_or_moved_table(self, post: Outgoing) -> Outgoing:
        """A post, while a hand runs, as the header of the table message sent anew below it;
        a post that cannot be a header goes alone, and the table follows it down."""
        table = self.table if self.table is not None else self.live
        if table is None:
            return post
        if _plain(post) and not post.buttons:
            self.table, self.table_urgent, self.table_moves = None, False, False
            return table.moved_below(post.resolved().text, post.mention)
        self.table, self.table_moves = table, True
        return post

    def _next_post(self) -> Outgoing:
        """The first post waiting, with the plain posts waiting behind it: several posts at
        once (seats taken just before a deal, the deal itself) would otherwise trail one a
        slot behind the other, and the hand be under way before the group reads it began."""
        post = self.posts.popleft()
        taken = 1
        while self.posts and _joinable(post, self.posts[0]):
            after = self.posts.popleft().resolved()
            post = after.with_text(post.resolved().text + "\n" + after.text)
            taken += 1
        self.leading = max(0, self.leading - taken)
        return post

    def next_time(self) -> float | None:
        """When the next call may be made (None: nothing waits)."""
        self._next_hand()
        if not self.posts and self.table is None:
            return None
        now = self.clock()
        ready = max(now, self.next_slot)
        if not self.posts and not self.table_urgent:
            ready = max(ready, self._quiet_until())
        if self._in_lobby():
            ready = max(ready, self.next_lobby)
        return max(ready, self.budget.free_at(now))

    def _quiet_until(self) -> float:
        last = self.budget.last
        return last + QUIET if last is not None else -1e18


class Waiting:
    """A next hand's messages waiting behind the hand before it: its first table state (the
    latest one wins) and the posts said with it; a hand after it starts another."""

    def __init__(self, table: Outgoing) -> None:
        self.slot = table.slot
        self.table: Outgoing | None = table
        self.urgent = table.urgent
        self.posts: deque[Outgoing] = deque()

    def take(self, message: Outgoing, queue: deque[Waiting]) -> None:
        if message.kind != Kind.TABLE:
            self.posts.append(message)
        elif message.slot != self.slot:
            queue.append(Waiting(message))
        else:
            self.table, self.urgent = message, self.urgent or message.urgent


def _joinable(post: Outgoing, after: Outgoing) -> bool:
    """Whether ``after`` may be sent in one message with ``post``: both plain group posts
    (no file, picture or edited slot), the first without buttons (the joined message has
    the second's), short enough together."""
    return (
        _plain(post)
        and _plain(after)
        and not post.buttons
        and post.mention is None
        and after.mention is None
        and len(post.text) + len(after.text) < MERGED_AT_MOST
    )


def _plain(post: Outgoing) -> bool:
    return (
        post.kind == Kind.GROUP
        and post.filename is None
        and post.picture is None
        and post.slot is None
        and post.write is None
    )

"""What the host needs of a game's presentation (`GameFront`), and the pieces all share.

The host (`bot.table.state`, `bot.hosting.manager`, …) knows no game: it asks the engine what a seat
may do (`legal_actions`, `check`) and the game's front how it looks — the table message, the private
hand and its buttons, the narration of events, the settlement — and how a typed command reads."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from bot.games.board import Board
from bot.pictures import HandPicture, Layout, SettlementPicture, TablePicture
from bot.reading.refusals import Refusal
from bot.views.controls import Selection, Stamp
from bot.views.outgoing import Button
from engine.actions import Action
from engine.ai.search_decision import Weighing
from engine.errors import IllegalAction
from engine.game import EventT, Game, Hand, Result, RulesT, ViewT


class BadInput(Refusal):
    """A command whose arguments cannot be read."""


@dataclass(frozen=True)
class Stamps:
    """The stamps a private hand's buttons carry: ``whole`` for buttons good for the whole
    hand (picking cards, 托管, 亮牌, 冲关), ``turn`` for those that act on this turn."""

    whole: Stamp
    turn: Stamp


Rows = tuple[tuple[Button, ...], ...]
Reader = Callable[[Any, int, tuple[str, ...]], Action]
"""How a game reads one of its commands' words into an action: (the hand, the seat, the
words) → the action, or `BadInput` saying what to type instead."""


class GameFront(Protocol[ViewT, EventT, RulesT]):
    """A game as the host presents it: a game's front is a ``GameFront[its view, its events,
    its rules]``, as its `Game` is; the host, which knows no game, holds an `AnyFront`."""

    name: str
    """The engine's game name (``situan``, ``erqiwang``)."""
    title: str
    """Message id of the game's name for people."""
    rules_text: str
    """Message id of the short rules summary (`/rules`)."""
    tips_text: str
    """Message id of the play tips that follow it."""
    primer_text: str
    """Message id of the four-line primer /rules starts with (`bot.games.*.primer`)."""
    refusal_lessons: Mapping[str, str]
    """Message id of the rule behind each refusal code, said at a practice table."""
    commands: frozenset[str]
    """The game commands this game understands (``play``, ``bid`` …)."""
    preset_titles: Mapping[str, str]
    """Message id of what each preset is, by the preset's name (which players type)."""
    option_titles: Mapping[str, str]
    """Message id of what each rule option is, by its name (which players type)."""
    layout: Layout
    """How the pictures lay its cards out (`bot.pictures.Layout`): 四团 by rank, 二七王 as
    held."""

    @property
    def game(self) -> Game[ViewT, EventT, RulesT]: ...

    def command_action(
        self, hand: Hand[ViewT, EventT, RulesT], seat: int, name: str, args: tuple[str, ...]
    ) -> Action:
        """A typed game command as an action of ``seat``; `BadInput` when it cannot be read."""

    def pick(
        self,
        hand: Hand[ViewT, EventT, RulesT],
        seat: int,
        selection: Selection,
        args: tuple[str, ...],
    ) -> None:
        """One press of a card button: change ``selection``; `BadInput` if not held."""

    def selection_action(
        self, hand: Hand[ViewT, EventT, RulesT], seat: int, selection: Selection
    ) -> Action:
        """The action the chosen cards stand for (a play, or a bury while burying)."""

    def selection_text(self, lang: str, selection: Selection) -> str: ...

    def settings_that_follow(self, name: str, value: object) -> dict[str, object]:
        """Rule options a change of ``name`` to ``value`` sets as well (a deck's defaults, say)."""

    def table_text(
        self,
        lang: str,
        view: ViewT,
        names: Sequence[str],
        number: int,
        seconds_left: int | None,
        earlier: Sequence[EventT] = (),
    ) -> str:
        """The table message from the public view. ``earlier``: the closing events (see
        `closes_a_trick`) of tricks the group may not have been shown, oldest first; the
        one the view shows as the last trick among them is not repeated."""

    def opening_text(self, lang: str, view: ViewT, names: Sequence[str]) -> str:
        """What the deal shows the table (the card that chose the leader, 亮墩), said with
        the deal itself: a post always reaches the group, a first table state may be
        overtaken by the first plays. Empty when there is nothing."""

    def board(self, lang: str, view: ViewT, names: Sequence[str]) -> Board:
        """What the web table shows of ``view`` (a seat's, or the public one): counts,
        marks, the trick and the last one, public facts, cards shown, the hand as sorted."""

    def hand_text(self, lang: str, view: ViewT, names: Sequence[str]) -> tuple[str, str]:
        """A seat's private hand from its view: the cards, and any lines below them."""

    def hand_buttons(
        self,
        lang: str,
        view: ViewT,
        legal: Sequence[Action],
        selection: Selection,
        stamps: Stamps,
    ) -> list[tuple[Button, ...]]:
        """The buttons under a seat's private hand, from what it may do now."""

    def prompt(self, lang: str, view: ViewT, legal: Sequence[Action]) -> str:
        """What the seat the hand waits for may do now, in a line (the allowed bids, the
        trump choices, how many cards to bury, the reveal choice, what to beat)."""

    def page_prompt(self, lang: str, view: ViewT, legal: Sequence[Action]) -> str:
        """`prompt` for the web table's page: the same line without the commands to type
        (the page's buttons do what they do)."""

    def needs_confirming(self, action: Action) -> bool:
        """Whether ``action`` is asked to be confirmed by a second press (giving up)."""

    def closes_a_trick(self, event: EventT) -> bool:
        """Whether ``event`` ends a trick or round (the table message then shows it whole)."""

    def narrate(self, lang: str, event: EventT, names: Sequence[str]) -> str | None:
        """A group post for an event worth a notification (None: the table message says
        enough)."""

    def settlement_text(
        self,
        lang: str,
        result: Result,
        names: Sequence[str],
        totals: Sequence[Fraction],
        running: Sequence[Fraction],
    ) -> str:
        """The hand's settlement."""

    def outcome_text(self, lang: str, result: Result, names: Sequence[str]) -> str:
        """How the hand ended — who won, and why — without the amounts (a replay's last
        step: a stored hand's match totals are not the replay's to say)."""

    def hand_picture(self, lang: str, view: ViewT, player: str, number: int) -> HandPicture:
        """A seat's private hand as the renderer's input (`bot.pictures`)."""

    def settlement_picture(
        self,
        lang: str,
        result: Result,
        names: Sequence[str],
        totals: Sequence[Fraction],
        running: Sequence[Fraction],
        number: int,
    ) -> SettlementPicture:
        """The hand's settlement as the renderer's input."""

    def explain(self, lang: str, refusal: IllegalAction, view: ViewT | None = None) -> str:
        """A rule's refusal as a sentence in the player's language. ``view``: the refused
        seat's own view, for a hint from its own cards (the answer goes to that player
        alone)."""

    def primer_picture(self, lang: str) -> TablePicture:
        """Real card faces for the primer: what beats what (/rules)."""

    def hint_text(self, lang: str, view: ViewT, move: Action, weighing: Weighing) -> str:
        """A hint (`bot.hosting.hinting`): the move the ``hard`` player would make, and one line of
        why from ``view`` (the seat's own) and what the search saw."""

    def suggestion_label(self, lang: str, value: str) -> str:
        """How a `suggestions` value reads for the player: the symbols and names the hand
        shows (``♥3 ♥3``, ``小王×2``), where the value is what `/play` reads."""

    def suggestions(self, hand: Hand[ViewT, EventT, RulesT], seat: int) -> list[str]:
        """What `/play` may be completed with: the seat's legal plays on its turn, else its
        own cards."""


AnyFront = GameFront[Any, Any, Any]
"""A game's front as the host, which knows no game, holds it."""

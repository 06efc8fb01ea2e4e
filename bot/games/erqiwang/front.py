"""二七王's front: typed commands, card picking card by card, the private hand and its
buttons (bids, trump, bury, 冲关, surrender), the narration of its events, its refusals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType

from bot.games.board import Board
from bot.games.erqiwang import hints, lessons, narration, primer, prompts, settling, texts
from bot.games.erqiwang.bids import read_bid
from bot.games.erqiwang.board import board as erqiwang_board
from bot.games.erqiwang.refusal_texts import SUIT_BUTTONS, explained
from bot.games.game_front import BadInput, GameFront, Reader, Stamps
from bot.games.pictured import face, hand_picture, settlement_picture
from bot.i18n import N_, t
from bot.pictures import HandPicture, Layout, SettlementPicture, TablePicture
from bot.reading.echo import echoed
from bot.views.controls import Selection, rows
from bot.views.outgoing import Button
from bot.views.shared_texts import card_text, cards_text, money, seat_number
from engine.actions import (
    Action,
    Bid,
    Bury,
    DeclareBonus,
    NameTrump,
    Pass,
    Play,
    Surrender,
)
from engine.ai.search_decision import Weighing
from engine.cards import Card, parse_card, parse_cards, parse_suit
from engine.erqiwang import ERQIWANG, ErqiwangResult, ErqiwangView, Rules, deck_defaults
from engine.erqiwang.events import ErqiwangEvent, TrickWon
from engine.erqiwang.phases import Phase
from engine.errors import IllegalAction, RecordError
from engine.game import Game, Hand, Result

BONUS_NAMES = (N_("冲关"), N_("主7冲关"), N_("全7冲关"), N_("主2冲关"), N_("皇后"), N_("大冲关"),
               N_("主7大冲关"), N_("全7大冲关"), N_("主2大冲关"), N_("皇上"))  # fmt: skip
"""The engine's 冲关 names, as message ids: 繁體 writes them 衝關."""


def _cards(args: tuple[str, ...]) -> tuple[Card, ...]:
    try:
        return tuple(parse_cards(" ".join(args)))
    except RecordError as error:
        raise BadInput(
            "Unknown card: {token}. Write suit and rank, e.g. S10 HA D2, and the jokers LJ BJ.",
            token=echoed(str(error.facts.get("token", ""))),
        ) from None


GameHand = Hand[ErqiwangView, ErqiwangEvent, Rules]
"""A 二七王 hand as the host hands it to the front."""


def _play(hand: GameHand, seat: int, args: tuple[str, ...]) -> Action:
    if not args:
        raise BadInput("Say which cards to play, e.g. /play S10 S10")
    return Play(seat, _cards(args))


def _trump(hand: GameHand, seat: int, args: tuple[str, ...]) -> Action:
    suit = parse_suit(args[0]) if len(args) == 1 else None
    if suit is None:
        raise BadInput("Say the trump suit: /trump S, H, C, D or none")
    return NameTrump(seat, suit)


def _surrender(hand: GameHand, seat: int, args: tuple[str, ...]) -> Action:
    if Surrender(seat) not in hand.legal_actions(seat):  # say when it is, not "later"
        raise BadInput(
            N_(
                "Only the declarer may surrender, from taking the bottom until the first card is "
                "played, and only with a bid above {points}."
            ),
            points=hand.rules.surrender_above,
        )
    return Surrender(seat)


READERS: Mapping[str, Reader] = MappingProxyType(
    {
        "play": _play,
        "pass": lambda hand, seat, args: Pass(seat),
        "bid": lambda hand, seat, args: read_bid(seat, args),
        "trump": _trump,
        "bury": lambda hand, seat, args: Bury(seat, _cards(args)),
        "surrender": _surrender,
        "bonus": lambda hand, seat, args: DeclareBonus(seat),
    }
)
"""The game commands 二七王 takes (`bot.commands.registry` declares them;
`playing.game_command` runs them), each with how it reads its words into an action."""


class ErqiwangFront(GameFront[ErqiwangView, ErqiwangEvent, Rules]):
    name = "erqiwang"
    layout: Layout = "as_held"
    title = N_("erqiwang")
    tips_text = N_("tips_erqiwang")
    rules_text = N_("rules_erqiwang")
    refusal_lessons = lessons.LESSONS
    primer_text = primer.PRIMER
    commands = frozenset(READERS)
    preset_titles: Mapping[str, str] = MappingProxyType(
        {
            "classic": N_("the classic rules"),
            "online": N_("the online rules: bids up to 80"),
            "proportional": N_("scored in proportion to the points"),
            "one_deck": N_("one deck"),
        }
    )
    option_titles: Mapping[str, str] = MappingProxyType(
        {
            "turn_seconds": N_("seconds for each decision"),
            "timeouts_for_auto": N_("time-outs in a hand that put a player on 托管"),
            "decks": N_("packs: 2 or 1"),
            "bid_max": N_("highest first bid"),
            "bid_step": N_("bids go down in steps of"),
            "bid_min": N_("lowest bid; reaching it ends the bidding"),
            "first_must_bid": N_("the first bidder may not pass"),
            "allow_no_trump": N_("the declarer may name no trump (无主)"),
            "throw": N_("which throws (甩牌) may be led"),
            "failed_throw": N_(
                "a throw someone can beat: refuse it, or play its smallest beatable part (smallest)"
            ),
            "surrender_above": N_("surrender is allowed for bids above this"),
            "scoring": N_("the settlement formula"),
            "bonus_scoring": N_("冲关 paid as units or as points"),
            "first_bidder": N_("who bids first in the first hand"),
            "bottom_needs_trump": N_(
                "the defenders get the bottom only by winning the last trick with trumps"
            ),
            "bottom_multiplier": N_("how the bottom's points are multiplied"),
            "bury_seconds": N_("seconds to bury"),
        }
    )

    @property
    def game(self) -> Game[ErqiwangView, ErqiwangEvent, Rules]:
        return ERQIWANG

    # ----------------------------------------------------------------- commands

    def command_action(self, hand: GameHand, seat: int, name: str, args: tuple[str, ...]) -> Action:
        reader = READERS.get(name)
        if reader is None:
            raise BadInput("That command is not used in this game.")
        return reader(hand, seat, args)

    def pick(self, hand: GameHand, seat: int, selection: Selection, args: tuple[str, ...]) -> None:
        """``/pick S10`` adds one ♠10, or, when every ♠10 held is chosen already, takes them
        all back out."""
        held = Counter(str(c) for c in hand.cards_of(seat))
        token = args[0].upper() if args else ""
        if token not in held:
            raise BadInput("You do not hold those cards.")
        if selection.counts[token] < held[token]:
            selection.counts[token] += 1
        else:
            del selection.counts[token]
        selection.counts = +selection.counts

    def selection_action(self, hand: GameHand, seat: int, selection: Selection) -> Action:
        cards = _cards(selection.tokens())
        return Bury(seat, cards) if hand.view(seat).phase == Phase.BURY else Play(seat, cards)

    def selection_text(self, lang: str, selection: Selection) -> str:
        shown = " ".join(
            " ".join([card_text(lang, parse_card(token))] * n)
            for token, n in selection.counts.items()
        )
        return t(lang, N_("Chosen: {cards}"), cards=shown)

    # ----------------------------------------------------------------- what people see

    def settings_that_follow(self, name: str, value: object) -> dict[str, object]:
        """Switching the number of decks sets that deck's bid_max and surrender_above."""
        if name == "decks" and value in (1, 2):
            return dict(deck_defaults(int(str(value))))
        return {}

    def table_text(
        self,
        lang: str,
        view: ErqiwangView,
        names: Sequence[str],
        number: int,
        seconds_left: int | None,
        earlier: Sequence[ErqiwangEvent] = (),
    ) -> str:
        return texts.table_text(lang, view, names, number, seconds_left, earlier)

    def opening_text(self, lang: str, view: ErqiwangView, names: Sequence[str]) -> str:
        return ""  # a 二七王 deal shows nothing: the auction comes first

    def board(self, lang: str, view: ErqiwangView, names: Sequence[str]) -> Board:
        return erqiwang_board(lang, view, names)

    def hand_text(self, lang: str, view: ErqiwangView, names: Sequence[str]) -> tuple[str, str]:
        return cards_text(lang, view.hand) or "—", ""

    def hand_buttons(
        self,
        lang: str,
        view: ErqiwangView,
        legal: Sequence[Action],
        selection: Selection,
        stamps: Stamps,
    ) -> list[tuple[Button, ...]]:
        whole, turn = stamps.whole.text(), stamps.turn.text()
        out: list[tuple[Button, ...]] = []
        acting = view.to_act == view.seat
        if view.phase == Phase.BIDDING:
            # Highest first, as the auction goes down: the bid just under the last is the
            # one most often wanted, and a platform that shows only the first ones (Discord's
            # 25 menu options, with bid_max 200) keeps those.
            bids = sorted((a for a in legal if isinstance(a, Bid)), key=lambda b: -b.points)
            out += rows(
                [Button(str(b.points), f"/bid {b.points}", turn, group="bid") for b in bids]
            )
            if any(isinstance(a, Pass) for a in legal):
                out.append((Button(t(lang, N_("No bid")), "/pass", turn),))  # 不叫, not 不要
            return out
        surrender = (
            [(Button(t(lang, N_("Surrender")), "/surrender", turn),)]
            if any(isinstance(a, Surrender) for a in legal)
            else []
        )
        if view.phase == Phase.TRUMP:
            suits = []
            for action in legal:
                if isinstance(action, NameTrump):
                    label = SUIT_BUTTONS.get(action.suit) or t(lang, N_("No trump"))
                    suits.append(Button(label, f"/trump {action.suit}", turn))
            if suits:
                out.append(tuple(suits))
            return out + surrender
        held = Counter(str(c) for c in view.hand)
        picking = acting and view.phase in (Phase.BURY, Phase.PLAY)
        if picking:
            cards = []
            for c in dict.fromkeys(view.hand):
                token, chosen = str(c), selection.counts[str(c)]
                label = card_text(lang, c) + ("×2" if held[token] == 2 else "")
                suit = "T" if view.order.is_trump(c) else c.suit
                shown = f"[{label}]" if chosen else label
                cards.append(Button(shown, f"/pick {token}", whole, group=f"card:{suit}"))
            out += rows(cards)
        actions: list[Button] = []
        if picking and selection.size():
            verb = N_("Bury") if view.phase == Phase.BURY else N_("Play")
            actions.append(Button(t(lang, verb), "/go", turn))
            actions.append(Button(t(lang, N_("Clear")), "/clear", whole))
        if any(isinstance(a, DeclareBonus) for a in legal):
            actions.append(Button(t(lang, N_("冲关")), "/bonus", whole))
        if actions:
            out.append(tuple(actions))
        return out + surrender

    def prompt(self, lang: str, view: ErqiwangView, legal: Sequence[Action]) -> str:
        return prompts.prompt(lang, view, legal)

    def page_prompt(self, lang: str, view: ErqiwangView, legal: Sequence[Action]) -> str:
        return prompts.prompt(lang, view, legal, page=True)

    def needs_confirming(self, action: Action) -> bool:
        return isinstance(action, Surrender)

    def closes_a_trick(self, event: ErqiwangEvent) -> bool:
        return isinstance(event, TrickWon)

    def narrate(self, lang: str, event: ErqiwangEvent, names: Sequence[str]) -> str | None:
        return narration.narrate(lang, event, names)

    def settlement_text(
        self,
        lang: str,
        result: Result,
        names: Sequence[str],
        totals: Sequence[Fraction],
        running: Sequence[Fraction],
    ) -> str:
        assert isinstance(result, ErqiwangResult)
        return settling.settlement_text(lang, result, names, totals, running)

    def outcome_text(self, lang: str, result: Result, names: Sequence[str]) -> str:
        assert isinstance(result, ErqiwangResult)
        if result.declarer is None:  # nobody bid
            return t(lang, "Everyone passed: the cards are dealt again.")
        lines = [t(lang, "The hand is over."), settling.outcome_line(lang, result, names)]
        if not result.surrendered:
            lines.append(settling.bottom_line(lang, result, names))
        return "\n".join(lines)

    def hand_picture(self, lang: str, view: ErqiwangView, player: str, number: int) -> HandPicture:
        """The cards in the order held (trumps, then each side suit), a break between suits."""
        cards = list(view.hand)
        groups = ["T" if view.order.is_trump(c) else c.suit for c in cards]
        breaks = [i for i in range(1, len(cards)) if groups[i] != groups[i - 1]]
        assert view.seat is not None  # a seat's own view
        details = [
            t(lang, "二七王 · hand {number}", number=number),
            t(lang, "seat {seat}", seat=seat_number(view.seat)),
        ]
        if view.trump_named:
            details.append(f"{t(lang, 'trump')} {texts.trump_text(lang, view)}")
        return hand_picture(self.layout, player, [face(c) for c in cards], details, breaks)

    def settlement_picture(
        self,
        lang: str,
        result: Result,
        names: Sequence[str],
        totals: Sequence[Fraction],
        running: Sequence[Fraction],
        number: int,
    ) -> SettlementPicture:
        assert isinstance(result, ErqiwangResult)
        results = [
            t(lang, "Declarer") if seat == result.declarer else t(lang, "Defender")
            for seat in range(4)
        ]
        bonuses = [f"{t(lang, '冲关')} {money(b)}" if b else "" for b in result.bonus]
        footer = settling.footer(lang, result, names)
        title = t(lang, "二七王 · hand {number}", number=number)
        return settlement_picture(lang, title, names, results, totals, running, bonuses, footer)

    def primer_picture(self, lang: str) -> TablePicture:
        return primer.primer_picture(lang)

    def hint_text(self, lang: str, view: ErqiwangView, move: Action, weighing: Weighing) -> str:
        return hints.hint_text(lang, view, move, weighing)

    def explain(self, lang: str, refusal: IllegalAction, view: ErqiwangView | None = None) -> str:
        return explained(lang, refusal, view)

    def suggestion_label(self, lang: str, value: str) -> str:
        try:
            return cards_text(lang, parse_cards(value.split()))
        except RecordError:
            return value

    def suggestions(self, hand: GameHand, seat: int) -> list[str]:
        if hand.to_act == seat and hand.view(seat).phase == Phase.PLAY:
            return [
                " ".join(str(c) for c in a.cards)
                for a in hand.legal_actions(seat)
                if isinstance(a, Play)
            ]
        return [str(c) for c in dict.fromkeys(hand.cards_of(seat))]

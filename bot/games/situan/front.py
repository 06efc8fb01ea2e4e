"""四团's front: typed commands, card picking by rank, the private hand and its buttons, the
narration of its events and its refusals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import zip_longest
from types import MappingProxyType

from bot.games.board import Board
from bot.games.game_front import BadInput, GameFront, Reader, Stamps
from bot.games.pictured import face, hand_picture, settlement_picture
from bot.games.situan import hints, lessons, primer, prompts, settling, texts
from bot.games.situan.board import board as situan_board
from bot.games.situan.notation import CountOutOfRange, count_text, read_notation
from bot.i18n import N_, t
from bot.pictures import HandPicture, Layout, SettlementPicture, TablePicture
from bot.reading.echo import echoed
from bot.reading.refusals import plain_refusal
from bot.views.controls import Selection, rows
from bot.views.outgoing import Button
from bot.views.shared_texts import cards_text, money, rank_text, seat_number
from engine.actions import Action, AnswerShow, Pass, PickShow, Play, StartShow, read_play
from engine.ai.search_decision import Weighing
from engine.cards import parse_card, parse_rank_run
from engine.errors import IllegalAction, RecordError
from engine.game import Game, Hand, Result
from engine.situan import RANKS, SITUAN, Rules, SituanResult, SituanView
from engine.situan.combos import RANK_INDEX, combo_of_ranks
from engine.situan.events import (
    HandRevealed,
    RoundWon,
    ShowAnswered,
    ShowAsked,
    SituanEvent,
    WentOut,
)
from engine.situan.phases import Phase

PLACES, LAST_PLACE = texts.PLACES, texts.LAST_PLACE
CONSENT_WORDS = {"yes": True, "y": True, "是": True, "同意": True,
                 "no": False, "n": False, "否": False, "不同意": False}  # fmt: skip
"""``/consent``'s answers."""


GameHand = Hand[SituanView, SituanEvent, Rules]
"""A 四团 hand as the host hands it to the front."""


def _consent(hand: GameHand, seat: int, args: tuple[str, ...]) -> Action:
    answer = args[0].lower() if args else ""
    if answer not in CONSENT_WORDS:
        raise BadInput("Say /consent yes or /consent no")
    return AnswerShow(seat, CONSENT_WORDS[answer])


def _reveal(hand: GameHand, seat: int, args: tuple[str, ...]) -> Action:
    choice = args[0].lower() if args else ""
    if choice not in ("me", "partner"):
        raise BadInput("Say /reveal me or /reveal partner")
    return PickShow(seat, seat if choice == "me" else (seat + 2) % 4)


READERS: Mapping[str, Reader] = MappingProxyType(
    {
        "play": lambda hand, seat, args: play_from_words(seat, args),
        "pass": lambda hand, seat, args: Pass(seat),
        "show": lambda hand, seat, args: StartShow(seat),
        "consent": _consent,
        "reveal": _reveal,
    }
)
"""The game commands 四团 takes (`bot.commands.registry` declares them; `playing.game_command` runs
them), each with how it reads its words into an action."""


class SituanFront(GameFront[SituanView, SituanEvent, Rules]):
    name = "situan"
    layout: Layout = "by_rank"
    title = N_("situan")
    tips_text = N_("tips_situan")
    rules_text = N_("rules_situan")
    refusal_lessons = lessons.LESSONS
    primer_text = primer.PRIMER
    commands = frozenset(READERS)
    preset_titles: Mapping[str, str] = MappingProxyType(
        {
            "nanchang": N_("the Nanchang rules"),
            "spade3": N_("♠3 leads the first hand"),
            "baomahui": N_("宝马会: a 亮牌 counts double"),
        }
    )
    option_titles: Mapping[str, str] = MappingProxyType(
        {
            "lead_after_out": N_("who leads when a round's winner is out: next or partner (接风)"),
            "first_leader": N_("who leads the first hand: flip (the flipped card) or spade3 (♠3)"),
            "announce_at": N_("报牌: card counts at or below this are public"),
            "show_multiplier": N_("stakes multiplied after a 亮牌"),
            "show_consent": N_(
                "a 亮牌 needs the partner's consent: no, or partner (who then picks the hand shown)"
            ),
            "early_end": N_("end a hand once its winner is certain"),
            "dun_counted": N_("墩 counted as dealt or as played"),
            "dun_value": N_("units each other player pays per 墩"),
            "turn_seconds": N_("seconds for each decision"),
            "timeouts_for_auto": N_("time-outs in a hand that put a player on 托管"),
        }
    )

    @property
    def game(self) -> Game[SituanView, SituanEvent, Rules]:
        return SITUAN

    # ----------------------------------------------------------------- commands

    def command_action(self, hand: GameHand, seat: int, name: str, args: tuple[str, ...]) -> Action:
        reader = READERS.get(name)
        if reader is None:
            raise BadInput("That command is not used in this game.")
        return reader(hand, seat, args)

    def pick(self, hand: GameHand, seat: int, selection: Selection, args: tuple[str, ...]) -> None:
        """``/pick 7`` opens rank 7's count choice, ``/pick 7 3`` chooses three 7s."""
        held = Counter(c.rank for c in hand.cards_of(seat))
        token = args[0].upper() if args else ""
        if token not in held:
            raise BadInput("You do not hold those cards.")
        if len(args) == 1:
            selection.open_rank = None if selection.open_rank == token else token
            return
        count = args[1]
        if (
            not (count.isascii() and count.isdigit() and len(count) <= 2)
            or int(count) > held[token]
        ):
            raise BadInput("You do not hold those cards.")
        selection.counts[token] = int(count)
        selection.open_rank = None
        selection.counts = +selection.counts  # drop zero counts

    def selection_action(self, hand: GameHand, seat: int, selection: Selection) -> Action:
        return Play(seat, ranks=selection.tokens())

    def selection_text(self, lang: str, selection: Selection) -> str:
        shown = " ".join(
            count_text(rank_text(lang, rank), n) for rank, n in selection.counts.items()
        )
        return t(lang, N_("Chosen: {cards}"), cards=shown)

    # ----------------------------------------------------------------- what people see

    def settings_that_follow(self, name: str, value: object) -> dict[str, object]:
        return {}

    def table_text(
        self,
        lang: str,
        view: SituanView,
        names: Sequence[str],
        number: int,
        seconds_left: int | None,
        earlier: Sequence[SituanEvent] = (),
    ) -> str:
        return texts.table_text(lang, view, names, number, seconds_left, earlier)

    def opening_text(self, lang: str, view: SituanView, names: Sequence[str]) -> str:
        return "\n".join(texts.opening_lines(lang, view, names))

    def board(self, lang: str, view: SituanView, names: Sequence[str]) -> Board:
        return situan_board(lang, view, names)

    def hand_text(self, lang: str, view: SituanView, names: Sequence[str]) -> tuple[str, str]:
        """The cards by rank, and the partner's hand as seen in this seat's 亮牌."""
        extra = ""
        for partner, cards in view.show_seen.items():
            extra = "\n" + t(
                lang,
                "Your partner {name} holds: {cards}",
                name=names[partner],
                cards=texts.holding_text(lang, cards),
            )
        return texts.holding_text(lang, view.hand), extra

    def hand_buttons(
        self,
        lang: str,
        view: SituanView,
        legal: Sequence[Action],
        selection: Selection,
        stamps: Stamps,
    ) -> list[tuple[Button, ...]]:
        whole, turn = stamps.whole.text(), stamps.turn.text()
        answers = [a for a in legal if isinstance(a, AnswerShow)]
        if answers:  # the partner is asked: the hand waits for nothing else
            return [
                tuple(
                    Button(
                        t(lang, N_("Agree to the 亮牌") if a.accept else N_("Refuse")),
                        "/consent yes" if a.accept else "/consent no",
                        turn,
                    )
                    for a in answers
                )
            ]
        reveals = [a for a in legal if isinstance(a, PickShow)]
        if reveals:
            mine = {view.seat: N_("Show my hand")}
            return [
                tuple(
                    Button(
                        t(lang, mine.get(a.reveal, N_("Show my partner's hand"))),
                        "/reveal me" if a.reveal == view.seat else "/reveal partner",
                        turn,
                    )
                    for a in reveals
                )
            ]
        if view.phase in (Phase.SHOW_PICK, Phase.SHOW_CONSENT):
            return []
        held = Counter(c.rank for c in view.hand)
        out: list[tuple[Button, ...]] = []
        labels: list[Button] = []
        for rank in RANKS:
            if not held[rank]:
                continue
            label = count_text(rank_text(lang, rank), held[rank])
            shown = f"[{label}]" if selection.counts[rank] else label
            labels.append(Button(shown, f"/pick {rank}", whole, group="rank"))
        out += rows(labels)
        open_rank = selection.open_rank
        if open_rank is not None and held[open_rank]:
            name = rank_text(lang, open_rank)
            counts = [
                Button(
                    count_text(name, n) if n else t(lang, N_("no {rank}"), rank=name),
                    f"/pick {open_rank} {n}",
                    whole,
                    group="count",
                )
                for n in range(0, held[open_rank] + 1)
            ]
            out += rows(counts)
        actions: list[Button] = []
        my_turn = any(isinstance(a, (Play, Pass)) for a in legal)
        if my_turn and selection.size():
            actions.append(Button(t(lang, N_("Play")), "/go", turn))
        if Pass(view.seat or 0) in legal:
            actions.append(Button(t(lang, N_("Pass")), "/pass", turn))
        if selection.size():
            actions.append(Button(t(lang, N_("Clear")), "/clear", whole))
        if any(isinstance(a, StartShow) for a in legal):
            actions.append(Button(t(lang, N_("亮牌")), "/show", whole))
        if actions:
            out.append(tuple(actions))
        return out

    def prompt(self, lang: str, view: SituanView, legal: Sequence[Action]) -> str:
        return prompts.prompt(lang, view, legal)

    def page_prompt(self, lang: str, view: SituanView, legal: Sequence[Action]) -> str:
        return prompts.prompt(lang, view, legal, page=True)

    def needs_confirming(self, action: Action) -> bool:
        return False

    def closes_a_trick(self, event: SituanEvent) -> bool:
        return isinstance(event, RoundWon)

    def narrate(self, lang: str, event: SituanEvent, names: Sequence[str]) -> str | None:
        if isinstance(event, WentOut) and event.place in PLACES:
            place = t(lang, PLACES[event.place])
            return t(lang, "{name} is out: {place}.", name=names[event.seat], place=place)
        if isinstance(event, HandRevealed):
            return t(lang, "{name}'s hand is shown to the table.", name=names[event.seat])
        if isinstance(event, ShowAsked):
            return t(
                lang,
                "{name} asks {partner} for a 亮牌; {partner} answers.",
                name=names[event.by],
                partner=names[event.partner],
            )
        if isinstance(event, ShowAnswered):
            return texts.show_answer_text(lang, event, names)
        return None

    def settlement_text(
        self,
        lang: str,
        result: Result,
        names: Sequence[str],
        totals: Sequence[Fraction],
        running: Sequence[Fraction],
    ) -> str:
        assert isinstance(result, SituanResult)
        return settling.settlement_text(lang, result, names, totals, running)

    def outcome_text(self, lang: str, result: Result, names: Sequence[str]) -> str:
        assert isinstance(result, SituanResult)
        return "\n".join([t(lang, "Hand over."), *settling.outcome_lines(lang, result, names)])

    def hand_picture(self, lang: str, view: SituanView, player: str, number: int) -> HandPicture:
        """The cards by rank (the renderer groups them), as the text shows them."""
        assert view.seat is not None  # a seat's own view
        details = (
            t(lang, "四团 · hand {number}", number=number),
            t(lang, "seat {seat}", seat=seat_number(view.seat)),
        )
        return hand_picture(
            self.layout, player, [face(c, by_rank=True) for c in view.hand], details
        )

    def settlement_picture(
        self,
        lang: str,
        result: Result,
        names: Sequence[str],
        totals: Sequence[Fraction],
        running: Sequence[Fraction],
        number: int,
    ) -> SettlementPicture:
        assert isinstance(result, SituanResult)
        results = []
        for seat in range(4):
            place = result.finish.index(seat) + 1 if seat in result.finish else 4
            team = "A" if seat % 2 == 0 else "B"
            results.append(
                t(lang, PLACES.get(place, LAST_PLACE)) + " · " + t(lang, "Team {team}", team=team)
            )
        bonuses = [f"{t(lang, '墩')} {money(b)}" if b else "" for b in result.bonus]
        footer = settling.footer_text(lang, result)
        title = t(lang, "四团 · hand {number}", number=number)
        return settlement_picture(lang, title, names, results, totals, running, bonuses, footer)

    def primer_picture(self, lang: str) -> TablePicture:
        return primer.primer_picture(lang)

    def hint_text(self, lang: str, view: SituanView, move: Action, weighing: Weighing) -> str:
        return hints.hint_text(lang, view, move, weighing)

    def explain(self, lang: str, refusal: IllegalAction, view: SituanView | None = None) -> str:
        facts = refusal.facts
        play, last = facts.get("play"), facts.get("last")
        if refusal.code == "cannot_beat" and isinstance(play, str) and isinstance(last, str):
            played = combo_of_ranks([RANK_INDEX[r] for r in parse_rank_run(play)])
            beaten = combo_of_ranks([RANK_INDEX[r] for r in parse_rank_run(last)])
            if played is not None and beaten is not None:
                return t(
                    lang,
                    "{play} does not beat {last}: play a higher one of the same kind, a "
                    "bomb, or /pass.",
                    play=texts.combo_text(lang, played),
                    last=texts.combo_text(lang, beaten),
                )
        cards = facts.get("cards")
        if refusal.code == "not_in_hand" and cards:
            shown = cards_text(lang, [parse_card(c) for c in cards])
            return t(lang, "You do not hold {cards}.", cards=shown)
        if refusal.code == "not_in_hand" and isinstance(facts.get("rank"), str):
            rank = rank_text(lang, str(facts["rank"]))
            key = "You hold {held} of {rank}, not {wanted}."
            return t(lang, key, held=facts.get("held"), rank=rank, wanted=facts.get("wanted"))
        if refusal.code == "not_a_combination":
            return t(
                lang,
                "That is no combination: play one rank (a single, a pair, a triple, "
                "or a bomb of 4 to 12) or the four kings.",
            )
        if refusal.code == "show_not_allowed" and facts.get("refused"):
            return t(lang, "Your partner refused your 亮牌 in this hand: you cannot ask again.")
        if refusal.code == "show_not_allowed":
            key = (
                "A 亮牌 is possible once a hand, by a player who still holds cards; the "
                "revealed hand is yours or your partner's and must hold cards."
            )
            return t(lang, key)
        if refusal.code == "must_lead":
            return t(lang, "You lead this round: play any combination (you cannot pass).")
        return plain_refusal(lang, refusal)

    def suggestion_label(self, lang: str, value: str) -> str:
        try:
            play = read_play(0, value.split(), by_rank=True)
        except RecordError:
            return value
        return texts.ranks_text(lang, [c.rank for c in play.cards] or list(play.ranks))

    def suggestions(self, hand: GameHand, seat: int) -> list[str]:
        """On the seat's turn its plays, the lowest of each size first: a leader holding
        many rank groups sees singles, pairs, triples and bombs within Discord's first 25
        completions, not only the lowest ranks' groups; else the seat's own cards."""
        if hand.to_act == seat:
            plays = [a.ranks for a in hand.legal_actions(seat) if isinstance(a, Play)]
            if plays:
                return ["".join(ranks) for ranks in lowest_of_each_size_first(plays)]
        return [str(c) for c in dict.fromkeys(hand.cards_of(seat))]


def play_from_words(seat: int, args: Sequence[str]) -> Play:
    """``/play``'s words read as cards (`bot.games.situan.notation`); a word that is no card
    is refused naming it, with the forms that are read."""
    if not args:
        raise BadInput("Say which cards to play, e.g. /play 7×4 (four 7s)")
    try:
        return read_play(seat, read_notation(" ".join(args)), by_rank=True)
    except CountOutOfRange as error:
        raise BadInput(
            "{token}: a count is 1 to 12. Write a rank and its count: 7×4 (four 7s), 666, "
            "10×2, 3个K, LJ×2 BJ.",
            token=echoed(error.token),
        ) from None
    except RecordError as error:
        raise BadInput(
            "Unknown card: {token}. Write a rank and its count: 7×4 (four 7s), 666, 10×2, "
            "3个K, LJ×2 BJ.",
            token=echoed(str(error.facts.get("token", ""))),
        ) from None


def lowest_of_each_size_first(plays: Sequence[Sequence[str]]) -> list[Sequence[str]]:
    """``plays`` (listed low to high within each size) taken a size at a time in turn: the
    lowest of every size, then the next of every size, and so on."""
    by_size: dict[int, list[Sequence[str]]] = {}
    for ranks in plays:
        by_size.setdefault(len(ranks), []).append(ranks)
    columns = [by_size[size] for size in sorted(by_size)]
    return [ranks for row in zip_longest(*columns) for ranks in row if ranks is not None]

"""Every command, declared once: its name, what runs it, where it may be given, and how
menus describe it. The parser, /help, the Telegram menus and privacy sets, the Discord slash
commands and the console's completion are all made from `COMMANDS`.

Adding a command is one `Spec` here and its handler: a `TableHandler` (the lobby's in
`bot.table.lobby`, the hand's in `bot.table.playing`) runs at the chat's table; a `ChatHandler`
(`bot.commands.chat`) runs before any table is asked, and may hand the command on to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from bot.commands import chat as chat_commands
from bot.commands import notices, practice_table, quick_commands, rating_commands, replay_commands
from bot.commands.chat import ChatHandler, ChatHost, games_text
from bot.i18n import N_, t
from bot.reading.command import Command
from bot.table import hint_answers, lobby, playing, primer, setting_commands
from bot.table.effects import Effects
from bot.table.state import Table
from bot.views.outgoing import Kind, Outgoing

TableHandler = Callable[[Table, Command], Effects]


class Arg(StrEnum):
    """The kinds of argument a command takes, for platforms that ask for each one apart
    (Discord's slash commands): each kind is one kind of field there."""

    GAME = "game"
    PRESET = "preset"
    SEAT = "seat"
    LEVEL = "level"
    CARDS = "cards"
    POINTS = "points"
    SUIT = "suit"
    WHOSE = "whose"
    ON_OFF = "on_off"
    YES_NO = "yes_no"
    TEXT = "text"
    LANGUAGE = "language"


@dataclass(frozen=True, slots=True)
class Option:
    """One argument: its field name, its kind, what it is (a message id) and whether it
    must be given."""

    name: str
    kind: Arg
    about: str
    required: bool = True
    completed: bool = False
    """Platforms that complete what is typed offer the player's own plays (or the game's
    presets, for a preset)."""


@dataclass(frozen=True, slots=True)
class Spec:
    name: str
    summary: str
    """Message id of what the command does, for menus and /help."""
    usage: str = ""
    """Its arguments as /help writes them (``[SEAT]``, ``CARDS``: a message id where a word
    stands for what is typed; choices are written as they are typed)."""
    table: TableHandler | None = None
    """Runs it at the chat's table."""
    chat: ChatHandler | None = None
    """Runs it before the table is asked (None back: the table runs it)."""
    needs_table: bool = True
    """Typed privately, it acts at one of the player's tables (`bot.commands.private_chat`)."""
    own_cards: bool = False
    """About the player's own cards: typed in a group it is deleted there where the bot
    may, and answered privately."""
    move: bool = False
    """A move in the running hand: typed privately, it goes to the table waiting on the
    player."""
    host: bool = False
    """The host's command, wholly or in part: a chat's administrators may give it too."""
    listed: bool = True
    """Shown in menus, /help and slash commands (not: the buttons' own commands)."""
    match_wide: bool = False
    """Its button means the same in any hand of the match (the lobby post's, "My hand"):
    the button's stamp need only name this match, not this hand or turn."""
    on_page: bool = True
    """Offered on the web table when a button of the private hand gives it (not: what the
    page does itself, choosing cards, or has no need of, "My hand")."""
    shows_hand: bool = False
    """Answered with the player's own hand: privately at every running table where they
    sit, and on Discord in the interaction's own answer."""
    plays_chosen: bool = False
    """Plays (or buries) the cards chosen with the pick buttons; on the web table, the cards
    the page chose itself."""
    asks_alerts: bool = False
    """Asks for private messages later (a game starting here): where those cannot reach the
    person, the platform tells them in the chat they asked from."""
    sets_language: bool = False
    """Changes the language the chat is answered in: a front that keeps its own copy of it
    (Telegram's command menus, the console's prompt) learns the new one."""
    private_only: bool = False
    """Said in a private chat with the bot only (in a group it is refused, saying so); the
    console, where the one person types everything, gives it as said privately."""
    seats_player: bool = False
    """Seats the person who gives it, whose cards then go to their private chat: on
    Telegram, a person the bot cannot write to privately yet is asked to open it; its button
    in a /notify message may be pressed in the private chat it was sent to, by its addressee
    alone."""
    pressed_where_shown: bool = False
    """Its button acts on the chat it is shown in and asks nothing of a seat: pressed in a
    private chat too (a practice table's settlement), where the chat it names must be that
    private chat."""
    quick_room: bool | None = None
    """Taken at a quick table (`bot.hosting.quick_room`), where strangers only play: by
    default the moves and the hand; True or False says otherwise (no hint at a rated table)."""
    options: tuple[Option, ...] = ()
    aliases: tuple[str, ...] = ()


def _help_at(table: Table, command: Command) -> Effects:
    text = help_text(table.answer_lang(command))
    return Effects(out=[Outgoing(Kind.REPLY, table.chat, text, user=command.user)])


async def _help_here(
    host: ChatHost, command: Command, table: Table | None, lang: str
) -> Effects | None:
    """``/help`` where no table is open (at a table, the table answers in its language)."""
    if table is not None and table.is_open():
        return None
    return Effects(out=[Outgoing(Kind.REPLY, command.chat, help_text(lang), user=command.user)])


def _seat(required: bool) -> Option:
    return Option("seat", Arg.SEAT, N_("Seat number 1–4"), required)


COMMANDS: tuple[Spec, ...] = (
    Spec("new", N_("Open a table: {games}"), N_("GAME [PRESET]"),
         chat=chat_commands.new, needs_table=False,
         options=(Option("game", Arg.GAME, N_("Which game")),
                  Option("preset", Arg.PRESET, N_("Preset (rule set)"), False, True))),
    Spec("join", N_("Take a seat"), N_("[SEAT]"), table=lobby.join, options=(_seat(False),),
         match_wide=True, seats_player=True),
    Spec("leave", N_("Leave your seat"), table=lobby.leave, quick_room=True),
    Spec("addbot", N_("Seat an AI player"), "[easy|normal|hard]", table=lobby.addbot, host=True,
         match_wide=True,
         options=(Option("level", Arg.LEVEL,
                         N_("AI level (the table's ai_level if left out)"), False),)),
    Spec("start", N_("Deal the first hand"), table=lobby.start, host=True, match_wide=True),
    Spec("ready", N_("Ready for the next hand"), table=lobby.ready),
    Spec("play", N_("Play cards, e.g. /play 7777"), N_("CARDS"), table=playing.game_command,
         own_cards=True, move=True,
         options=(Option("cards", Arg.CARDS, N_("Cards, e.g. 7777 or S10 S10 LJ"),
                         completed=True),)),
    Spec("pass", N_("Pass"), table=playing.game_command, own_cards=True, move=True),
    Spec("bid", N_("Bid points (二七王)"), N_("POINTS"), table=playing.game_command, own_cards=True,
         move=True, options=(Option("points", Arg.POINTS, N_("Points to bid")),)),
    Spec("trump", N_("Name trump: S H C D or none"), "S|H|C|D|none",
         table=playing.game_command, own_cards=True, move=True,
         options=(Option("suit", Arg.SUIT, N_("Trump suit")),)),
    Spec("bury", N_("Bury the cards you do not keep (8; one deck: 6)"), N_("CARDS"),
         table=playing.game_command, own_cards=True, move=True,
         options=(Option("cards", Arg.CARDS, N_("Eight cards to bury")),)),
    Spec("bonus", N_("Declare 冲关"), table=playing.game_command, own_cards=True, move=True),
    Spec("show", N_("Start a 亮牌"), table=playing.game_command, own_cards=True, move=True),
    Spec("auto", N_("托管 on or off"), "on|off", table=playing.auto, own_cards=True, move=True,
         options=(Option("on", Arg.ON_OFF, N_("On or off")),)),
    Spec("hand", N_("Send me my hand"), table=playing.hand, own_cards=True, match_wide=True,
         on_page=False, shows_hand=True),
    # Learning to play (issue 55): hints, practice, replays.
    Spec("hint", N_("The move the hard AI player would make now, and why (your turn)"),
         table=hint_answers.ask, own_cards=True, move=True, quick_room=False),
    Spec("practice", N_("Practise privately with three AI players: hints, no time limit"),
         N_("GAME [LEVEL] [timed]"), chat=practice_table.practice, needs_table=False,
         options=(Option("game", Arg.GAME, N_("Which game")),
                  Option("level", Arg.LEVEL, N_("AI level (the table's ai_level if left out)"),
                         False))),
    Spec("replay", N_("Step through one of your recent hands on the web, every hand shown"),
         N_("[N]"), chat=replay_commands.replay, needs_table=False, pressed_where_shown=True,
         options=(Option("hand", Arg.TEXT, N_("1: your last hand (if left out), 2: the one "
                                              "before…"), False),)),
    Spec("score", N_("The match ledger"), table=lobby.score, chat=chat_commands.final_score,
         quick_room=True),
    Spec("settings", N_("Show or change the options"), N_("[NAME VALUE]"),
         table=setting_commands.settings, host=True, aliases=("set",),
         options=(Option("name", Arg.TEXT, N_("Option name"), False),
                  Option("value", Arg.TEXT, N_("New value"), False))),
    Spec("rules", N_("A short summary of the rules"), table=primer.rules, quick_room=True),
    Spec("lang", N_("Language: zh-Hans, zh-Hant or en"), "zh-Hans|zh-Hant|en",
         table=setting_commands.lang, chat=chat_commands.language, needs_table=False, host=True,
         sets_language=True,
         options=(Option("language", Arg.LANGUAGE, N_("Language")),)),
    Spec("next", N_("Deal the next hand now (host)"), table=lobby.next_hand, host=True),
    Spec("kick", N_("Free a seat (host; in a hand an AI player takes it)"), N_("SEAT"),
         table=lobby.kick, host=True, options=(_seat(True),)),
    Spec("host", N_("Hand the host role to the person at a seat"), N_("SEAT"),
         table=lobby.host, host=True, options=(_seat(True),)),
    Spec("surrender", N_("Surrender (the declarer, before the first card)"),
         table=playing.game_command, own_cards=True, move=True),
    Spec("consent", N_("Answer your partner's 亮牌: yes or no"), "yes|no",
         table=playing.game_command, own_cards=True, move=True,
         options=(Option("answer", Arg.YES_NO, N_("Yes or no")),)),
    Spec("reveal", N_("Which hand your 亮牌 shows: me or partner"), "me|partner",
         table=playing.game_command, own_cards=True, move=True,
         options=(Option("whose", Arg.WHOSE, N_("Whose hand to show")),)),
    Spec("stop", N_("End the match"), table=lobby.stop, host=True),
    Spec("export", N_("The last hand's record"), chat=chat_commands.export),
    Spec("stats", N_("Your statistics"), chat=chat_commands.stats, needs_table=False),
    Spec("top", N_("This chat's leaderboard (/top rating: the skill ratings)"),
         chat=rating_commands.top),
    Spec("quick", N_("A table of players from anywhere, matched by skill (in a private chat)"),
         N_("[GAME [PRESET] [noai] | stop]"), chat=quick_commands.quick, needs_table=False,
         private_only=True,
         options=(Option("what", Arg.TEXT, N_("A game, or stop"), False),
                  Option("preset", Arg.PRESET, N_("Preset (rule set)"), False, True))),
    Spec("block", N_("Never be matched again with a player of your last quick table"),
         N_("NAME"), chat=quick_commands.block, needs_table=False, private_only=True,
         options=(Option("name", Arg.TEXT, N_("Their name")),)),
    Spec("report", N_("Report your last hand to the operator"), N_("[WHY]"),
         chat=quick_commands.report, needs_table=False, private_only=True,
         options=(Option("why", Arg.TEXT, N_("What happened"), False),)),
    Spec("rating", N_("Your skill ratings"), N_("[GAME]"), chat=rating_commands.rating,
         needs_table=False, options=(Option("game", Arg.GAME, N_("Which game"), False),)),
    Spec("notify", N_("Tell me privately when a game starts here (privately: list, stop)"),
         "[1|all]", chat=notices.notify, needs_table=False, asks_alerts=True,
         options=(Option("which", Arg.TEXT, N_("Privately: which alert to stop (a number or all)"),
                         False),)),
    Spec("help", N_("All commands"), table=_help_at, chat=_help_here, needs_table=False,
         quick_room=True),
    Spec("pick", N_("Choose cards by button"), table=playing.pick, own_cards=True, move=True,
         listed=False, on_page=False),
    Spec("clear", N_("Clear the chosen cards"), table=playing.clear, own_cards=True,
         move=True, listed=False, on_page=False),
    Spec("go", N_("Play the chosen cards"), table=playing.go, own_cards=True, move=True,
         listed=False, plays_chosen=True),
    Spec("resume", N_("Let a paused hand go on (host)"), table=playing.resume, host=True,
         listed=False),
)  # fmt: skip

BY_NAME: dict[str, Spec] = {name: spec for spec in COMMANDS for name in (spec.name, *spec.aliases)}
NAMES = frozenset(BY_NAME)
"""Every command name the parser takes (aliases included)."""
LISTED: tuple[Spec, ...] = tuple(spec for spec in COMMANDS if spec.listed)
OWN_CARDS = frozenset(name for name, spec in BY_NAME.items() if spec.own_cards)
PRESSED_IN_PRIVATE = OWN_CARDS
"""What a button pressed in a player's private chat may ask of a table: the controls of
their own hand (picking, playing, bidding, 托管, "my hand" — every button of the private hand
is about the presser's own cards), never the lobby's or the match's (/new, /join, /addbot,
/start, /stop, /settings…), which act only from the table's own chat."""
PRESSED_WHERE_SHOWN = frozenset(name for name, spec in BY_NAME.items() if spec.pressed_where_shown)
HOST_COMMANDS = frozenset(name for name, spec in BY_NAME.items() if spec.host)
MOVES = frozenset(name for name, spec in BY_NAME.items() if spec.move)
NEEDS_NO_TABLE = frozenset(name for name, spec in BY_NAME.items() if not spec.needs_table)
MATCH_WIDE = frozenset(name for name, spec in BY_NAME.items() if spec.match_wide)
NOT_ON_PAGE = frozenset(name for name, spec in BY_NAME.items() if not spec.on_page)
SHOWS_HAND = frozenset(name for name, spec in BY_NAME.items() if spec.shows_hand)
TAKES_CARDS = frozenset(
    name for name, spec in BY_NAME.items() if any(o.kind is Arg.CARDS for o in spec.options)
)
"""The moves made with cards (play, bury): what the web table checks as the cards are chosen."""
PLAYS_CHOSEN = frozenset(name for name, spec in BY_NAME.items() if spec.plays_chosen)
ASKS_ALERTS = frozenset(name for name, spec in BY_NAME.items() if spec.asks_alerts)
SETS_LANGUAGE = frozenset(name for name, spec in BY_NAME.items() if spec.sets_language)
PRIVATE_ONLY = frozenset(name for name, spec in BY_NAME.items() if spec.private_only)
SEATS_PLAYER = frozenset(name for name, spec in BY_NAME.items() if spec.seats_player)
QUICK_ROOM = frozenset(
    name
    for name, spec in BY_NAME.items()
    if (spec.move or spec.shows_hand if spec.quick_room is None else spec.quick_room)
)
"""What a player may ask of a quick table: its moves and their own hand, the rules, the
score, leaving; a match's settings, seats and hosting are the room's, and no hint is given
at a rated table."""
GAME_COMMANDS = frozenset(
    name for name, spec in BY_NAME.items() if spec.table is playing.game_command
)
"""The commands a game's front reads (`bot.games.game_front.GameFront.commands`: each front's are
some of these)."""


def spec_of(name: str) -> Spec | None:
    return BY_NAME.get(name)


def table_handler(name: str) -> TableHandler | None:
    spec = BY_NAME.get(name)
    return None if spec is None else spec.table


def summary_text(lang: str, spec: Spec) -> str:
    """What ``spec``'s command does, in ``lang``."""
    return t(lang, spec.summary, games=games_text(lang))


def help_text(lang: str) -> str:
    """Every listed command with its arguments and what it does."""
    lines = [t(lang, "Commands:")]
    for spec in LISTED:
        usage = f" {t(lang, spec.usage)}" if spec.usage else ""
        lines.append(f"/{spec.name}{usage} — {summary_text(lang, spec)}")
    lines.append(t(lang, TYPED_WORDS))
    return "\n".join(lines)


TYPED_WORDS = N_(
    "In a private chat with the bot you may type as you would say it, without the slash: "
    "出 2222, 不要, 不叫, 叫分 100, 4个2, 三个K."
)

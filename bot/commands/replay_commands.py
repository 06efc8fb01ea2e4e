"""``/replay``: one of the asker's finished hands stepped through on the web, trick by trick
with every hand shown, from its stored record — whatever became of its table (a match over, a
table stopped or forgotten: the hands stay in storage).

- ``/replay``: the asker's last finished hand; ``/replay N``: their N-th most recent (2: the one
  before it, up to `RECENT`), across chats and matches, as storage's ledger knows them.
- The settlement's button says ``/replay TAG.N``: hand N of the match whose button stamp is
  ``TAG`` (`bot.views.controls.match_tag`), at the chat it was pressed in — a member of the
  group may press it without having played.

The answer goes to the asker alone with a button to ``/replay?id=HAND`` (the hand's id), which
the platform's web door makes whole (Telegram: a Mini App button proving the asker with its
``initData``; Discord: a link signed for the asker). The page itself opens the hand only for
who played it, or for a member or spectator of the chat it was played in
(`adapters.web.hand_replay`). Where no web table is served the button is left out."""

from __future__ import annotations

from bot.commands.chat import ChatHost, reply
from bot.games import FRONTS
from bot.i18n import N_, normalize_language, t
from bot.reading.command import Command
from bot.table.effects import Effects
from bot.table.state import Table
from bot.views.controls import Stamp, match_tag
from bot.views.outgoing import Button, Kind, Outgoing

REPLAY_PAGE = "/replay?id={hand}"
"""The replay page of a stored hand, relative to the web table's public base."""
RECENT = 20
"""How far back ``/replay N`` reaches among the asker's hands."""

SAY_WHICH = N_(
    "Say /replay for your last hand, or /replay and a number from 1 to {most} for one of your "
    "recent hands (2: the one before the last)."
)
NONE_YET = N_(
    "You have no finished hand to replay yet: /replay works once you have played a hand to "
    "its end (a practice hand: press “Replay this hand” under its settlement)."
)
FEWER = N_(
    "Hands of yours to replay so far: {count}. Say /replay and a number from 1 to {count} "
    "(1: the last)."
)
GONE = N_(
    "That hand is not stored in this chat: say /replay for your last hand, or /replay N for "
    "your N-th most recent."
)


async def replay(host: ChatHost, command: Command, table: Table | None, lang: str) -> Effects:
    if table is None and normalize_language(command.lang) is None:
        closed = await host.closed_table(command.chat)  # a match over: the group's language
        lang = closed.lang if closed is not None else lang
    word = command.args[0] if command.args else ""
    if "." in word:
        hand_id = await _named_here(host, command.chat, word)
        if hand_id is None:
            return reply(command, lang, GONE)
    else:
        number = int(word) if word.isascii() and word.isdigit() and len(word) <= 3 else 0
        number = number if word else 1
        if not 1 <= number <= RECENT:
            return reply(command, lang, SAY_WHICH, most=RECENT)
        played = await host.db.hands_played(command.user, number)
        if not played:
            return reply(command, lang, NONE_YET)
        if len(played) < number:
            return reply(command, lang, FEWER, count=len(played))
        hand_id = played[number - 1]
    kept = await host.db.kept_hand(hand_id)
    if kept is None or kept.result is None:
        return reply(command, lang, GONE)
    front = FRONTS.get(str(kept.start.get("game")))
    game = t(lang, front.title) if front is not None else ""
    text = t(
        lang,
        N_("{game}, hand {number} of its match, trick by trick, every hand shown:"),
        game=game,
        number=kept.number,
    )
    button = Button(
        t(lang, "Replay this hand"), "", "", url=REPLAY_PAGE.format(hand=hand_id), opens_app=True
    )
    return Effects(
        out=[Outgoing(Kind.REPLY, command.chat, text, user=command.user, buttons=((button,),))]
    )


async def _named_here(host: ChatHost, chat: str, word: str) -> int | None:
    """The id of the hand ``word`` names at ``chat`` (``TAG.N``: the match's stamp, the hand's
    number), finished or not (None: none)."""
    stamp = Stamp.read(word)
    if stamp is None or stamp.turn is not None:
        return None
    for hand_id, match in reversed(await host.db.hands_numbered(chat, stamp.hand)):
        if match_tag(match) == stamp.table:
            return hand_id
    return None

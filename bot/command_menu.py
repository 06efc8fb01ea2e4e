"""The commands a platform lists in its menu, with a short description each (in the
catalogues, so every language has them)."""

from __future__ import annotations

from bot.i18n import N_

COMMAND_MENU: tuple[tuple[str, str], ...] = (
    ("new", N_("Open a table: situan or erqiwang")),
    ("join", N_("Take a seat")),
    ("leave", N_("Leave your seat")),
    ("addbot", N_("Seat an AI player")),
    ("start", N_("Deal the first hand")),
    ("ready", N_("Ready for the next hand")),
    ("play", N_("Play cards, e.g. /play 7777")),
    ("pass", N_("Pass")),
    ("bid", N_("Bid points (二七王)")),
    ("trump", N_("Name trump: S H C D or none")),
    ("bury", N_("Bury the cards you do not keep (8; one deck: 6)")),
    ("bonus", N_("Declare 冲关")),
    ("show", N_("Start a 亮牌")),
    ("auto", N_("托管 on or off")),
    ("hand", N_("Send me my hand")),
    ("score", N_("The match ledger")),
    ("settings", N_("Show or change the options")),
    ("rules", N_("A short summary of the rules")),
    ("lang", N_("Language: zh-Hans, zh-Hant or en")),
    ("next", N_("Deal the next hand now (host)")),
    ("kick", N_("Free a seat (host)")),
    ("surrender", N_("Surrender (the declarer, before the first card)")),
    ("reveal", N_("Which hand your 亮牌 shows: me or partner")),
    ("stop", N_("End the match")),
    ("export", N_("The last hand's record")),
    ("stats", N_("Your statistics")),
    ("top", N_("This chat's leaderboard")),
    ("help", N_("All commands")),
)

COMMAND_NAMES: dict[str, str] = {name: f"command-name:{name}" for name, _ in COMMAND_MENU}
"""Message ids of each command's name where a platform lets names be translated (Discord)."""

"""Whose quick tables this process may hold (issue 54, several processes).

A quick table lives in no group: each of its players is told everything privately on their
own platform, and plays from their own private chat. So the process that holds it must both
send on each player's platform and hear each player's private chat:

- Telegram (``tg:``): any process running Telegram sends; a private update reaching another
  process is handed on to the table's owner (`Leases.forward_address`), and a process polling
  is the only one that receives.
- Discord (``dc:``): any process running Discord sends, but Discord delivers every direct
  message, and every press of a button in one, to shard 0 only. Only the process running
  shard 0 (or every shard) hears a Discord player of a quick table.
- The console's person: only the console's own process.

A process matches only the waiting people it reaches (`bot.community.quick_seating`), and
takes over only the quick tables whose every player it reaches (`bot.hosting.table_leases`):
a table another process could open would tell a Discord player their moves are "run by
another server", or drop their messages.
"""

from __future__ import annotations

from dataclasses import dataclass

from storage.platforms_of_users import platform_of

TELEGRAM = "tg"
DISCORD = "dc"
CONSOLE = ""


@dataclass(frozen=True, slots=True)
class Reach:
    platforms: frozenset[str] | None = None
    """The platforms whose players this process sends to and hears privately; None: every
    one (a process that shares its database with no other)."""

    def reaches(self, user: str) -> bool:
        return self.platforms is None or platform_of(user) in self.platforms

    @classmethod
    def of_process(
        cls, telegram: bool, discord: bool, shard_ids: tuple[int, ...] | None = None
    ) -> Reach:
        """The reach of a process running Telegram (``telegram``) and Discord (``discord``,
        connecting ``shard_ids``; None: every shard)."""
        platforms = set()
        if telegram:
            platforms.add(TELEGRAM)
        if discord and (shard_ids is None or 0 in shard_ids):
            platforms.add(DISCORD)  # shard 0 receives the direct messages
        return cls(frozenset(platforms))


EVERYONE = Reach()

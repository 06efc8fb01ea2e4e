"""Which platform a user id names: the part before its first ``:`` (``tg:u1`` → ``tg``), the
console's person (no prefix) none (``""``). Shared by the quick queues' claims, which take
only the people a process can reach (`bot.hosting.quick_reach`)."""

from __future__ import annotations


def platform_of(user: str) -> str:
    return user.partition(":")[0] if ":" in user else ""

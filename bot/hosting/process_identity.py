"""This process's name among those sharing a database, and how long its leases last."""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass

from bot.ops.defaults import LEASE_SECONDS


@dataclass(frozen=True, slots=True)
class Ownership:
    """This process among those sharing a database: its name in the leases, the address the
    others forward its tables' updates to, and how long its leases last."""

    owner: str
    address: str = ""
    seconds: float = LEASE_SECONDS

    @classmethod
    def default_owner(cls) -> str:
        """A name that differs between processes of one machine and between machines."""
        return f"{socket.gethostname()}:{os.getpid()}"

    @classmethod
    def started(cls, name: str, address: str = "", seconds: float = LEASE_SECONDS) -> Ownership:
        """This start of a process called ``name``: the owner in its leases is the name and a
        mark of this start, so that two processes given the same name (a deploy starting the
        new one before the old one stops) can never both hold a table. A restarted process
        therefore takes its old tables like any other: at once if it stopped cleanly (it gave
        them up), after their lease if it died."""
        return cls(f"{name}#{secrets.token_hex(3)}", address, seconds)

"""Defaults that a setting and the host both name: read by `config` as the setting's default
and by the host's constructors when no setting is given (tests, benchmarks). Here, so that the
settings need not import the host."""

from __future__ import annotations

DAY = 86_400.0
RETENTION_DAYS = 30.0
"""How long the store keeps a closed table (``BOT_RETENTION_DAYS``): `/score` shows its final
score meanwhile. Its hands and ledger stay after it."""
LEASE_SECONDS = 15.0
"""How long a lease lasts unrenewed (``BOT_LEASE_SECONDS``): a dead process's tables wait this
long for a new owner."""
TIMER_STEP = 0.2
"""Seconds between two looks at the tables' timers (``BOT_TIMER_STEP``): a table acts on its
timer up to this late, and the tables due within one step are stored in one transaction."""

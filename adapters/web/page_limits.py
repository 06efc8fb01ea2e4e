"""How much the web table lets a page ask: the time to say hello, a message's size, the checks and
messages a page may send at once and then each second, and the connections one address may hold."""

from __future__ import annotations

from adapters.serving import (
    ServerLimits,
)

HELLO_SECONDS = 10.0
"""A WebSocket must name its visitor this soon after opening."""


MESSAGE_BYTES = 16 * 1024
"""A page's message is small (a few cards): anything larger closes the socket."""


CHECKS_BURST, CHECKS_RATE = 40.0, 10.0
"""Selection checks per page (and per user over HTTP): a burst (tapping cards fast), then
this many a second; checks past them go unanswered."""


MESSAGES_BURST, MESSAGES_RATE = 120.0, 30.0
"""Messages of any kind per page: a burst, then this many a second. A page past them is
no page (a person taps a few times a second): it is closed with 1008."""


CONNECTIONS = 1000
"""Connections the web table holds at once: each open page holds its WebSocket, so this is
the pages one process serves (the webhook's 100 would be ten tables' worth)."""


PER_ADDRESS = 16
"""Connections one address may hold to the web table (several pages of a household)."""


WEB_LIMITS = ServerLimits(max_connections=CONNECTIONS, per_address=PER_ADDRESS)

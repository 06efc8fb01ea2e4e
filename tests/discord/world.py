"""The real Discord adapter (discord.py `AutoShardedClient`) connected to the fake gateway +
REST server, over a real table manager on a SQLite file, with helpers acting as members."""

from __future__ import annotations

import asyncio
import itertools
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

import discord
import yarl

from adapters.discord.app import DiscordAdapter
from adapters.discord.client import DiscordSettings
from adapters.discord.components import channel_key
from adapters.web.auth import LinkSigner
from adapters.web.door import WebDoor
from adapters.web.server import WebTable
from bot.hosting.manager import TableManager
from engine.situan.combos import RANKS
from storage import Database
from tests.discord.fake_discord import (
    APP_ID,
    CHANNEL_ID,
    GUILD_ID,
    THREAD_ID,
    FakeDiscord,
    user_payload,
)
from tests.waiting import eventually

MEMBERS = {"21": "Ann", "22": "Bob", "23": "Cai", "24": "Dee", "25": "Eve"}
"""Eve is a member who never sits down."""
PACE_SPEED = 30.0
TIMER_STEP = 0.005
"""How often the world's tables look at their timers: a test that moves the tables' clock
sees the step it is waiting for within 5 ms (at 0.02 s a hand of moved clocks took twice as
long); one table's timer pass costs microseconds."""
OPTION_TYPES = {str: 3, int: 4, bool: 5}
INTERACTION_IDS = itertools.count(500_000)
"""Interaction ids are Discord's snowflakes, never reused: across worlds too (a restarted
bot drops an interaction whose id it saw)."""


NEVER_DEFERRED = 3600.0
"""The tests' answer time before a deferral: none comes unless a test holds a table busy."""


class DiscordWorld:
    def __init__(self, fake: FakeDiscord, adapter: DiscordAdapter, db: Database) -> None:
        self.fake = fake
        self.adapter = adapter
        self.db = db
        self.manager: TableManager = adapter.manager
        self._stop = asyncio.Event()
        self.permissions: dict[str, int] = {}
        """Members' permissions in the channel (a plain member's where not given)."""
        self.web_table: WebTable | None = None
        """The web table served on 127.0.0.1 (``open(web_token=…)``), its door the adapter's."""
        self.web_runner: Any = None
        self._timers: asyncio.Task[None] | None = None
        self._saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)

    @classmethod
    async def open(
        cls,
        db_path: str,
        closed_dms: set[str] = frozenset(),
        seed: int = 5,
        settings: DiscordSettings | None = None,
        clock: Callable[[], float] = time.time,
        web: WebDoor | None = None,
        defer_after: float = NEVER_DEFERRED,
        web_token: str | None = None,
    ) -> DiscordWorld:
        """``clock``: the tables' clock (turn timers, AI pauses); a test may drive it.
        ``web_token``: the web table served on 127.0.0.1 for this manager (``web`` its door),
        checking Telegram Mini Apps' initData with this bot token (another adapter's players
        at the same manager).
        ``defer_after``: an answer is deferred only where a test asks for it (a loaded machine
        would otherwise defer a click the test expects answered in place)."""
        fake = FakeDiscord(users=dict(MEMBERS), closed_dms=set(closed_dms))
        await fake.start()
        # discord.py reads these class attributes for where Discord is (pinned version).
        saved = (discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)
        discord.http.Route.BASE = fake.rest_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
        db = await Database.open(db_path)
        manager = TableManager(
            db,
            _unset,
            seeds=lambda n: seed * 1000 + n,
            clock=clock,
            flood_burst=10_000,
            flood_rate=10_000.0,
        )
        web_table = runner = None
        if web_token is not None:
            web_table = WebTable(manager, LinkSigner(match_of=manager.match_at), web_token)
            runner, port = await web_table.serve("127.0.0.1", 0)
            web = WebDoor(f"http://127.0.0.1:{port}", web_table.signer)
        settings = settings or DiscordSettings(token="discord-test-token")
        adapter = DiscordAdapter(
            manager,
            settings,
            "zh-Hans",
            db=db,
            pace_speed=PACE_SPEED,
            web=web,
            defer_after=defer_after,
            guild_ready_timeout=0.01,
        )
        manager.send = adapter.outbox
        world = cls(fake, adapter, db)
        world._saved = saved
        world.web_table, world.web_runner = web_table, runner
        await asyncio.wait_for(adapter.start(), timeout=20)
        await manager.restore()
        world._timers = asyncio.create_task(manager.run_timers(world._stop, step=TIMER_STEP))
        return world

    async def close(self) -> None:
        self._stop.set()
        if self._timers is not None:
            await self._timers
        await self.adapter.stop()
        if self.web_runner is not None:
            await self.web_runner.cleanup()
        await self.fake.stop()
        await self.db.close()
        discord.http.Route.BASE, discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = self._saved

    # ----------------------------------------------------------------- acting

    def _base(self, user_id: str, channel_id: str | None, kind: int) -> dict[str, Any]:
        return interaction_payload(
            self.fake,
            str(next(INTERACTION_IDS)),
            user_id,
            channel_id,
            kind,
            self.permissions.get(user_id, MEMBER_PERMISSIONS),
        )

    def slash_payload(
        self,
        user_id: str,
        command_name: str,
        /,
        channel_id: str | None = CHANNEL_ID,
        **options: Any,
    ) -> dict[str, Any]:
        payload = self._base(user_id, channel_id, 2)
        payload["data"] = {
            "id": "1", "name": command_name, "type": 1,
            "options": [{"name": k, "type": OPTION_TYPES[type(v)], "value": v}
                        for k, v in options.items()],
        }  # fmt: skip
        return payload

    async def slash(
        self,
        user_id: str,
        command_name: str,
        /,
        channel_id: str | None = CHANNEL_ID,
        **options: Any,
    ) -> list[dict[str, Any]]:
        return await self._answered(
            self.slash_payload(user_id, command_name, channel_id, **options)
        )

    async def click(self, user_id: str, message: dict[str, Any], command: str) -> list[Any]:
        """Click the button of ``message`` sending ``command``, or choose it in a menu."""
        for row in message["components"]:
            for component in row["components"]:
                custom_id = component["custom_id"]
                if component["type"] == 2 and custom_id.endswith("|" + command):
                    return await self._component(user_id, message, custom_id, 2, None)
                for option in component.get("options", []):
                    if option["value"].split(":", 1)[1] == command:
                        return await self._component(
                            user_id, message, custom_id, 3, [option["value"]]
                        )
        raise AssertionError(f"no {command!r} in the components of {message['id']}")

    async def _component(
        self,
        user_id: str,
        message: dict[str, Any],
        custom_id: str,
        kind: int,
        values: list[str] | None,
    ) -> list[Any]:
        in_dm = message["channel_id"] not in (CHANNEL_ID, THREAD_ID)
        if in_dm:  # a restarted fake has forgotten the DM channel: it is the message's
            self.fake.dm_channels.setdefault(user_id, message["channel_id"])
        payload = self._base(user_id, None if in_dm else message["channel_id"], 3)
        payload["message"] = message
        payload["data"] = {"custom_id": custom_id, "component_type": kind}
        if values is not None:
            payload["data"]["values"] = values
        return await self._answered(payload)

    async def _answered(self, payload: dict[str, Any]) -> list[dict[str, Any]]:
        interaction_id = await self.fake.interact(payload)
        await asyncio.wait_for(self.fake.answered[interaction_id].wait(), timeout=10)
        # A deferred answer (a loaded machine) follows its deferral: wait for it too.
        await eventually(lambda: int(interaction_id) not in self.adapter.answering, 10.0, 0.002)
        await self.settle()
        return [c.body for c in self.fake.callbacks(interaction_id)]

    async def settle(self) -> None:
        await eventually(self.adapter.outbox.idle, 10.0, 0.002, "an idle outbox")

    # ----------------------------------------------------------------- looking

    def key(self, channel_id: str = CHANNEL_ID) -> str:
        return channel_key(int(channel_id))

    def hand_message(self, user_id: str) -> dict[str, Any]:
        """The member's hand: the DM message with components, or their latest ephemeral one."""
        dm = self.fake.dm_channels.get(user_id)
        shown = [
            m
            for m in self.fake.messages.values()
            if m["components"] and (m["channel_id"] == dm or self._ephemeral_of(m, user_id))
        ]
        assert shown, f"no hand message for {user_id}"
        return shown[-1]

    def _ephemeral_of(self, message: dict[str, Any], user_id: str) -> bool:
        return bool(message["flags"] & 64) and message.get("for") == user_id

    def channel_calls(self, channel_id: str = CHANNEL_ID) -> list[Any]:
        return [c for c in self.fake.calls if c.path.startswith(f"channels/{channel_id}/messages")]


MEMBER_PERMISSIONS = (1 << 10) | (1 << 11) | (1 << 16) | (1 << 31)
"""A plain member's: view the channel, send messages, read history, use slash commands."""
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5


def interaction_payload(
    fake: FakeDiscord,
    interaction_id: str,
    user_id: str,
    channel_id: str | None,
    kind: int,
    permissions: int = MEMBER_PERMISSIONS,
) -> dict[str, Any]:
    """An interaction from a member, in a channel or (``channel_id`` None) by DM."""
    payload: dict[str, Any] = {
        "id": interaction_id, "application_id": APP_ID, "type": kind,
        "token": f"token-{interaction_id}", "version": 1, "locale": "zh-CN",
        "app_permissions": "2147483647", "entitlements": [],
        "authorizing_integration_owners": {}, "attachment_size_limit": 1 << 20,
    }  # fmt: skip
    if channel_id is None:  # a direct message
        dm = fake.dm_channels.setdefault(user_id, fake.next_id())
        payload["channel_id"] = dm
        recipients = [user_payload(user_id, MEMBERS[user_id])]
        payload["channel"] = {"id": dm, "type": 1, "recipients": recipients}
        payload["user"] = user_payload(user_id, MEMBERS[user_id])
        payload["context"] = 1
    else:
        payload["channel_id"] = channel_id
        payload["channel"] = fake._channel(channel_id)
        payload["guild_id"] = GUILD_ID
        payload["guild_locale"] = "zh-CN"
        payload["member"] = {**fake.member(user_id), "permissions": str(permissions)}
        payload["context"] = 0
    return payload


async def _unset(message: Any) -> None:
    raise AssertionError("the adapter's outbox replaces this sender")


def presses_for(table: Any) -> list[str]:
    """Commands for whoever acts, as component choices."""
    hand = table.hand
    if table.game == "situan":
        if hand.phase == "show_pick":
            return ["/reveal me"]
        plays = hand.legal_plays()
        if not plays:
            return ["/pass"]
        combo = plays[len(plays) // 2]
        presses = []
        for rank, count in Counter(RANKS[r] for r in combo.ranks).items():
            presses += [f"/pick {rank}", f"/pick {rank} {count}"]
        return [*presses, "/go"]
    if hand.phase == "bidding":
        bids = hand.allowed_bids()
        return ["/pass"] if hand.may_pass_bidding() and hand.bids else [f"/bid {bids[0]}"]
    if hand.phase == "trump":
        return ["/trump H"]
    seat = hand.to_act
    cards = hand.hands[seat][:8] if hand.phase == "bury" else hand.legal_plays()[0]
    return [f"/pick {c.text}" for c in cards] + ["/go"]

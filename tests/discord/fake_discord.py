"""A small Discord gateway + REST server on 127.0.0.1 for the real discord.py client.

The client logs in over REST, connects to the gateway (HELLO, IDENTIFY → READY and one
GUILD_CREATE, heartbeats acknowledged), and then receives the INTERACTION_CREATE events a test
dispatches. Every REST call is recorded; messages are kept so a test can click their
components; members listed in ``closed_dms`` refuse direct messages (403, code 50007).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

APP_ID = "900"
BOT_ID = "901"
GUILD_ID = "800"
CHANNEL_ID = "810"
THREAD_ID = "811"
NOW = "2026-11-30T10:00:00+00:00"


@dataclass
class Call:
    method: str
    path: str
    body: Any
    at: float


def user_payload(user_id: str, name: str, bot: bool = False) -> dict[str, Any]:
    return {"id": user_id, "username": name.lower(), "global_name": name, "discriminator": "0",
            "avatar": None, "bot": bot, "flags": 0}  # fmt: skip


@dataclass
class FakeDiscord:
    users: dict[str, str] = field(default_factory=dict)
    """user id → display name (the guild's members besides the bot)."""
    closed_dms: set[str] = field(default_factory=set)
    calls: list[Call] = field(default_factory=list)
    messages: dict[str, dict[str, Any]] = field(default_factory=dict)
    port: int = 0

    def __post_init__(self) -> None:
        self._ids = itertools.count(10_000)
        self._sequence = itertools.count(1)
        self._sockets: list[web.WebSocketResponse] = []
        self._runner: web.AppRunner | None = None
        self.ready = asyncio.Event()
        self.identified: list[list[int]] = []
        """The [shard, of how many] each IDENTIFY asked for."""
        self.answered: dict[str, asyncio.Event] = {}
        self.dm_channels: dict[str, str] = {}
        self._original: dict[str, str] = {}
        """interaction token → the id of the message its response made or edited."""
        self._interactions: dict[str, dict[str, Any]] = {}
        self._by_token: dict[str, dict[str, Any]] = {}

    def next_id(self) -> str:
        return str(next(self._ids))

    # ----------------------------------------------------------------- server

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{path:.*}", self._rest)
        self._runner = web.AppRunner(app, shutdown_timeout=0.1)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    @property
    def rest_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/gateway"

    # ----------------------------------------------------------------- gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse()
        await socket.prepare(request)
        self._sockets.append(socket)
        await socket.send_str(json.dumps({"op": 10, "d": {"heartbeat_interval": 45000}}))
        async for frame in socket:
            if frame.type != WSMsgType.TEXT:
                break
            payload = json.loads(frame.data)
            if payload["op"] == 1:
                await socket.send_str(json.dumps({"op": 11}))
            elif payload["op"] == 2:
                shard = payload["d"].get("shard") or [0, 1]
                self.identified.append(shard)
                await self._send(socket, "READY", self._ready_payload(shard))
                await self._send(socket, "GUILD_CREATE", self._guild_payload())
                self.ready.set()
        self._sockets.remove(socket)
        return socket

    async def _send(self, socket: web.WebSocketResponse, event: str, data: Any) -> None:
        await socket.send_str(
            json.dumps({"op": 0, "t": event, "s": next(self._sequence), "d": data})
        )

    async def dispatch(self, event: str, data: Any) -> None:
        for socket in self._sockets:
            await self._send(socket, event, data)

    def _ready_payload(self, shard: list[int]) -> dict[str, Any]:
        return {"v": 10, "user": user_payload(BOT_ID, "Cardhost", bot=True),
                "guilds": [{"id": GUILD_ID, "unavailable": True}], "session_id": "session",
                "resume_gateway_url": self.gateway_url, "shard": shard,
                "application": {"id": APP_ID, "flags": 0}}  # fmt: skip

    def member(self, user_id: str) -> dict[str, Any]:
        name = "Cardhost" if user_id == BOT_ID else self.users[user_id]
        return {"user": user_payload(user_id, name, bot=user_id == BOT_ID), "roles": [],
                "joined_at": NOW, "deaf": False, "mute": False, "flags": 0}  # fmt: skip

    def _channel(self, channel_id: str) -> dict[str, Any]:
        if channel_id == THREAD_ID:
            return {"id": THREAD_ID, "type": 11, "guild_id": GUILD_ID, "name": "hand-talk",
                    "parent_id": CHANNEL_ID, "owner_id": BOT_ID, "message_count": 0,
                    "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
                    "total_message_sent": 0, "last_message_id": None,
                    "thread_metadata": {"archived": False, "auto_archive_duration": 60,
                                        "archive_timestamp": NOW, "locked": False}}  # fmt: skip
        return {"id": channel_id, "type": 0, "guild_id": GUILD_ID, "name": "cards",
                "position": 0, "permission_overwrites": []}  # fmt: skip

    def _guild_payload(self) -> dict[str, Any]:
        members = [self.member(BOT_ID)] + [self.member(u) for u in self.users]
        everyone = {"id": GUILD_ID, "name": "@everyone", "permissions": "2147483647",
                    "position": 0, "color": 0, "hoist": False, "managed": False,
                    "mentionable": False, "flags": 0}  # fmt: skip
        return {"id": GUILD_ID, "name": "Card room", "owner_id": next(iter(self.users)),
                "roles": [everyone], "channels": [self._channel(CHANNEL_ID)],
                "threads": [self._channel(THREAD_ID)], "members": members,
                "member_count": len(members), "unavailable": False, "large": False,
                "features": [], "emojis": [], "stickers": [], "voice_states": [],
                "presences": [], "joined_at": NOW, "verification_level": 0,
                "default_message_notifications": 0, "explicit_content_filter": 0,
                "mfa_level": 0, "nsfw_level": 0, "premium_tier": 0,
                "preferred_locale": "zh-CN", "system_channel_flags": 0}  # fmt: skip

    # ----------------------------------------------------------------- REST

    async def _rest(self, request: web.Request) -> web.Response:
        path = request.match_info["path"]
        body = await _body(request)
        self.calls.append(Call(request.method, path, body, time.monotonic()))
        parts = path.split("/")
        method = request.method
        if path == "users/@me":
            return _json(user_payload(BOT_ID, "Cardhost", bot=True))
        if path == "oauth2/applications/@me":
            return _json(
                {
                    "id": APP_ID,
                    "name": "Cardhost",
                    "icon": None,
                    "description": "",
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "verify_key": "k",
                    "flags": 0,
                    "owner": user_payload("1", "Owner"),
                }
            )
        if path == "gateway/bot":
            limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
            return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})
        if parts[0] == "applications" and parts[-1] == "commands" and method == "PUT":
            return _json(
                [
                    {**c, "id": self.next_id(), "application_id": APP_ID, "version": "1"}
                    for c in body
                ]
            )
        if path == "users/@me/channels":
            recipient = str(body["recipient_id"])
            channel = self.dm_channels.setdefault(recipient, self.next_id())
            recipients = [user_payload(recipient, self.users[recipient])]
            return _json(
                {"id": channel, "type": 1, "last_message_id": None, "recipients": recipients}
            )
        if parts[0] == "users" and len(parts) == 2:
            return _json(user_payload(parts[1], self.users.get(parts[1], "Someone")))
        if parts[0] == "channels" and parts[-1] == "messages" and method == "POST":
            return self._post_message(parts[1], body)
        if parts[0] == "channels" and len(parts) == 4 and method == "PATCH":
            return self._edit(parts[3], body)
        if parts[0] == "channels" and len(parts) == 4 and method == "DELETE":
            gone = self.messages.pop(parts[3], None)
            return web.Response(status=204 if gone is not None else 404)
        if parts[0] == "interactions" and parts[-1] == "callback":
            return self._interaction_callback(parts[1], parts[2], body)
        if parts[0] == "webhooks" and parts[-1] == "@original" and method == "PATCH":
            return self._edit(self._original[parts[2]], body)
        if parts[0] == "webhooks" and len(parts) == 3 and method == "POST":  # a follow-up
            asked = self._by_token[parts[2]]
            message = self._message(asked["channel_id"], body, int(body.get("flags") or 0))
            message["for"] = (asked.get("member") or asked)["user"]["id"]
            return _json(message)
        return _json({})

    def _message(self, channel_id: str, body: dict[str, Any], flags: int = 0) -> dict[str, Any]:
        message = {"id": self.next_id(), "channel_id": channel_id, "author": user_payload(
            BOT_ID, "Cardhost", bot=True), "content": body.get("content") or "",
            "timestamp": NOW, "edited_timestamp": None, "tts": False,
            "mention_everyone": False, "mentions": [], "mention_roles": [],
            "attachments": self._attachments(body),
            "embeds": [], "pinned": False, "type": 0, "flags": flags,
            "components": body.get("components") or []}  # fmt: skip
        self.messages[message["id"]] = message
        return message

    def _attachments(self, body: dict[str, Any]) -> list[dict[str, Any]]:
        return [
            {
                "id": self.next_id(),
                "filename": f["filename"],
                "size": 1,
                "url": "http://x/f",
                "proxy_url": "http://x/f",
                "body": f["body"],
            }
            for f in body.get("_files", [])
        ]

    def _post_message(self, channel_id: str, body: dict[str, Any]) -> web.Response:
        recipient = next((u for u, c in self.dm_channels.items() if c == channel_id), None)
        if recipient is not None and recipient in self.closed_dms:
            return _json(
                {"message": "Cannot send messages to this user", "code": 50007}, status=403
            )
        return _json(self._message(channel_id, body))

    def _edit(self, message_id: str, body: dict[str, Any]) -> web.Response:
        message = self.messages[message_id]
        if "content" in body:
            message["content"] = body["content"]
        if "components" in body:
            message["components"] = body["components"]
        if "attachments" in body:  # what is kept of the old ones, plus the new uploads
            kept = {str(a.get("id")) for a in body["attachments"]}
            old = [a for a in message.get("attachments", []) if str(a["id"]) in kept]
            message["attachments"] = old + self._attachments(body)
        message["edited_timestamp"] = NOW
        return _json(message)

    def _interaction_callback(
        self, interaction_id: str, token: str, body: dict[str, Any]
    ) -> web.Response:
        kind = body.get("type")
        data = body.get("data") or {}
        channel = self._interactions[interaction_id]["channel_id"]
        message_id = None
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:
            flags = int(data.get("flags") or 0)
            message = self._message(channel, data, flags)
            asked = self._interactions[interaction_id]
            message["for"] = (asked.get("member") or asked)["user"]["id"]  # whose ephemeral
            message_id = message["id"]
            resource["message"] = message
        elif kind == 5:  # deferred: "thinking…", edited into the answer later
            flags = int(data.get("flags") or 0)
            message = self._message(channel, {"content": ""}, flags | 128)
            asked = self._interactions[interaction_id]
            message["for"] = (asked.get("member") or asked)["user"]["id"]
            message_id = message["id"]
        elif kind == 6 and "message" in self._interactions[interaction_id]:
            shown = self._interactions[interaction_id]["message"]
            self.messages.setdefault(shown["id"], shown)
            message_id = shown["id"]  # a deferred update: @original is the clicked message
        elif kind == 7:
            shown = self._interactions[interaction_id]["message"]
            clicked = shown["id"]
            self.messages.setdefault(clicked, shown)  # sent before this server (re)started
            message_id = clicked
            resource["message"] = json.loads(self._edit(clicked, data).text)
        if message_id is not None:
            self._original[token] = message_id
        self.answered.setdefault(interaction_id, asyncio.Event()).set()
        return _json(
            {
                "interaction": {
                    "id": interaction_id,
                    "type": 2,
                    "response_message_id": message_id,
                    "response_message_loading": False,
                    "response_message_ephemeral": bool(int(data.get("flags") or 0) & 64),
                },
                "resource": resource,
            }
        )

    # ----------------------------------------------------------------- a test's side

    async def interact(self, payload: dict[str, Any]) -> str:
        self._interactions[payload["id"]] = payload
        self._by_token[payload["token"]] = payload
        self.answered.setdefault(payload["id"], asyncio.Event())
        await self.dispatch("INTERACTION_CREATE", payload)
        return str(payload["id"])

    def callbacks(self, interaction_id: str) -> list[Call]:
        return [c for c in self.calls if c.path.startswith(f"interactions/{interaction_id}/")]

    def command_syncs(self) -> list[Call]:
        """Every bulk overwrite of the application's commands."""
        return [c for c in self.calls if c.method == "PUT" and c.path.endswith("/commands")]

    def channel_messages(self, channel_id: str) -> list[dict[str, Any]]:
        return [m for m in self.messages.values() if m["channel_id"] == channel_id]


async def _body(request: web.Request) -> Any:
    if request.content_type == "application/json":
        return await request.json()
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        body: dict[str, Any] = {}
        files = []
        for key, value in form.items():
            if key == "payload_json":
                body.update(json.loads(str(value)))
            elif isinstance(value, web.FileField):
                data = value.file.read()
                try:
                    text = data.decode()
                except UnicodeDecodeError:
                    text = ""  # a picture: its bytes are in "data"
                files.append({"filename": value.filename, "body": text, "data": data})
        body["_files"] = files
        return body
    text = await request.text()
    return json.loads(text) if text else {}


def _json(payload: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py does not read the charset parameter.
    return web.Response(
        body=json.dumps(payload).encode(),
        status=status,
        headers={"Content-Type": "application/json"},
    )

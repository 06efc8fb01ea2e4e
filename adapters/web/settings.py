"""The web table's settings (`WebSettings.from_settings`), from the checked settings
(`bot.ops.config`: ``WEB_PUBLIC_URL``, ``WEB_LISTEN``, ``WEB_PORT``, ``WEB_LINK_SECRET``,
``WEB_LINK_SECONDS``, ``WEB_INITDATA_MAX_AGE``, ``WEB_CONNECTIONS``, ``WEB_PER_ADDRESS``): without
``WEB_PUBLIC_URL`` there is no web table on the platforms, and nothing else changes.
``WEB_PORT`` may not be ``BOT_HEALTH_PORT``: ``/healthz`` and ``/metrics`` have a listener
of their own, which a flood of the public page cannot blind."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.serving import ServerLimits
from adapters.startup import StartupError
from adapters.web.auth import INIT_DATA_MAX_AGE, LINK_SECONDS
from adapters.web.page_limits import CONNECTIONS, PER_ADDRESS
from bot.ops.config import Settings


@dataclass(frozen=True)
class WebSettings:
    public_url: str
    listen: str = "0.0.0.0"
    port: int = 8080
    link_secret: bytes | None = None
    link_seconds: float = LINK_SECONDS
    init_data_max_age: float = INIT_DATA_MAX_AGE
    connections: int = CONNECTIONS
    per_address: int = PER_ADDRESS

    @property
    def limits(self) -> ServerLimits:
        return ServerLimits(max_connections=self.connections, per_address=self.per_address)

    @classmethod
    def from_settings(cls, settings: Settings) -> WebSettings | None:
        """The web table's part of the checked settings; None without ``WEB_PUBLIC_URL``."""
        url: str | None = settings["WEB_PUBLIC_URL"]
        if not url:
            return None
        secret: str | None = settings["WEB_LINK_SECRET"]
        if settings["WEB_PORT"] == settings["BOT_HEALTH_PORT"]:
            raise StartupError(
                f"WEB_PORT={settings['WEB_PORT']} is BOT_HEALTH_PORT: give the web table "
                "another port (/healthz and /metrics have a listener of their own)"
            )
        return cls(
            public_url=url,
            listen=settings["WEB_LISTEN"],
            port=settings["WEB_PORT"],
            link_secret=secret.encode() if secret else None,
            link_seconds=settings["WEB_LINK_SECONDS"],
            init_data_max_age=settings["WEB_INITDATA_MAX_AGE"],
            connections=int(settings["WEB_CONNECTIONS"]),
            per_address=int(settings["WEB_PER_ADDRESS"]),
        )

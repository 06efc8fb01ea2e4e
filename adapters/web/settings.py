"""The web table's settings (`WebSettings.from_settings`), from the checked settings
(`bot.config`: ``WEB_PUBLIC_URL``, ``WEB_LISTEN``, ``WEB_PORT``, ``WEB_LINK_SECRET``,
``WEB_LINK_SECONDS``, ``WEB_INITDATA_MAX_AGE``): without ``WEB_PUBLIC_URL`` there is no web
table on the platforms, and nothing else changes; with ``BOT_HEALTH_PORT`` the same port as
``WEB_PORT``, one server answers both."""

from __future__ import annotations

from dataclasses import dataclass

from adapters.web.auth import INIT_DATA_MAX_AGE, LINK_SECONDS
from bot.config import Settings


@dataclass(frozen=True)
class WebSettings:
    public_url: str
    listen: str = "0.0.0.0"
    port: int = 8080
    link_secret: bytes | None = None
    link_seconds: float = LINK_SECONDS
    init_data_max_age: float = INIT_DATA_MAX_AGE

    @classmethod
    def from_settings(cls, settings: Settings) -> WebSettings | None:
        """The web table's part of the checked settings; None without ``WEB_PUBLIC_URL``."""
        url: str | None = settings["WEB_PUBLIC_URL"]
        if not url:
            return None
        secret: str | None = settings["WEB_LINK_SECRET"]
        return cls(
            public_url=url,
            listen=settings["WEB_LISTEN"],
            port=settings["WEB_PORT"],
            link_secret=secret.encode() if secret else None,
            link_seconds=settings["WEB_LINK_SECONDS"],
            init_data_max_age=settings["WEB_INITDATA_MAX_AGE"],
        )

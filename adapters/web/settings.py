"""The web table's settings, read from the environment in one place (`WebSettings.from_env`),
each bad one a one-line `StartupError`:

- ``WEB_PUBLIC_URL``: the page's public HTTPS base (Telegram requires HTTPS); unset: no
  web table, and nothing else changes;
- ``WEB_LISTEN``, ``WEB_PORT``: where its server listens (default ``0.0.0.0``, ``8080``);
  with ``BOT_HEALTH_PORT`` the same port, one server answers both;
- ``WEB_LINK_SECRET``: the key links are signed with (16 characters or more; processes
  sharing one public address must share it); default: random at each start;
- ``WEB_LINK_SECONDS``: how long a signed link opens its page (default 3600);
- ``WEB_INITDATA_MAX_AGE``: seconds a Telegram ``initData`` stays good (default 86400).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from adapters.startup import StartupError, port_setting
from adapters.web.auth import INIT_DATA_MAX_AGE, LINK_SECONDS

LOOPBACK = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass(frozen=True)
class WebSettings:
    public_url: str
    listen: str = "0.0.0.0"
    port: int = 8080
    link_secret: bytes | None = None
    link_seconds: float = LINK_SECONDS
    init_data_max_age: float = INIT_DATA_MAX_AGE

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> WebSettings | None:
        """The settings in ``env`` (None without ``WEB_PUBLIC_URL``); `StartupError` for
        the first bad one."""
        url = env.get("WEB_PUBLIC_URL", "").strip().rstrip("/")
        if not url:
            return None
        parts = urlsplit(url)
        local = parts.scheme == "http" and parts.hostname in LOOPBACK
        if not (parts.scheme == "https" or local) or not parts.hostname or parts.query:
            raise StartupError(f"WEB_PUBLIC_URL={url[:80]}: say an https:// address")
        secret = env.get("WEB_LINK_SECRET", "")
        if secret and len(secret) < 16:
            raise StartupError("WEB_LINK_SECRET: say at least 16 characters")
        return cls(
            public_url=url,
            listen=env.get("WEB_LISTEN", "").strip() or "0.0.0.0",
            port=port_setting("WEB_PORT", env.get("WEB_PORT") or "8080"),
            link_secret=secret.encode() or None,
            link_seconds=_seconds(env, "WEB_LINK_SECONDS", LINK_SECONDS, 60, 7 * 86_400),
            init_data_max_age=_seconds(
                env, "WEB_INITDATA_MAX_AGE", INIT_DATA_MAX_AGE, 60, 7 * 86_400
            ),
        )


def _seconds(env: Mapping[str, str], name: str, default: float, low: float, high: float) -> float:
    text = env.get(name, "").strip()
    try:
        value = float(text) if text else default
    except ValueError:
        value = -1.0
    if not low <= value <= high:
        raise StartupError(f"{name}={text[:20]}: say a number of seconds, {low:g} to {high:g}")
    return value

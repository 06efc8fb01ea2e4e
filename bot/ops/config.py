"""Every setting of ``python -m bot``, read from the environment here and nowhere else, and
checked at start: a bad value stops the program with one line naming the variable, its
value (cut short; a secret never shown) and what it may be, exit code 2, before anything is
opened.

Each variable is declared once in `VARIABLES` — its meaning, its default as the README's
settings table shows it, what it may be, whether it is a secret, and how it is read — and
the README's table, ``python -m bot config`` and the warnings about unknown variables
(`unknown_variables`: a name with one of our prefixes that is no setting, most often a typo)
all come from that list.

A small typed loader rather than pydantic-settings: the bot's variables carry three prefixes
(``BOT_``, ``TELEGRAM_``, ``DISCORD_``, and ``CARDBOT_PICTURE_FONTS``), each error is one
sentence in the project's own words, and the README table and the unknown-name warnings need
the declarations themselves — a page of plain code, and no compiled dependency for it.
"""

from __future__ import annotations

import difflib
import ipaddress
import math
import os
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from bot.i18n import DEFAULT_LANGUAGE, LANGUAGES, normalize_language
from bot.ops.cores import usable_cores
from bot.ops.defaults import DAY, LEASE_SECONDS, RETENTION_DAYS, TIMER_STEP
from bot.ops.logs import FORMATS, LEVELS
from bot.ops.masking import masked_urls, token_secrets
from bot.ops.store_address import database_address

PREFIXES = ("BOT_", "TELEGRAM_", "DISCORD_", "WEB_", "CARDBOT_")
"""Names with these prefixes are ours: one that is no setting is warned about."""
NOT_SETTINGS = frozenset({"CARDBOT_PG_USER"})
"""Ours, but no setting of the bot (the test suite's PostgreSQL user)."""
SHOWN = 32
"""Characters of a bad value an error repeats."""


class StartupError(Exception):
    """Why the bot cannot start, in one sentence fit for a terminal: never a traceback,
    never a secret."""


class SettingError(StartupError):
    """A variable whose value is not one it may have."""

    def __init__(self, variable: Variable, value: str, allowed: str | None = None) -> None:
        self.variable = variable
        shown = "***" if variable.secret else variable.shown(value)
        if len(shown) > SHOWN:
            shown = shown[:SHOWN] + "…"
        super().__init__(f"{variable.name}={shown}: say {allowed or variable.allowed}")


def _as_is(text: str) -> str:
    return text


@dataclass(frozen=True)
class Variable:
    """One environment variable: how it reads and how it is documented."""

    name: str
    meaning: str
    default: str
    """As the README's settings table shows it."""
    allowed: str
    """What it may be, as an error says it after "say …"."""
    read: Callable[[Variable, str], Any]
    """The value from the variable's (stripped, non-empty) text; `SettingError` if bad."""
    unset: Any = None
    """The value when the variable is unset or empty."""
    secret: bool = False
    shown: Callable[[str], str] = field(default=_as_is)
    """The text as it may be printed (a database address with its password masked)."""


# ----------------------------------------------------------------- readers


def _pattern(expression: str) -> Callable[[Variable, str], str]:
    compiled = re.compile(expression)

    def read(variable: Variable, text: str) -> str:
        if not compiled.fullmatch(text):
            raise SettingError(variable, text)
        return text

    return read


def _number(low: float, high: float) -> Callable[[Variable, str], float]:
    def read(variable: Variable, text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise SettingError(variable, text) from None
        if not (math.isfinite(value) and low <= value <= high):
            raise SettingError(variable, text)
        return value

    return read


def _port(variable: Variable, text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        port = 0
    if not 1 <= port <= 65535:
        raise SettingError(variable, text)
    return port


def _address(variable: Variable, text: str) -> str:
    """An address to listen on: an IP address or a host name."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        if not re.fullmatch(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})", text):
            raise SettingError(variable, text) from None
    return text


def _url(*schemes: str) -> Callable[[Variable, str], str]:
    def read(variable: Variable, text: str) -> str:
        try:
            parts = urlsplit(text)
            parts.port  # noqa: B018  (raises for a port that is not a number)
        except ValueError:
            raise SettingError(variable, text) from None
        if parts.scheme not in schemes or not parts.hostname or " " in text:
            raise SettingError(variable, text)
        return text

    return read


def _choice(choices: tuple[str, ...], fold: Callable[[str], str]) -> Callable[[Variable, str], str]:
    def read(variable: Variable, text: str) -> str:
        for choice in choices:
            if fold(text) == fold(choice):
                return choice
        raise SettingError(variable, text)

    return read


def _language(variable: Variable, text: str) -> str:
    language = normalize_language(text)
    if language is None:
        raise SettingError(variable, text)
    return language


def _database(variable: Variable, text: str) -> str:
    try:
        return database_address(text)
    except ValueError:
        raise SettingError(variable, text) from None


def _masked_address(text: str) -> str:
    from storage.opening import masked_address

    return masked_urls(masked_address(text))  # mysql://u:pw@… refused, its password unshown


def _shards(variable: Variable, text: str) -> tuple[tuple[int, ...], int]:
    try:
        return read_shards(text)
    except ValueError:
        raise SettingError(variable, text) from None


def read_shards(text: str) -> tuple[tuple[int, ...], int]:
    """``DISCORD_SHARDS``: this process's shards of how many, ``0-1/4`` (shards 0 and 1 of
    4), ``2,3/4`` or ``3/4``; `ValueError` for anything else."""
    wanted, slash, total = text.partition("/")
    try:
        count = int(total)
        ids: set[int] = set()
        for part in wanted.split(","):
            first, dash, last = part.partition("-")
            ids.update(range(int(first), int(last if dash else first) + 1))
    except ValueError:
        ids, count = set(), 0
    if not slash or count < 1 or not ids or not all(0 <= i < count for i in ids):
        raise ValueError(f"{text}: not shards of how many")
    return tuple(sorted(ids)), count


def _public_url(variable: Variable, text: str) -> str:
    """``WEB_PUBLIC_URL``: HTTPS, as Telegram requires of a Mini App (http only on this
    machine's loopback, for trying it out)."""
    url = text.rstrip("/")
    try:
        parts = urlsplit(url)
    except ValueError:
        raise SettingError(variable, text) from None
    local = parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")
    if not (parts.scheme == "https" or local) or not parts.hostname or parts.query or " " in url:
        raise SettingError(variable, text)
    return url


def _cores_less_one() -> int:
    return max(1, usable_cores() - 1)


def _workers(variable: Variable, text: str) -> int:
    workers = int(text) if text.isascii() and text.isdigit() else -1
    if not 0 <= workers <= 1024:
        raise SettingError(variable, text)
    return workers


def _on_off(variable: Variable, text: str) -> bool:
    folded = text.lower()
    if folded not in ("on", "off"):
        raise SettingError(variable, text)
    return folded == "on"


def _font_files(variable: Variable, text: str) -> tuple[Path, ...]:
    paths = tuple(Path(part) for part in text.split(os.pathsep) if part)
    for path in paths:
        if not path.is_file():
            raise SettingError(variable, text, f"font files that exist ({path} does not)")
    return paths


# ----------------------------------------------------------------- the variables

_SEP = "; " if os.pathsep == ";" else ":"

VARIABLES: tuple[Variable, ...] = (
    Variable("TELEGRAM_BOT_TOKEN", "run the Telegram adapter", "unset (console)",
             "the token @BotFather gave, digits:letters",
             _pattern(r"\d+:[A-Za-z0-9_-]+"), secret=True),
    Variable("TELEGRAM_API_BASE_URL", "a self-hosted Bot API server, `http://host:port/bot`",
             "Telegram's", "an http:// or https:// address", _url("http", "https")),
    Variable("TELEGRAM_WEBHOOK_URL",
             "receive updates by webhook at this public URL (else long polling)", "unset",
             "an https:// address (Telegram posts only to HTTPS)", _url("https")),
    Variable("TELEGRAM_WEBHOOK_LISTEN", "where the webhook server listens", "`0.0.0.0`",
             "an address to listen on, like 0.0.0.0 or 127.0.0.1", _address, "0.0.0.0"),
    Variable("TELEGRAM_WEBHOOK_PORT", "the webhook server's port (path `/telegram`)", "`8443`",
             "a port number, 1 to 65535", _port, 8443),
    Variable("TELEGRAM_WEBHOOK_SECRET",
             "the `secret_token` Telegram must send with every update (the same in every "
             "process)", "random per start",
             "1 to 256 letters, digits, _ or -", _pattern(r"[A-Za-z0-9_-]{1,256}"),
             secret=True),
    Variable("TELEGRAM_MINI_APP",
             "the web table's Mini App short name (from @BotFather's `/newapp`); unset: the "
             "bot's main Mini App", "unset", "3 to 30 letters, digits and _, as @BotFather "
             "shows it", _pattern(r"[A-Za-z0-9_]{3,30}"), ""),
    Variable("TELEGRAM_CALLS_PER_SECOND",
             "the bot-wide send budget, by priority: private notices first, then group "
             "tables, then the rest", "`30`", "a number of calls a second, 1 to 1000",
             _number(1, 1000), 30.0),
    Variable("DISCORD_BOT_TOKEN", "run the Discord adapter", "unset",
             "the bot token from Discord's developer portal (no spaces)",
             _pattern(r"\S+"), secret=True),
    Variable("DISCORD_SHARDS", "this process's Discord shards of how many, e.g. `0-1/4`",
             "all shards", "which shards of how many, like 0-1/4 or 2,3/4", _shards),
    Variable("BOT_DB", "the SQLite file or a `postgresql://` address", "`./cardbot.sqlite3`",
             "a SQLite file path (or sqlite:PATH) or a postgresql://user:password@host/db "
             "address (or postgres://)", _database, "./cardbot.sqlite3", shown=_masked_address),
    Variable("BOT_LANG", "the default language", "`zh-Hans`",
             f"one of {', '.join(LANGUAGES)}", _language, DEFAULT_LANGUAGE),
    Variable("BOT_RETENTION_DAYS", "how many days the database keeps a closed table", "`30`",
             "a number of days, 0 to 36500", _number(0, 36_500), RETENTION_DAYS),
    Variable("BOT_AI_WORKERS",
             "processes making the `hard` AI seats' decisions (0: in the bot's own process)",
             "usable cores − 1 (CPU affinity and the cgroup's CPU quota)",
             "a number of processes, 0 to 1024", _workers),
    Variable("BOT_PROCESS_ID",
             "this process's name in the leases and logs (PostgreSQL, several processes)",
             "`host:pid`", "a name of letters, digits and . _ : @ - (up to 64)",
             _pattern(r"[\w.:@-]{1,64}")),
    Variable("BOT_PEER_URL",
             "where the other processes reach this one's webhook server, e.g. "
             "`http://10.0.0.5:8443`", "unset", "an http:// or https:// address",
             _url("http", "https")),
    Variable("BOT_LEASE_SECONDS", "how long a dead process's tables wait for a new owner",
             "`15`", "a number of seconds, 3 to 600", _number(3, 600), LEASE_SECONDS),
    Variable("BOT_TIMER_STEP", "how often the tables' timers are looked at (AI players' "
             "pauses, auto-play, turn time-outs): a table acts up to this late",
             "`0.2`", "a number of seconds, 0.01 to 1", _number(0.01, 1), TIMER_STEP),
    Variable("BOT_HEALTH_PORT", "serve `GET /healthz` (and `/metrics`) on this port",
             "unset (off)", "a port number, 1 to 65535", _port),
    Variable("BOT_HEALTH_LISTEN", "the address of the `/healthz` server", "`0.0.0.0`",
             "an address to listen on, like 0.0.0.0 or 127.0.0.1", _address, "0.0.0.0"),
    Variable("BOT_METRICS", "`on`: serve Prometheus figures at `/metrics` on `BOT_HEALTH_PORT`",
             "`off`", "on or off", _on_off, False),
    Variable("BOT_LOG_LEVEL", "the least severe log lines written", "`INFO`",
             f"one of {', '.join(LEVELS)}", _choice(LEVELS, str.upper), "INFO"),
    Variable("BOT_LOG_FORMAT", "`text`, or `json`: one JSON object a line", "`text`",
             "text or json", _choice(FORMATS, str.lower), "text"),
    Variable("WEB_PUBLIC_URL", "the web table's public base, as players' browsers reach it; "
             "unset: no web table", "unset",
             "an https:// address (http:// only for 127.0.0.1 or localhost)", _public_url),
    Variable("WEB_LISTEN", "where the web table's server listens", "`0.0.0.0`",
             "an address to listen on, like 0.0.0.0 or 127.0.0.1", _address, "0.0.0.0"),
    Variable("WEB_PORT", "the web table's port (never `BOT_HEALTH_PORT`: the checks have a "
             "listener of their own)", "`8081`", "a port number, 1 to 65535", _port, 8081),
    Variable("WEB_CONNECTIONS", "connections the web table holds at once (an open page holds "
             "one); past it the oldest idle one is closed, else the newcomer refused", "`1000`",
             "a number of connections, 10 to 50000", _number(10, 50_000), 1000.0),
    Variable("WEB_PER_ADDRESS", "connections one address may hold to the web table (behind a "
             "reverse proxy every page comes from the proxy: set it to `WEB_CONNECTIONS`)",
             "`16`", "a number of connections, 1 to 50000", _number(1, 50_000), 16.0),
    Variable("WEB_LINK_SECRET", "the key the web table's links are signed with (the same in "
             "every process behind one address)", "random per start",
             "at least 16 characters", _pattern(r".{16,}"), secret=True),
    Variable("WEB_LINK_SECONDS", "how long a signed web table link opens its page", "`3600`",
             "a number of seconds, 60 to 604800", _number(60, 7 * 86_400), 3600.0),
    Variable("WEB_INITDATA_MAX_AGE", "how long a Telegram Mini App's `initData` stays good",
             "`86400`", "a number of seconds, 60 to 604800", _number(60, 7 * 86_400), 86_400.0),
    Variable("CARDBOT_PICTURE_FONTS",
             f"more font files for pictures, tried after the bundled ones (`{_SEP}` between)",
             "unset", "font files that exist", _font_files, ()),
)  # fmt: skip
BY_NAME = {variable.name: variable for variable in VARIABLES}


# ----------------------------------------------------------------- the settings


@dataclass(frozen=True)
class Settings:
    """The values in effect, typed; `load` makes one."""

    values: Mapping[str, Any]
    given: frozenset[str]
    """The variables that were set (not empty)."""

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    @property
    def db(self) -> str:
        value: str = self.values["BOT_DB"]
        return value

    @property
    def lang(self) -> str:
        value: str = self.values["BOT_LANG"]
        return value

    @property
    def retention_seconds(self) -> float:
        days: float = self.values["BOT_RETENTION_DAYS"]
        return days * DAY

    @property
    def ai_workers(self) -> int:
        """``BOT_AI_WORKERS``, its default the cores this process may use less one (at least
        one): `usable_cores`."""
        value: int | None = self.values["BOT_AI_WORKERS"]
        return _cores_less_one() if value is None else value

    @property
    def secrets(self) -> list[str]:
        """The secrets' values, for the logs to mask (a token's secret half too)."""
        values = [str(self.values[v.name]) for v in VARIABLES if v.secret and self.values[v.name]]
        return [part for value in values for part in token_secrets(value)]

    def platforms(self) -> bool:
        return bool(self.values["TELEGRAM_BOT_TOKEN"] or self.values["DISCORD_BOT_TOKEN"])

    def described(self) -> list[str]:
        """``NAME=value`` a line, as ``python -m bot config`` prints them: secrets masked,
        a database password masked, defaults marked."""
        lines = []
        for variable in VARIABLES:
            value = self.values[variable.name]
            if variable.secret:
                text = "***" if value else ""
            elif isinstance(value, bool):
                text = "on" if value else "off"
            elif isinstance(value, tuple) and variable.name == "DISCORD_SHARDS":
                ids, count = value
                text = f"{','.join(map(str, ids))}/{count}"
            elif isinstance(value, tuple):
                text = os.pathsep.join(map(str, value))
            elif isinstance(value, float) and value.is_integer():
                text = str(int(value))
            elif variable.name == "BOT_AI_WORKERS":
                text = str(self.ai_workers)  # the default counted here: what is in effect
            else:
                text = variable.shown(str(value)) if value is not None else ""
            origin = "" if variable.name in self.given else f"  # default: {variable.default}"
            lines.append(f"{variable.name}={text}{origin}")
        return lines


def load(env: Mapping[str, str], **overrides: Any) -> Settings:
    """Every setting in ``env``, checked; `SettingError` for the first bad one. ``overrides``
    (a variable's name → its value, already read) take the place of the environment's."""
    values: dict[str, Any] = {}
    given = set()
    for variable in VARIABLES:
        if variable.name in overrides:
            values[variable.name] = overrides[variable.name]
            given.add(variable.name)
            continue
        text = env.get(variable.name, "").strip()
        if text:
            values[variable.name] = variable.read(variable, text)
            given.add(variable.name)
        else:
            values[variable.name] = variable.unset
    if values["BOT_METRICS"] and values["BOT_HEALTH_PORT"] is None:
        raise SettingError(
            BY_NAME["BOT_METRICS"],
            "on",
            "off, or set BOT_HEALTH_PORT too, where /metrics is served",
        )
    return Settings(values, frozenset(given))


def unknown_variables(env: Mapping[str, str]) -> list[str]:
    """A warning for each variable with one of our prefixes that is no setting."""
    warnings = []
    for name in sorted(env):
        if name.startswith(PREFIXES) and name not in BY_NAME and name not in NOT_SETTINGS:
            close = difflib.get_close_matches(name, list(BY_NAME), n=1, cutoff=0.75)
            hint = f" (did you mean {close[0]}?)" if close else ""
            warnings.append(f"{name} is not a setting{hint}; it is ignored")
    return warnings

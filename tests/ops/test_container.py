"""The container files, checked without Docker (this machine has its client but no daemon):
the Dockerfile read instruction by instruction, its health check run against a real
``/readyz``, and compose.yaml's two profiles read as YAML."""

from __future__ import annotations

import asyncio
import fnmatch
import json
import os
import re
import sys
import tomllib
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import pytest
import yaml

from adapters.health import Health
from adapters.platforms import start_health
from bot.ops.config import BY_NAME, load
from tests.pg_server import free_port

ROOT = Path(__file__).parents[2]
Instruction = tuple[str, str]


def instructions() -> list[Instruction]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    found, pending = [], ""
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        whole = (pending + line).strip()
        pending = ""
        word, _, rest = whole.partition(" ")
        found.append((word.upper(), rest.strip()))
    assert not pending
    return found


def stages() -> list[list[Instruction]]:
    found: list[list[Instruction]] = []
    for instruction in instructions():
        if instruction[0] == "FROM":
            found.append([])
        found[-1].append(instruction)
    return found


def only(stage: list[Instruction], word: str) -> str:
    matching = [rest for name, rest in stage if name == word]
    assert len(matching) == 1, (word, matching)
    return matching[0]


def ignored(path: str) -> bool:
    """Whether .dockerignore leaves ``path`` out of the build context (last match wins)."""
    verdict = False
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        pattern = line.strip()
        if not pattern or pattern.startswith("#"):
            continue
        keep = pattern.startswith("!")
        pattern = pattern.lstrip("!").rstrip("/")
        if fnmatch.fnmatch(path, pattern) or path.startswith(pattern + "/"):
            verdict = not keep
    return verdict


PINNED_BASE = re.compile(r"python:3\.11-slim@sha256:[0-9a-f]{64}")


def test_two_slim_python_stages_built_from_the_pinned_versions():
    build, final = stages()
    base, _, name = only(build, "FROM").partition(" AS ")
    assert PINNED_BASE.fullmatch(base) and name == "build"
    assert only(final, "FROM") == base  # one base image, pinned by its digest, in both
    assert "imagetools inspect python:3.11-slim" in (ROOT / "Dockerfile").read_text()
    copied = [rest.split()[:-1] for name, rest in build if name == "COPY"]
    for sources in copied:
        for source in sources:
            assert (ROOT / source).exists(), source
            assert not ignored(source), f"{source} is left out by .dockerignore"
    assert {"engine", "bot", "adapters", "storage", "constraints.txt"} <= {
        source for sources in copied for source in sources
    }
    wheel = only(build, "RUN")
    assert "pip wheel" in wheel and "--constraint constraints.txt" in wheel
    assert ignored("tests") and ignored("bench") and ignored(".git") and ignored("x.sqlite3")


def test_the_image_runs_the_console_script_as_a_user_with_its_data_in_a_volume():
    final = stages()[1]
    names = [name for name, _ in final]
    user = only(final, "USER")
    assert user not in ("root", "0")
    assert names.index("USER") > max(i for i, name in enumerate(names) if name == "RUN")
    assert "useradd" in final[names.index("RUN")][1] and user in final[names.index("RUN")][1]
    assert json.loads(only(final, "VOLUME")) == ["/data"]
    env = dict(re.findall(r"(\w+)=(\S+)", only(final, "ENV")))
    assert env["BOT_DB"].startswith("/data/")
    assert env["BOT_HEALTH_PORT"] in only(final, "EXPOSE").split()
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert json.loads(only(final, "ENTRYPOINT")) == ["cardbot"] and "cardbot" in scripts
    assert only(final, "STOPSIGNAL") == "SIGTERM"


def health_check_command() -> list[str]:
    check = only(stages()[1], "HEALTHCHECK")
    options, _, command = check.partition(" CMD ")
    assert "--interval=" in options and "--start-period=" in options
    parsed: list[str] = json.loads(command)
    return parsed


class Store:
    def __init__(self) -> None:
        self.down = False

    async def schema_version(self) -> int:
        if self.down:
            raise OSError("gone")
        return 5


async def test_the_health_check_passes_while_readyz_says_200_and_fails_otherwise():
    command = health_check_command()
    assert command[0] == "python"
    port = free_port()
    store = Store()
    health = Health(SimpleNamespace(table_count=lambda: 0), store)  # type: ignore[arg-type]
    env = {"BOT_HEALTH_PORT": str(port), "BOT_HEALTH_LISTEN": "127.0.0.1"}
    runner = await start_health(load(env), health)
    assert runner is not None
    env = {**os.environ, "BOT_HEALTH_PORT": str(port)}

    async def check() -> int:
        done = await asyncio.create_subprocess_exec(sys.executable, *command[1:], env=env)
        return await done.wait()

    try:
        assert await check() != 0  # 503: the adapters have not started yet
        health.ready = True
        assert await check() == 0
        store.down = True
        assert await check() != 0  # 503
    finally:
        await runner.cleanup()
    assert await check() != 0  # nothing listening


# ----------------------------------------------------------------- compose.yaml


@pytest.fixture(scope="module")
def compose() -> dict:
    loaded: dict = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return loaded


def services_of(compose: dict, profile: str) -> dict[str, dict]:
    return {name: s for name, s in compose["services"].items() if profile in s["profiles"]}


def test_every_service_logs_with_rotation_and_the_bots_run_under_an_init(compose: dict):
    for name, service in compose["services"].items():
        logging = service["logging"]
        assert logging["driver"] == "json-file", name
        assert logging["options"]["max-size"] and int(logging["options"]["max-file"]) >= 2
        if service.get("build") == ".":
            assert service["init"] is True, name


def test_the_proxy_waits_for_the_bots_to_be_healthy(compose: dict):
    proxy = compose["services"]["proxy"]
    assert proxy["depends_on"] == {
        "bot-1": {"condition": "service_healthy"},
        "bot-2": {"condition": "service_healthy"},
    }
    assert any(name == "HEALTHCHECK" for name, _ in stages()[1])  # what makes them healthy


def test_the_compose_version_needed_is_named():
    """env_file's long form (``path``, ``required``) needs Docker Compose 2.24."""
    text = (ROOT / "compose.yaml").read_text()
    assert "required: false" in text
    assert "Docker Compose 2.24 or later" in text
    assert "Docker Compose 2.24 or later" in (ROOT / "docs" / "operations.md").read_text()


def test_every_service_belongs_to_one_of_two_profiles(compose: dict):
    profiles = {name: s["profiles"] for name, s in compose["services"].items()}
    assert profiles == {
        "bot": ["single"],
        "postgres": ["cluster"],
        "bot-1": ["cluster"],
        "bot-2": ["cluster"],
        "proxy": ["cluster"],
    }


def test_single_is_one_process_on_sqlite_in_a_volume(compose: dict):
    (bot,) = services_of(compose, "single").values()
    assert bot["build"] == "." and bot["restart"] == "unless-stopped"
    volume, _, mount = bot["volumes"][0].partition(":")
    assert volume in compose["volumes"] and mount == "/data"
    assert bot["environment"]["BOT_DB"].startswith("/data/")


def test_cluster_is_two_processes_on_postgres_behind_the_webhook(compose: dict):
    services = services_of(compose, "cluster")
    bots = {name: s for name, s in services.items() if s.get("build") == "."}
    assert set(bots) == {"bot-1", "bot-2"}
    envs = [bot["environment"] for bot in bots.values()]
    for name, bot in bots.items():
        assert bot["restart"] == "unless-stopped"
        assert bot["depends_on"]["postgres"]["condition"] == "service_healthy"
        env = bot["environment"]
        assert urlsplit(env["BOT_DB"]).hostname == "postgres"
        peer = urlsplit(env["BOT_PEER_URL"])
        assert (peer.hostname, str(peer.port)) == (name, env["TELEGRAM_WEBHOOK_PORT"])
    for shared in ("BOT_DB", "TELEGRAM_WEBHOOK_URL", "TELEGRAM_WEBHOOK_SECRET"):
        assert envs[0][shared] == envs[1][shared]
    assert envs[0]["BOT_PROCESS_ID"] != envs[1]["BOT_PROCESS_ID"]
    assert "pg_isready" in services["postgres"]["healthcheck"]["test"]
    assert services["postgres"]["image"].startswith("postgres:")


def test_the_proxy_sends_the_webhook_path_to_each_process(compose: dict):
    proxy = services_of(compose, "cluster")["proxy"]
    source, _, target = proxy["volumes"][0].partition(":")
    assert target.startswith("/etc/caddy/Caddyfile")
    caddyfile = (ROOT / source).read_text()
    bot = compose["services"]["bot-1"]["environment"]
    path = "/" + bot["TELEGRAM_WEBHOOK_URL"].rsplit("/", 1)[1]  # its host is interpolated
    assert path == "/telegram"
    assert f"handle {path} {{" in caddyfile
    upstreams = re.search(r"reverse_proxy ([^{]+)\{", caddyfile)
    assert upstreams is not None
    assert upstreams.group(1).split() == [
        f"{name}:{compose['services'][name]['environment']['TELEGRAM_WEBHOOK_PORT']}"
        for name in ("bot-1", "bot-2")
    ]
    assert {"80:80", "443:443"} <= set(proxy["ports"])


def test_every_variable_the_bots_get_is_a_setting(compose: dict):
    for name, service in compose["services"].items():
        if service.get("build") != ".":
            continue
        for variable in service["environment"]:
            assert variable in BY_NAME, (name, variable)
    final = stages()[1]
    for variable in re.findall(r"(\w+)=", only(final, "ENV")):
        assert variable in BY_NAME or variable == "PYTHONUNBUFFERED", variable
    header = "".join(
        line for line in (ROOT / "compose.yaml").read_text().splitlines() if line.startswith("#")
    )
    for used in set(re.findall(r"\$\{(\w+)", (ROOT / "compose.yaml").read_text())):
        assert used in header, f"{used} is not named in compose.yaml's opening comment"


def test_the_web_table_is_public_on_every_process_and_health_and_metrics_are_not(compose: dict):
    """Issue 50 item 2: the proxy sends the page, its WebSocket and API, its files and the
    replay to both processes' web table ports; the image's web port is not its health port
    (where /metrics is); compose gives both profiles WEB_PUBLIC_URL from one variable."""
    env = dict(re.findall(r"(\w+)=(\S+)", only(stages()[1], "ENV")))
    web, health = env["WEB_PORT"], env["BOT_HEALTH_PORT"]
    assert web != health and web in only(stages()[1], "EXPOSE").split()
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    matcher = re.search(r"@web path ([^\n]+)", caddyfile)
    assert matcher is not None
    assert matcher.group(1).split() == ["/table", "/table/*", "/web/*", "/replay", "/replay/*"]
    block = caddyfile[caddyfile.index("handle @web {") :]
    upstreams = re.search(r"reverse_proxy ([^{]+)\{", block)
    assert upstreams is not None and upstreams.group(1).split() == [f"bot-1:{web}", f"bot-2:{web}"]
    assert f"health_port {health}" in block and "health_uri /readyz" in block
    handled = re.findall(r"^\s*(?:handle|@\w+ path) ([^{\n]*)", caddyfile, re.MULTILINE)
    public = " ".join(handled)
    assert "/metrics" not in public and "/healthz" not in public and "/forwarded" not in public
    for name in ("bot", "bot-1", "bot-2"):
        service = compose["services"][name]
        assert service["environment"]["WEB_PUBLIC_URL"] == "${WEB_PUBLIC_URL:-}", name
        for published in service.get("ports", []):
            assert published.rsplit(":", 1)[-1] == web, (name, published)
    cluster = [compose["services"][name]["environment"] for name in ("bot-1", "bot-2")]
    assert cluster[0]["WEB_LINK_SECRET"] == cluster[1]["WEB_LINK_SECRET"]

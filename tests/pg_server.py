"""A real, throwaway PostgreSQL server for tests and benchmarks.

``initdb`` into a temporary directory, ``postgres`` on a free port of 127.0.0.1 only (its unix
socket inside that directory), databases made with ``createdb``; stopped and removed on exit.
PostgreSQL refuses to run as root, so as root the server runs as an unprivileged user
(``postgres``, the user Debian's package creates; ``CARDBOT_PG_USER`` names another) that owns
the directory. Missing binaries are an error, never a skip: the storage tests must run.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

SUPERUSER = "cardbot"
START_TIMEOUT = 30.0
INSTALL_HINT = (
    "PostgreSQL's server binaries (initdb, postgres, pg_ctl) were not found in "
    "/usr/lib/postgresql/*/bin or on PATH; install them with "
    "`apt-get update && apt-get install -y postgresql` (.ci/run does this)."
)


class PostgresNotAvailable(RuntimeError):
    pass


def server_binaries() -> Path:
    """The newest installed PostgreSQL's bin directory."""
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if found:
        newest = max(found, key=lambda path: int(Path(path).parent.parent.name))
        return Path(newest).parent
    on_path = shutil.which("initdb")
    if on_path and shutil.which("postgres"):
        return Path(on_path).resolve().parent
    raise PostgresNotAvailable(INSTALL_HINT)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def unprivileged_account() -> pwd.struct_passwd | None:
    """The user to run the server as when we are root (None when we are not)."""
    if os.geteuid() != 0:
        return None
    name = os.environ.get("CARDBOT_PG_USER", "postgres")
    try:
        return pwd.getpwnam(name)
    except KeyError:
        raise PostgresNotAvailable(
            f"running as root, PostgreSQL needs an unprivileged user and {name!r} does not"
            " exist (installing the postgresql package creates 'postgres'; or set"
            " CARDBOT_PG_USER)"
        ) from None


class PostgresServer:
    """One running server; ``database()`` makes a fresh database and returns its address."""

    def __init__(self, settings: dict[str, str] | None = None) -> None:
        self.binaries = server_binaries()
        self.settings = settings or {}
        self.port = free_port()
        account = unprivileged_account()
        # Not under pytest's tmp_path: that is private to root, and the server user must reach it.
        self.root = Path(tempfile.mkdtemp(prefix="cardbot-pg-"))
        self.data = self.root / "data"
        self.log = self.root / "server.log"
        self._as_user: dict[str, Any] = {}
        if account is not None:
            os.chown(self.root, account.pw_uid, account.pw_gid)
            self._as_user = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []}
        self._process: subprocess.Popen[bytes] | None = None

    def _run(self, *command: str) -> None:
        done = subprocess.run(
            [str(self.binaries / command[0]), *command[1:]],
            capture_output=True,
            text=True,
            cwd=self.root,
            timeout=120,
            **self._as_user,
        )
        if done.returncode != 0:
            raise PostgresNotAvailable(f"{command[0]} failed: {done.stderr or done.stdout}")

    def start(self) -> None:
        try:
            self._start()
        except BaseException:
            self.stop()  # nothing left running or on disk
            raise

    def _start(self) -> None:
        self._run(
            "initdb", "-D", str(self.data), "-U", SUPERUSER, "--auth=trust",
            "--encoding=UTF8", "--locale=C", "--no-sync", "--no-instructions",
        )  # fmt: skip
        options = {
            "listen_addresses": "127.0.0.1",
            "port": str(self.port),
            "unix_socket_directories": str(self.root),
            **self.settings,
        }
        command = [str(self.binaries / "postgres"), "-D", str(self.data)]
        for name, value in options.items():
            command += ["-c", f"{name}={value}"]
        with open(self.log, "wb") as log:
            self._process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, cwd=self.root, **self._as_user
            )
        self._wait_until_ready()

    def _wait_until_ready(self) -> None:
        assert self._process is not None
        ready = str(self.binaries / "pg_isready")
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise PostgresNotAvailable(f"postgres exited at start:\n{self.log.read_text()}")
            probe = [ready, "-q", "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER]
            if subprocess.run(probe, check=False).returncode == 0:
                return
            time.sleep(0.05)
        raise PostgresNotAvailable(f"postgres was not ready after {START_TIMEOUT} s")

    def address(self, database: str) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def database(self, name: str | None = None) -> str:
        """Create a new empty database; returns its ``postgresql://`` address."""
        name = name or f"test_{uuid.uuid4().hex[:12]}"
        self._run("createdb", "-h", "127.0.0.1", "-p", str(self.port), "-U", SUPERUSER, name)
        return self.address(name)

    def stop(self) -> None:
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGINT)  # "fast" shutdown: ends the sessions
            try:
                self._process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        shutil.rmtree(self.root, ignore_errors=True)


@contextmanager
def running_server(settings: dict[str, str] | None = None) -> Iterator[PostgresServer]:
    server = PostgresServer(settings)
    try:
        server.start()
        yield server
    finally:
        server.stop()


FAST_FOR_TESTS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
"""Settings that make a test server quick; it is thrown away, so it need not survive a crash."""

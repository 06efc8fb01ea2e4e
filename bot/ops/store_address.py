"""Reading a database address (``BOT_DB``, ``--db``): the store's own forms, and another
scheme refused at start rather than opened as a file of that name."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

DATABASE_SCHEMES = ("postgresql://", "postgres://", "sqlite:")
"""The addresses ``BOT_DB`` (and ``--db``) may have beside a plain SQLite file path."""
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+:")
"""The start of an address with a scheme (one letter before ``:`` is a Windows drive)."""


def database_address(text: str) -> str:
    """A database address as the store opens it: ``postgresql://…`` or ``postgres://…`` as
    it is; ``sqlite:PATH`` (``sqlite:/abs``, ``sqlite:///abs``, ``sqlite:rel``) as the file
    path; a plain path as it is. `ValueError` for another scheme (``mysql://…``), so that it
    is refused at start rather than opened as a file of that name."""
    # Imported here: storage's back ends are not needed to read a setting.
    from storage.opening import is_postgres_address

    if is_postgres_address(text):
        try:
            urlsplit(text).port  # noqa: B018  (postgresql:///db, a local socket, is fine)
        except ValueError:
            raise ValueError("not an address: its port is not a number") from None
        return text
    if text.lower().startswith("sqlite:"):
        path = text[len("sqlite:") :]
        path = "/" + path.lstrip("/") if path.startswith("//") else path
        if not path:
            raise ValueError("sqlite: names no file")
        text = path
    elif _SCHEME.match(text) and "://" in text:
        raise ValueError(f"{text.partition(':')[0]}: is not a database the bot keeps")
    if Path(text).is_dir():
        raise ValueError("a folder, not a file")
    return text

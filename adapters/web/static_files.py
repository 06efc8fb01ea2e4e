"""The web table's own files (the page, its script and styles, the replay page) read once at start,
with the headers every answer carries: no cache, no referrer, a strict content policy."""

from __future__ import annotations

from importlib import resources

STATIC = {
    "table.html": "text/html",
    "replay.html": "text/html",
    "table.css": "text/css",
    "table.js": "text/javascript",
    "cards.js": "text/javascript",
    "replay.js": "text/javascript",
}


HEADERS = {
    "Cache-Control": "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'none'",
}


def static_files() -> dict[str, bytes]:
    folder = resources.files("adapters.web") / "static"
    return {name: (folder / name).read_bytes() for name in STATIC}

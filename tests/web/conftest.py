"""One real headless Chromium for the whole session, driven by Playwright with the system's
browser (Debian's ``chromium``; Playwright's own download cannot be fetched here). Where
none is installed the browser tests say so and are skipped — except under CI (``CI=true``),
where a missing browser fails them, so CI never passes without them."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from typing import Any

import pytest
import pytest_asyncio

from tests.storage.conftest import postgres_server
from tests.web.glyphs import no_cjk_fonts

__all__ = ["bare_browser", "browser", "postgres_server"]

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update",
        "--disable-sync"]  # fmt: skip
"""Without the networking flags Chromium keeps trying the outside, refused here."""


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    path = chromium_path()
    try:
        from playwright.async_api import async_playwright
    except ImportError:
        path = None
    if path is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no Chromium (or no playwright) under CI: the browser tests must run")
        pytest.skip(
            "no Chromium installed: the browser tests are skipped (apt-get install chromium)"
        )
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, args=ARGS)
        yield launched
        await launched.close()


@pytest_asyncio.fixture(scope="module", loop_scope="session")
async def bare_browser(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Any]:
    """A Chromium of its own, seeing no CJK font (``browser`` first: it says whether one
    is installed, and skips or fails as the other browser tests do): the pages' own font
    must draw every Chinese character (`tests.web.glyphs`)."""
    from playwright.async_api import async_playwright

    env = no_cjk_fonts(tmp_path_factory.mktemp("fonts"))
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=chromium_path(), args=ARGS, env=env
        )
        yield launched
        await launched.close()

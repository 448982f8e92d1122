"""Debian's Chromium for the browser tests, launched the way this kind of machine needs.

With ``CI=true`` a missing browser is a failure with a clear message, never a skip.
Elsewhere the browser tests skip, saying how to install it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]


def chromium_path() -> str:
    """Path of the Chromium binary, or fail (CI) / skip (elsewhere) with what to do."""
    found = os.environ.get("EMBEDLAB_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if found and os.access(found, os.X_OK):
        return found
    message = (
        "Chromium not found: the browser tests need Debian's chromium "
        "(`make test` installs it as root with apt-get; or `sudo apt-get install chromium fonts-dejavu-core`, "
        "or set EMBEDLAB_CHROMIUM to a Chromium binary)"
    )
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(message, pytrace=False)
    pytest.skip(message)


@contextmanager
def launch_chromium() -> Iterator[Any]:
    """A headless Chromium with a fresh profile, closed on exit."""
    from playwright.sync_api import sync_playwright

    path = chromium_path()
    with tempfile.TemporaryDirectory(prefix="embedlab-chromium-") as profile, sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            profile,
            executable_path=path,
            headless=True,
            args=CHROMIUM_ARGS,
            viewport={"width": 1280, "height": 900},
        )
        try:
            yield context
        finally:
            context.close()


def site_pages(site: Path) -> list[str]:
    """Every HTML page of the site, relative to its root (the search page and index included)."""
    pages = [p.relative_to(site).as_posix() for p in site.rglob("*.html")]
    return sorted(p for p in pages if not p.startswith(("_static/", "_sources/", "_images/")))


class PageWatch:
    """A page with the network blocked beyond our server, recording errors and blocked requests."""

    def __init__(self, context: Any, base: str) -> None:
        self.page = context.new_page()
        self.base = base
        self.errors: list[str] = []
        self.blocked: list[str] = []
        self.page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))
        self.page.on("console", self._console)
        self.page.on("requestfailed", lambda req: self.errors.append(f"request failed: {req.url}"))
        self.page.route("**/*", self._route)

    def _console(self, msg: Any) -> None:
        if msg.type == "error":
            self.errors.append(f"console {msg.type}: {msg.text}")

    def _route(self, route: Any) -> None:
        url = route.request.url
        if url.startswith(self.base) or url.startswith("data:"):
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def open(self, path: str) -> Any:
        response = self.page.goto(f"{self.base}/{path}", wait_until="networkidle")
        assert response is not None and response.ok, f"{path}: HTTP {response.status if response else 'no response'}"
        self.page.evaluate("document.fonts.ready.then(() => true)")
        # MathJax typesets after load: wait for it when the page has math.
        self.page.wait_for_function(
            "!document.querySelector('.math') || document.querySelector('mjx-container') !== null", timeout=15000
        )
        return self.page

    def close(self) -> None:
        self.page.close()

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

"""Fixtures shared by the browser tests: one Chromium, the built book and its local server."""

from __future__ import annotations

import functools
import http.server
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser import PageWatch, launch_chromium

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"


@pytest.fixture
def no_pyplot(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test never calls plt.show() and leaves no figure registered with pyplot."""
    import matplotlib.pyplot as plt

    def no_show(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("plt.show() called")

    monkeypatch.setattr(plt, "show", no_show)
    before = plt.get_fignums()
    yield
    assert plt.get_fignums() == before


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the whole session: Playwright's sync API allows one at a time."""
    with launch_chromium() as context:
        yield context


@pytest.fixture(scope="session")
def site() -> Path:
    """Build the book, as `make book` does, and fail on any warning or error."""
    jb = Path(sys.executable).with_name("jupyter-book")
    result = subprocess.run(
        [str(jb), "build", "-W", "-n", "--keep-going", str(ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    log = result.stdout + result.stderr
    assert result.returncode == 0, f"jupyter-book build failed:\n{log[-4000:]}"
    assert not re.search(r"\b(WARNING|ERROR|CRITICAL): ", log), f"the build printed warnings or errors:\n{log[-4000:]}"
    return SITE


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[str]:
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_port}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def watch(chromium: Any, server: str) -> Iterator[PageWatch]:
    """A fresh page of the session's Chromium, network blocked beyond the local server."""
    w = PageWatch(chromium, server)
    yield w
    w.close()

"""Fixtures shared by the browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser import launch_chromium


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """One headless Chromium for the whole session: Playwright's sync API allows one at a time."""
    with launch_chromium() as context:
        yield context

"""Shared by the unit tests, the doctests in src/ and the browser tests."""

import os

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")  # no display here or in CI


@pytest.fixture(autouse=True)
def _doctest_namespace(doctest_namespace: dict) -> None:
    doctest_namespace["np"] = np


def pytest_report_header(config: pytest.Config) -> str:
    return f"embedlab: CI={os.environ.get('CI', '')!r}"

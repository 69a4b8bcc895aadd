"""Shared fixtures for the card-game tests; long random runs only with ``--soak``."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    soak = bool(config.getoption("soak", default=False)) or bool(os.environ.get("EUPHRATES_SOAK"))
    if soak:
        return
    skip = pytest.mark.skip(reason="soak run: enable with --soak")
    for item in items:
        if "soak" in item.keywords and item.path.is_relative_to(os.path.dirname(__file__)):
            item.add_marker(skip)

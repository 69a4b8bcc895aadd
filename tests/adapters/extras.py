"""The optional extras the adapters' tests need (pyproject's `openspiel`, `pettingzoo`).

`make setup` installs them. Without them a test module is skipped with the reason,
except under CI=true, where a missing extra fails the run: CI must test the adapters.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def need(module: str, extra: str) -> ModuleType:
    """Import `module`, or skip (fail in CI) the calling test module without it."""
    try:
        return importlib.import_module(module)
    except ImportError as e:
        why = f"{module} is not installed ({e}); pip install -e '.[{extra}]'"
        if IN_CI:
            pytest.fail(f"CI=true needs the {extra} extra: {why}", pytrace=False)
        pytest.skip(why, allow_module_level=True)

"""Lint, format and strict typing are part of the test suite."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    path = BIN / name
    if path.exists():
        return str(path)
    found = shutil.which(name)
    if found is None:
        pytest.fail(f"{name} is not installed; install the dev extras: pip install -e '.[dev]'")
    return found


def _run(*cmd: str) -> None:
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_check() -> None:
    _run(_tool("ruff"), "check", "src", "tests")


def test_ruff_format() -> None:
    _run(_tool("ruff"), "format", "--check", "src", "tests")


def test_mypy_strict() -> None:
    # The tests are typed as strictly as the code: a test that mistakes a type checks
    # nothing it means to.
    _run(_tool("mypy"), "--strict", "src/euphrates", "tests")

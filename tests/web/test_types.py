"""The browser code's JSDoc types, checked by the pinned TypeScript (`tsc --noEmit`,
strict, checkJs), and the two languages' texts having the same keys."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.web.conftest import IN_CI

ROOT = Path(__file__).resolve().parents[2]


def test_typescript_pinned_exactly() -> None:
    package = json.loads((ROOT / "package.json").read_text())
    version = package["devDependencies"]["typescript"]
    assert re.fullmatch(r"\d+\.\d+\.\d+", version), (
        f"typescript must be pinned exactly, not {version}"
    )
    lock = json.loads((ROOT / "package-lock.json").read_text())
    assert lock["packages"]["node_modules/typescript"]["version"] == version


def test_types_check() -> None:
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    if not tsc.exists() or shutil.which("node") is None:
        reason = "node_modules is missing: run `npm ci` to check the browser code's types"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)
    # the pages' code, and the service worker's with a worker's globals instead of a page's
    for config in ("tsconfig.json", "tsconfig.worker.json"):
        result = subprocess.run(
            [str(tsc), "-p", config], cwd=ROOT, capture_output=True, text=True, timeout=300
        )
        assert result.returncode == 0, config + result.stdout + result.stderr

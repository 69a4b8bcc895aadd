"""A release as `make dist` makes it (`make release`, its steps without the set-up), built
once a test session into a temporary folder for the tests that install it
(tests/test_package.py, tests/test_club_guide.py: one xdist group, tests/scheduling.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def make_release(out: Path) -> None:
    """`make release` into `out`, with this environment's tools; the compiled wheel at the
    C compiler's -O1 (the code mypyc generates for a release, in a fraction of the time)."""
    env = {**os.environ, "MYPYC_OPT_LEVEL": "1"}
    done = subprocess.run(
        ["make", "-s", "release", f"DIST={out}", f"BIN={Path(sys.executable).parent}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=2400,
        env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def wheel_of(dist: Path, pure: bool = False) -> Path:
    (wheel,) = (dist / ("pure" if pure else "manylinux")).glob("euphrates-*.whl")
    return wheel

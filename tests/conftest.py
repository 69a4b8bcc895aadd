"""Test options: `--soak` runs the long soak tests marked `soak`.

Passwords are hashed with cheap Argon2id parameters in tests: the production cost
(64 MiB, three passes, four lanes) is about 0.2 s of CPU a hash on purpose, and every
server a test starts makes one (its dummy hash) before any sign-up or log-in makes
more. The test marked `production_argon2` keeps the production hasher and checks its
cost; every other checks the same code with a hasher that is merely fast.

Servers review the games that end on them at the quick depth (bots/review.py): every
game a test ends is reviewed in the background, at the full depth a minute of a core
each. The review's own tests (tests/bots/test_review.py) judge at the full depth.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from tests import scheduling


def cheap_hasher() -> PasswordHasher:
    """The least cost argon2-cffi accepts: still Argon2id, still salted, still checked."""
    return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--soak", action="store_true", help="run the long soak tests too")


def pytest_configure(config: pytest.Config) -> None:
    from euphrates.server.common import config as server_config

    server_config.REVIEW_DEPTH = "quick"
    config.addinivalue_line(
        "markers", "production_argon2: hash passwords at the production cost in this test"
    )


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    if config.getvalue("dist") != "loadgroup":
        return None
    return scheduling.scheduler(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    scheduling.order(items)
    if config.getoption("--soak"):
        return
    skip = pytest.mark.skip(reason="soak test: run with --soak")
    for item in items:
        if "soak" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def cheap_password_hashes(request: pytest.FixtureRequest) -> Iterator[None]:
    if "production_argon2" in request.keywords:
        yield
        return
    from euphrates.server.features.accounts import passwords

    saved = passwords._hasher, passwords._dummy
    passwords._hasher = cheap_hasher()
    passwords._dummy = None  # made again with the hasher in use, as a server start does
    try:
        yield
    finally:
        passwords._hasher, passwords._dummy = saved


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The release's three files (tests/release.py), built once a session."""
    from tests.release import make_release

    out = tmp_path_factory.mktemp("dist") / "dist"
    make_release(out)
    yield out

"""Server tests run on SQLite and, when it answers (always under CI=true), PostgreSQL."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from euphrates.server.common.config import Settings
from tests.server.harness import (
    Api,
    create_pg_database,
    drop_pg_database,
    migrated_sqlite,
    pg_reachable,
    running_server,
)


@pytest.fixture(scope="session")
def pg_url(worker_id: str) -> Iterator[str]:
    why = pg_reachable()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true needs PostgreSQL: {why}")
        pytest.skip(f"skipped: {why}")
    name = f"euphrates_test_{worker_id}_{os.getpid()}"
    url = create_pg_database(name)
    yield url
    drop_pg_database(name)


def sqlite_url(directory: Path) -> str:
    return f"sqlite:///{directory}/games.db"


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A migrated SQLite file, made once a test process (`harness.migrated_sqlite`)."""
    path = tmp_path_factory.mktemp("template") / "games.db"
    migrated_sqlite(path)
    return path


def migrated_sqlite_url(request: pytest.FixtureRequest, directory: Path) -> str:
    """`sqlite_url(directory)`, its file a copy of the migrated template."""
    template: Path = request.getfixturevalue("sqlite_template")
    shutil.copyfile(template, directory / "games.db")
    return sqlite_url(directory)


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "postgresql":
        return str(request.getfixturevalue("pg_url"))
    return migrated_sqlite_url(request, tmp_path)


@pytest.fixture(params=["sqlite", "postgresql"])
def own_db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """As `db_url`, but on PostgreSQL a database of this test's own: for tests that
    count what every server on the database does (bot requests, reviews), which games
    other tests left in a shared database would add to."""
    if request.param == "sqlite":
        yield migrated_sqlite_url(request, tmp_path)
        return
    request.getfixturevalue("pg_url")  # skips or fails as the shared one does
    name = f"euphrates_own_{os.getpid()}_{abs(hash(request.node.nodeid)) % 10**9}"
    yield create_pg_database(name)
    drop_pg_database(name)


@pytest.fixture
def base(db_url: str) -> Iterator[str]:
    """A running server without bots (tests of seats, versions and errors); its rate
    limits are lifted, since tests play far faster than people."""
    settings = Settings(db_url=db_url, bot_workers=0, bot_pace=0, rate_per_s=5000, rate_burst=5000)
    with running_server(settings) as url:
        yield url


@pytest.fixture
def strict_base(db_url: str) -> Iterator[str]:
    """A running server with the default limits."""
    with running_server(Settings(db_url=db_url, bot_workers=0, bot_pace=0)) as url:
        yield url


@pytest.fixture
def limited_base(db_url: str) -> Iterator[str]:
    """A running server allowing one address 10 requests a second (20 at once): a client
    reaches the limit however slowly a loaded machine answers it (at the default 100 a
    second, one that takes 12 ms a request never would)."""
    settings = Settings(db_url=db_url, bot_workers=0, bot_pace=0, requests_per_s=10)
    with running_server(settings) as url:
        yield url


@pytest.fixture
def api(base: str) -> Iterator[Api]:
    a = Api(base)
    yield a
    a.http.close()

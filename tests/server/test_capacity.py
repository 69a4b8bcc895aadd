"""What one client address can cost the server, and what stored games cost it.

Games created, chat lines and connections are limited per address (the socket's peer,
or what a trusted proxy says); a waiting game nobody joined expires; rooms are loaded
when used and leave memory when idle; a restarted server reads only the games where a
bot must move now, not every stored game.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from euphrates.server.common.config import Settings
from euphrates.server.game.rooms import IDLE_ROOM
from euphrates.server.serve import spawn
from tests.server.harness import Api, Client, run_async, running_app


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == code, err
    return err


@pytest.fixture
def limited(db_url: str) -> Iterator[tuple[str, Any]]:
    settings = Settings(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0,
        games_per_hour=3,
        chat_lines=4,
        max_connections_per_address=3,
        trusted_proxies=["127.0.0.2"],
    )
    with running_app(settings) as served:
        yield served


def test_games_an_address_may_create(limited: tuple[str, Any]) -> None:
    url, _app = limited
    api = Api(url)
    for _ in range(3):
        api.create()
    r = api.http.post(
        "/api/games", json={"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2}
    )
    err = _error(r, 429, "rate_limited")
    assert "an hour" in err["message"]


def test_chat_lines_a_game_keeps(limited: tuple[str, Any]) -> None:
    url, _app = limited
    api = Api(url)
    gid = api.create()["id"]
    for i in range(4):
        assert api.call("POST", f"/api/games/{gid}/chat", None, {"text": f"line {i}"}).is_success
    _error(api.call("POST", f"/api/games/{gid}/chat", None, {"text": "one more"}), 409, "chat_full")
    assert len(api.call("GET", f"/api/games/{gid}/chat").json()["messages"]) == 4


def test_connections_an_address_may_hold(limited: tuple[str, Any]) -> None:
    url, app = limited
    gid = Api(url).create()["id"]
    held = [Client(url, gid, []) for _ in range(3)]
    with pytest.raises(InvalidStatus) as refused:
        Client(url, gid, [])
    assert refused.value.response.status_code == 429
    held.pop().close()
    deadline = time.monotonic() + 10
    while app.state.services.connections.get("127.0.0.1", 0) >= 3:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    Client(url, gid, []).close()


def test_a_trusted_proxy_names_the_client_and_no_one_else_does(
    limited: tuple[str, Any],
) -> None:
    """Only 127.0.0.2 is a trusted proxy: the clients it names get a budget each;
    what 127.0.0.1 says about itself changes nothing."""
    url, _app = limited
    body = {"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2}
    port = urlsplit(url).port
    proxied = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", transport=proxied) as proxy:
        for client in ("198.51.100.1", "198.51.100.2"):
            for _ in range(3):
                r = proxy.post("/api/games", json=body, headers={"x-forwarded-for": client})
                assert r.status_code == 201, r.text
            r = proxy.post("/api/games", json=body, headers={"x-forwarded-for": client})
            _error(r, 429, "rate_limited")
    with httpx.Client(base_url=url) as direct:
        for i in range(4):
            r = direct.post("/api/games", json=body, headers={"x-forwarded-for": f"10.9.9.{i}"})
        _error(r, 429, "rate_limited")


def test_a_waiting_game_expires(db_url: str) -> None:
    """A game nobody finished joining expires; one whose seats were all taken does not.

    The started game is seated first, while it is young: on a loaded machine the three
    calls that seat it once took longer than a short expiry, and it expired too."""
    settings = Settings(db_url=db_url, bot_workers=0, bot_pace=0, waiting_expiry=3.0)
    with running_app(settings) as (url, _app):
        api = Api(url)
        started = api.create()
        for s in started["seats"]:
            joined = api.call("POST", f"/api/games/{started['id']}/join", s["token"], {})
            assert joined.status_code == 200, joined.text
        waiting = api.create()
        gid, token = waiting["id"], waiting["seats"][0]["token"]
        deadline = time.monotonic() + 20
        while (r := api.call("GET", f"/api/games/{gid}")).status_code == 200:
            assert time.monotonic() < deadline, "the waiting game never expired"
            time.sleep(0.05)
        err = _error(r, 410, "expired")
        assert "waited" in err["message"]
        _error(api.call("POST", f"/api/games/{gid}/join", token, {}), 410, "expired")
        assert Client(url, gid, [token]).welcome["code"] == "expired"
        assert api.call("GET", f"/api/games/{started['id']}").status_code == 200


def test_rooms_are_loaded_when_used_and_leave_when_idle(tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path}/g.db", bot_workers=0, bot_pace=0)
    with running_app(settings) as (url, app):
        api = Api(url)
        hub = app.state.services.rooms
        games = [api.create()["id"] for _ in range(20)]
        assert len(hub.rooms) == 0, "creating a game does not load it"
        assert api.call("GET", f"/api/games/{games[0]}").status_code == 200
        assert set(hub.rooms) == {games[0]}
        hub.sweep(at=time.monotonic() + IDLE_ROOM + 1)
        assert not hub.rooms
        assert api.call("GET", f"/api/games/{games[0]}").status_code == 200


def _versions(db_path: Path, game_ids: list[str]) -> list[int]:
    with sqlite3.connect(db_path) as conn:
        return [
            int(conn.execute("SELECT count(*) FROM log WHERE game_id = ?", (g,)).fetchone()[0])
            for g in game_ids
        ]


def test_start_up_reads_only_the_games_where_a_bot_must_move(tmp_path: Path) -> None:
    db_path = tmp_path / "games.db"
    db = f"sqlite:///{db_path}"
    extra = ["--bot-workers", "1", "--bot-pace", "0.05", "--games-per-hour", "100000"]
    proc, url = spawn(db, *extra)
    bots = [{"kind": "bot", "level": "beginner"}] * 2
    try:
        with httpx.Client(base_url=url, timeout=10) as http:
            for i in range(150):  # waiting games, and every fifth one being played
                body = {"game": "cards", "players": 2, "seats": [{"kind": "human"}] * 2}
                created = http.post("/api/games", json=body).json()
                for seat in created["seats"] if i % 5 == 0 else []:
                    auth = {"authorization": f"Bearer {seat['token']}"}
                    http.post(f"/api/games/{created['id']}/join", json={}, headers=auth)
            playing = [
                http.post("/api/games", json={"game": "cards", "players": 2, "seats": bots}).json()
                for _ in range(2)
            ]
        ids = [g["id"] for g in playing]
        deadline = time.monotonic() + 30
        while min(_versions(db_path, ids)) < 3:
            assert time.monotonic() < deadline
            time.sleep(0.05)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    before = _versions(db_path, ids)
    proc, url = spawn(db, *extra)
    try:
        deadline = time.monotonic() + 30
        while any(a <= b for a, b in zip(_versions(db_path, ids), before, strict=True)):
            assert time.monotonic() < deadline, "the bots did not carry on after the restart"
            time.sleep(0.05)
        health = httpx.get(url + "/api/health", timeout=10).json()
        assert health["rooms"] <= len(ids), health
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()


def test_an_older_database_marks_its_games_with_bots(tmp_path: Path) -> None:
    """Upgrading from the first schema: games being played with a bot seat are marked
    (the server that claims one clears the mark if a person is to move)."""

    import sqlalchemy as sa
    from alembic import command
    from alembic.config import Config

    from euphrates.server.store import models as db
    from euphrates.server.store.database import make_engine, migrate

    db_path = tmp_path / "old.db"
    engine = sa.create_engine(f"sqlite:///{db_path}")
    cfg = Config()
    cfg.set_main_option("script_location", str(Path(db.__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
        for gid, status, kind in [
            ("a", "active", "bot"),
            ("b", "active", "human"),
            ("c", "waiting", "bot"),
        ]:
            conn.execute(
                sa.text(
                    "INSERT INTO games VALUES (:g, 'board', 2, '{}', '1', :s, 'h', "
                    "CURRENT_TIMESTAMP, CURRENT_TIMESTAMP)"
                ),
                {"g": gid, "s": status},
            )
            conn.execute(
                sa.text("INSERT INTO seats VALUES (:g, 0, :k, NULL, NULL, NULL, 1)"),
                {"g": gid, "k": kind},
            )
    engine.dispose()
    async_engine = make_engine(f"sqlite+aiosqlite:///{db_path}")
    run_async(migrate(async_engine))
    run_async(async_engine.dispose())
    with sqlite3.connect(db_path) as conn:
        marked = conn.execute("SELECT id FROM games WHERE wake_at IS NOT NULL").fetchall()
    assert marked == [("a",)]


def test_an_idle_server_on_sqlite_writes_nothing(tmp_path: Path) -> None:
    """On SQLite one process serves a database: no other server can stop beating or
    leave games behind, so an idle server has nothing to write (each commit is an
    fsync). Absence shows only over time: the window is four heartbeats long."""
    from sqlalchemy import event

    settings = Settings(db_url=f"sqlite:///{tmp_path}/g.db", bot_workers=0, bot_pace=0)
    with running_app(settings) as (_url, app):
        engine = app.state.services.rooms.store.database.engine.sync_engine
        writes: list[str] = []

        def seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
            if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
                writes.append(" ".join(statement.split())[:60])

        event.listen(engine, "before_cursor_execute", seen)
        try:
            time.sleep(4 * 0.4)
        finally:
            event.remove(engine, "before_cursor_execute", seen)
    beats = [w for w in writes if "servers" in w]
    claims = [w for w in writes if w.startswith("UPDATE games SET driver")]
    assert not beats, writes
    assert len(claims) <= 1, writes  # the start-up's, if it came that late


def test_a_lone_server_claims_a_stored_deadline_when_it_falls_due(tmp_path: Path) -> None:
    """A deadline the last process stored (a `wake_at` ahead) is claimed when it falls
    due, not before and not by polling: the server sleeps until then."""
    from datetime import UTC, datetime, timedelta

    import sqlalchemy as sa

    from euphrates.server.store import models as db
    from euphrates.server.store.database import Database, make_engine, migrate
    from euphrates.server.store.games import GameStore
    from euphrates.server.store.rows import GameRow, SeatRow

    url = f"sqlite:///{tmp_path}/g.db"
    due = datetime.now(UTC) + timedelta(seconds=2)

    async def store_a_deadline() -> None:
        engine = make_engine(url.replace("sqlite:", "sqlite+aiosqlite:"))
        await migrate(engine)
        row = GameRow("later", "cards", 2, {}, 5, "active", "h", wake=True)
        row.seats = [SeatRow(s, "bot", "beginner", taken=True) for s in (0, 1)]
        await GameStore(Database(engine, "gone")).create_game(row)
        async with engine.begin() as conn:
            await conn.execute(sa.update(db.games).values(wake_at=due))
        await engine.dispose()

    run_async(store_a_deadline())
    settings = Settings(db_url=url, bot_workers=1, bot_pace=0)
    with running_app(settings):
        deadline = time.monotonic() + 30
        while not _versions(tmp_path / "g.db", ["later"])[0]:
            assert time.monotonic() < deadline, "the deadline was never claimed"
            time.sleep(0.05)
    with sqlite3.connect(tmp_path / "g.db") as conn:
        (first,) = conn.execute("SELECT min(created_at) FROM log").fetchone()
    assert datetime.fromisoformat(first).replace(tzinfo=UTC) >= due

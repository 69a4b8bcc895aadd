"""`euphrates admin` reaches running servers, on SQLite and PostgreSQL: run from another
process, its change is heard the way one server hears another's (a signal in the
change's transaction), so within seconds a game it ends is told at its table and its
bots stop, a disabled account's connections close, a muted account's chat is refused.
"""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.server.serve import spawn
from tests.server.harness import Api, Client, stop_processes
from tests.server.people import PASSWORD, Person, forget_accounts

HEARD_WITHIN = 8.0
"""Seconds a running server may take to hear the admin (SQLite's signals are read
every second)."""


def admin(db: str, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "euphrates", "admin", "--db", db, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, str]]:
    """A server process with a bot worker, and its database."""
    forget_accounts(db_url)
    proc, url = spawn(db_url, "--bot-workers", "1", "--bot-pace", "0.15")
    try:
        yield db_url, url
    finally:
        stop_processes([proc])


def _until(message: str, test: Any, timeout: float = HEARD_WITHIN) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, message
        time.sleep(0.05)


def test_an_admins_end_is_told_at_the_table_and_its_bots_stop(served: tuple[str, str]) -> None:
    db, url = served
    api = Api(url)
    bots = [{"kind": "bot", "level": "beginner"}] * 2
    gid = api.create("cards", bots)["id"]
    table = Client(url, gid)
    table.until_version(4, timeout=60)  # the bots are playing

    done = admin(db, "end-game", gid)
    assert done.returncode == 0 and "ended" in done.stdout, done.stderr

    heard: dict[str, Any] = {}
    deadline = time.monotonic() + HEARD_WITHIN
    while not ("game" in heard and "note" in heard):
        msg = table.recv(max(0.01, deadline - time.monotonic()))
        if msg["type"] == "game" and msg["game"]["status"] == "abandoned":
            heard["game"] = msg
        if msg["type"] == "note":
            heard["note"] = msg["note"]
    assert heard["note"]["kind"] == "ended" and heard["note"]["seat"] is None
    ended = table.version
    # Its bots stop: no version after the end, at the table or in the database.
    time.sleep(1.5)
    table.drain(0.3)
    assert table.version == ended, "a bot moved after the admin ended the game"
    doc = api.call("GET", f"/api/games/{gid}").json()
    assert doc["game"]["status"] == "abandoned" and doc["version"] == ended
    assert any(n["kind"] == "ended" for n in doc["notes"])
    record = api.call("GET", f"/api/games/{gid}/record").json()
    assert len(record["actions"]) <= ended
    # Once: a second end is refused, naming the status.
    again = admin(db, "end-game", gid)
    assert again.returncode != 0 and "already ended (abandoned)" in again.stderr
    table.close()


def test_a_move_sent_as_the_admin_ends_the_game_is_refused(served: tuple[str, str]) -> None:
    """The end is the database's before any server hears of it: a move sent at once
    after it is refused as the game's end and not stored, whether the server heard
    the end yet or stores the move and finds the database dropped it."""
    db, url = served
    api = Api(url)
    created = api.create("board", [{"kind": "human"}, {"kind": "human"}])
    gid, t0, t1 = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    table = Client(url, gid, [t0, t1])
    seat = table.view(0)["decision"]["seat"]
    action = table.view(seat)["legal"][0]
    assert admin(db, "end-game", gid).returncode == 0
    reply = table.act(seat, action)
    assert reply["type"] == "error" and reply["code"] == "abandoned", reply
    assert api.call("GET", f"/api/games/{gid}").json()["version"] == 0
    table.close()


def test_disable_closes_the_accounts_connections_and_mute_stops_its_chat(
    served: tuple[str, str],
) -> None:
    db, url = served
    ann, bob = Person(url), Person(url)
    assert ann.signup("Ann").status_code == 201
    assert bob.signup("Bob").status_code == 201
    api = Api(url)
    gid = api.create("cards", [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])["id"]

    assert admin(db, "mute", "Bob").returncode == 0
    r = bob.post(f"/api/games/{gid}/chat", {"text": "hello"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "muted", r.text

    watching = ann.socket(gid)  # a signed-in spectator
    lobby = ann.lobby()
    assert admin(db, "disable", "Ann").returncode == 0
    closed = watching.next("closed", timeout=HEARD_WITHIN)
    assert closed["code"] == "account_changed"
    _until("the lobby was not closed", lambda: _closed(lobby))
    assert ann.me()["user"] is None  # its sessions ended
    r = ann.login("Ann", PASSWORD)
    assert r.status_code == 403 and r.json()["error"]["code"] == "account_disabled"
    assert admin(db, "mute", "Bob", "--unmute").returncode == 0
    assert bob.post(f"/api/games/{gid}/chat", {"text": "hello"}).status_code == 200


def _closed(lobby: Any) -> bool:
    try:
        msg = lobby.recv(0.2)
    except TimeoutError:
        return False
    except Exception:  # the connection is gone
        return True
    return bool(msg.get("type") == "closed")


def test_the_database_stores_no_version_after_a_games_end(db_url: str) -> None:
    """Whichever process ends a game, a version appended after the end is dropped by
    the database itself (migration 0011's trigger) and reported as not stored, on
    both databases; the end happens once."""
    import asyncio

    from euphrates.server.common.config import async_db_url
    from euphrates.server.game import lifecycle
    from euphrates.server.store.database import Database, make_engine, migrate
    from euphrates.server.store.games import GameStore
    from euphrates.server.store.notes import Note
    from euphrates.server.store.rows import GameRow, LogRow, SeatRow
    from tests.server.harness import run_async

    async def main() -> None:
        engine = make_engine(async_db_url(db_url))
        await migrate(engine)
        server = GameStore(Database(engine, "server"))
        other = GameStore(Database(engine, "admin", announce=True))
        server.start()
        try:
            gid = f"end{time.monotonic_ns()}"
            seats = [SeatRow(0, "human", taken=True), SeatRow(1, "human", taken=True)]
            await server.create_game(GameRow(gid, "board", 2, {}, 3, "active", "h", seats))
            assert await server.append(gid, LogRow(1, 0, "action", "pass"))
            end = lifecycle.ADMIN_END
            assert end.to is not None
            ends = await asyncio.gather(
                *(other.end(gid, end.to, end.allowed, Note(-1, "ended", None)) for _ in range(4))
            )
            assert sorted(ends) == [False, False, False, True]  # once
            assert not await server.append(gid, LogRow(2, 1, "action", "pass"))
            assert [r.version for r in await server.load_log(gid)] == [1]
            assert (await server.load_game(gid)) is not None
            assert await other.status_of(gid) == "abandoned"
        finally:
            await server.close()
            await engine.dispose()

    run_async(main())

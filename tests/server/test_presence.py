"""Presence costs nothing it need not: on SQLite (one process) nothing is written at
all; on PostgreSQL a server writes its marks only when they change — a connection
arriving where its account was not, or the last one gone once the grace passed — never
per request, per message or while nothing changes."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from sqlalchemy import event

from euphrates.server.common.config import Settings
from tests.server.harness import running_app
from tests.server.people import Person, forget_accounts
from tests.server.test_accounts import query
from tests.server.test_tables import GRACE, HUMAN, open_table, person, until


def watch_writes(app: Any) -> list[str]:
    """Every statement that writes, as the server's engine runs it."""
    engine = app.state.services.rooms.store.database.engine.sync_engine
    writes: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")):
            writes.append(" ".join(statement.split()))

    event.listen(engine, "before_cursor_execute", seen)
    return writes


def test_presence_on_sqlite_writes_nothing(tmp_path: Path) -> None:
    settings = Settings(db_url=f"sqlite:///{tmp_path}/g.db", bot_workers=0, presence_grace=GRACE)
    with running_app(settings) as (base, app):
        ann, bob = person(base, "Ann"), person(base, "Bob")
        table = open_table(ann, [HUMAN, HUMAN, HUMAN])
        assert bob.post(f"/api/games/{table['id']}/sit", {}).status_code == 200
        presence = app.state.services.presence
        writes = watch_writes(app)
        lobby = bob.lobby()
        at_table = bob.socket(table["id"])
        until(lambda: presence.online(bob_id(app, "Bob")), "Bob never online")
        for _ in range(10):
            assert bob.get("/api/tables").status_code == 200
        at_table.close()
        lobby.close()
        until(lambda: not presence.online(bob_id(app, "Bob")), "Bob never away")
        assert writes == []
        assert presence.writes == 0


def bob_id(app: Any, name: str) -> int:
    """An account's id (the test's privilege)."""
    for room in app.state.services.rooms.rooms.values():
        for s in room.row.seats:
            if s.name == name and s.user_id is not None:
                return int(s.user_id)
    raise AssertionError(f"{name} sits nowhere")


def test_presence_on_postgresql_is_written_only_when_it_changes(pg_url: str) -> None:
    forget_accounts(pg_url)
    settings = Settings(db_url=pg_url, bot_workers=0, presence_grace=GRACE)
    with running_app(settings) as (base, app):
        presence = app.state.services.presence
        origin = app.state.services.rooms.store.origin
        bob = person(base, "Bob")
        writes = watch_writes(app)

        def rows() -> list[Any]:
            sql = "SELECT place, seat FROM presence WHERE server_id = :s"
            return query(pg_url, sql, s=origin)

        assert presence.writes == 0 and rows() == []
        lobby = bob.lobby()
        until(lambda: presence.writes == 1, "the lobby's presence never written")
        assert [(r.place, r.seat) for r in rows()] == [("", -1)]
        # Requests, pings and a second tab of the same lobby change nothing: no write.
        for i in range(20):
            assert bob.get("/api/tables").status_code == 200
            lobby.ws.send(f'{{"type": "ping", "id": {i}}}')
        second = Person(base)
        second.http.cookies = bob.http.cookies
        tab = second.lobby()
        tab.close()
        time.sleep(2 * GRACE + 0.5)  # absence of writes shows only over time
        assert presence.writes == 1, writes
        # The last connection gone: one write, once the grace passed.
        lobby.close()
        until(lambda: presence.writes == 2, "the presence never cleared")
        assert rows() == []
        # One INSERT, one DELETE of this server's marks; the housekeeping that drops
        # the rows of servers dead a minute (`server_id != …`, once a minute) aside.
        mine = [w for w in writes if "presence" in w and "server_id !=" not in w]
        assert len(mine) == 2, mine

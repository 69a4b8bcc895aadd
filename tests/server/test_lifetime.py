"""Lifetime statistics (GET /api/users/{name}/lifetime): added up as games end, and
checked against a second computation from each game's record.

Three accounts (Ann, Bob, Cid), a guest and bots play a mix of games through the API —
board and cards, two, three and four players, rated and not, whole games, a duel and a
three-player game in which a player resigned, a rated game aborted — and every figure
of every set (per game and players, and over all), head to head included, is the one
`lifetimes.expected` works out from the records. The view reads no record (the log's
rows deleted, the figures stay; the statements it runs are counted), the export holds
the figures, a deletion takes the account's own and leaves it a deleted player in the
others' head to head. The migration counts the games that ended before it."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euphrates.match.lifetime import SeatFacts, SeatResult, credits
from euphrates.server.common.config import Settings
from euphrates.server.game.lifecycle import MIN_DECISIONS
from tests.server.conftest import migrated_sqlite_url
from tests.server.harness import running_app
from tests.server.lifetimes import (
    Played,
    Seat,
    create,
    expected,
    plain,
    play_out,
    resign_now,
    served,
)
from tests.server.people import Person

pytestmark = pytest.mark.xdist_group("lifetime")


class World:
    def __init__(self, url: str, app: Any, db: Path) -> None:
        self.url = url
        self.app = app
        self.db = db
        self.people = {n: Person(url) for n in ("Ann", "Bob", "Cid")}
        for name, p in self.people.items():
            assert p.signup(name).status_code == 201
        self.games: list[Played] = []
        self.unstarted = ""

    def lifetime(self, name: str) -> dict[str, Any]:
        r = Person(self.url).get(f"/api/users/{name}/lifetime")
        assert r.status_code == 200, r.text
        doc: dict[str, Any] = r.json()
        return doc


@pytest.fixture(scope="module")
def world(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[World]:
    """A server with bots on SQLite, and the mix of games played on it."""
    where = tmp_path_factory.mktemp("lifetime")
    url = migrated_sqlite_url(request, where)
    settings = Settings(db_url=url, bot_workers=1, bot_pace=0, rate_per_s=5000, rate_burst=5000)
    with running_app(settings) as (base, app):
        w = World(base, app, where / "games.db")
        ann, bob, cid = (w.people[n] for n in ("Ann", "Bob", "Cid"))
        guest = Person(base)

        def me(name: str, **kw: Any) -> Seat:
            return Seat(person=w.people[name], account=name, **kw)

        mix = [
            (ann, "board", [me("Ann"), me("Bob")], False),
            (bob, "board", [me("Bob"), me("Ann"), Seat(person=guest)], False),
            (ann, "cards", [me("Ann"), me("Cid", resign_after=MIN_DECISIONS)], True),
            (
                ann,
                "cards",
                [me("Ann"), me("Bob", resign_after=MIN_DECISIONS), Seat(bot="beginner")],
                True,
            ),
            (
                cid,
                "board",
                [me("Ann"), me("Cid"), Seat(bot="intermediate"), Seat(bot="beginner")],
                False,
            ),
        ]
        for i, (host, game, seats, rated) in enumerate(mix):
            played = create(host, game, seats, rated)
            play_out(played, seed=i)
            w.games.append(played)
        aborted = create(ann, "board", [me("Ann"), me("Bob")], rated=True)
        resign_now(aborted, 1)
        assert aborted.status == "aborted"
        w.games.append(aborted)
        # abandoned by its host after a move: an abandoned game for both, not a game played
        left = create(ann, "board", [me("Ann"), me("Bob")])
        doc = ann.get(f"/api/games/{left.id}").json()
        seat = doc["views"]["0"]["decision"]["seat"]
        mover = (ann, bob)[seat]
        legal = mover.get(f"/api/games/{left.id}").json()["views"][str(seat)]["legal"]
        move = {"version": doc["version"], "seat": seat, "action": legal[0]}
        assert mover.post(f"/api/games/{left.id}/actions", move).is_success
        assert ann.post(f"/api/games/{left.id}/abandon", token=left.host).is_success
        left.status = "abandoned"
        w.games.append(left)
        # a table left by its host before Bob sat down: no game at all
        body = {"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2}
        table = ann.post("/api/games", body).json()
        seat0 = table["seats"][0]["token"]
        assert ann.post(f"/api/games/{table['id']}/join", {}, token=seat0).is_success
        host = table["host"]["token"]
        assert ann.post(f"/api/games/{table['id']}/abandon", token=host).is_success
        w.unstarted = table["id"]
        yield w


def test_every_figure_is_the_records_own(world: World) -> None:
    statuses = [g.status for g in world.games]
    assert statuses == ["over"] * 5 + ["aborted", "abandoned"]
    # the duel Cid resigned ended at once, the game of three went on to its end
    assert [n["kind"] for n in world.games[2].record["notes"]] == ["resigned"]
    assert world.games[3].record["outcome"] is not None
    wanted = expected(world.games)
    assert set(wanted) == {"Ann", "Bob", "Cid"}
    for name, sets in wanted.items():
        doc = world.lifetime(name)
        assert doc["name"] == name
        got = {(s["game"], s["players"]): served(s) for s in doc["sets"]}
        assert got == {k: plain(v) for k, v in sets.items()}, name
    ann = world.lifetime("Ann")["sets"][0]
    assert (ann["game"], ann["players"]) == (None, None)
    assert ann["games"] == 5 and ann["aborted"] == 1 and ann["rated"] == 2
    # Bob and Cid are Ann's favourite opponents, each met twice; bots and the guest
    # follow, grouped by level
    kinds = [(o["kind"], o["name"] or o["level"]) for o in ann["opponents"]]
    assert kinds[:2] == [("account", "Bob"), ("account", "Cid")] or kinds[:2] == [
        ("account", "Cid"),
        ("account", "Bob"),
    ]
    assert {k for k in kinds[2:]} == {("bot", "beginner"), ("bot", "intermediate"), ("guest", None)}


def test_each_ended_game_is_counted_once_as_it_ended(world: World) -> None:
    """The exploit: a host losing an unrated game abandons it. It is no loss, but no
    game either: both players' profiles count it as abandoned."""
    with sqlite3.connect(world.db) as conn:
        counted = dict(conn.execute("SELECT game_id, status FROM lifetime_games").fetchall())
    assert counted == {g.id: g.status for g in world.games}
    assert world.unstarted and world.unstarted not in counted
    for name in ("Ann", "Bob"):
        everything = world.lifetime(name)["sets"][0]
        assert everything["abandoned"] == 1, name


def test_unknown_players_and_nothing_private(world: World) -> None:
    r = Person(world.url).get("/api/users/Nobody/lifetime")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_user"
    text = Person(world.url).get("/api/users/Ann/lifetime").text
    for secret in ("user_id", "opponent_id", "token", "u:"):
        assert secret not in text
    spec = Person(world.url).get("/openapi.json").json()
    route = spec["paths"]["/api/users/{name}/lifetime"]["get"]
    assert {"200", "404"} <= set(route["responses"])


def test_the_export_holds_the_figures(world: World) -> None:
    doc = world.people["Ann"].get("/api/account/export").json()
    life = doc["lifetime"]
    sets = {(s["game"], s["players"]): s for s in world.lifetime("Ann")["sets"]}
    assert {(t["game"], t["players"]) for t in life["totals"]} == set(sets) - {(None, None)}
    for t in life["totals"]:
        shown = sets[(t["game"], t["players"])]
        assert (t["games"], t["wins"], t["aborted"]) == (
            shown["games"],
            shown["wins"],
            shown["aborted"],
        )
        assert t["monuments"] == shown["stats"]["monuments"]
    met = {
        (m["game"], m["players"], m["name"] or m["level"] or m["kind"]) for m in life["opponents"]
    }
    assert ("board", 2, "Bob") in met and ("cards", 2, "Cid") in met
    assert ("board", 4, "intermediate") in met and ("board", 3, "guest") in met


def test_the_view_reads_no_record(world: World) -> None:
    """The figures are read from their sums: with every log row of the games gone, the
    answer is the same; and a view runs three statements on the lifetime tables and
    none on a game's log or notes, whatever the number of games."""
    import sqlalchemy as sa

    before = world.lifetime("Ann")
    engine = world.app.state.services.accounts.database.engine.sync_engine
    seen: list[str] = []

    def count(_c: Any, _cur: Any, statement: str, *_rest: Any) -> None:
        seen.append(statement)

    sa.event.listen(engine, "before_cursor_execute", count)
    try:
        after = world.lifetime("Ann")
    finally:
        sa.event.remove(engine, "before_cursor_execute", count)
    assert after == before
    ours = [s for s in seen if "lifetime" in s]
    assert len(ours) == 3, ours
    assert not [s for s in seen if " log" in s or "FROM notes" in s]
    ids = [g.id for g in world.games]
    with sqlite3.connect(world.db) as conn:
        marks = ",".join("?" * len(ids))
        gone = conn.execute(f"DELETE FROM log WHERE game_id IN ({marks})", ids).rowcount
        conn.execute(f"DELETE FROM notes WHERE game_id IN ({marks})", ids)
    assert gone > 500
    assert world.lifetime("Ann") == before


def test_a_deleted_account_loses_its_figures_and_stays_an_opponent(world: World) -> None:
    before = {o["name"]: o for o in world.lifetime("Ann")["sets"][0]["opponents"] if o["name"]}
    cid = world.people["Cid"]
    assert cid.post("/api/account/delete", {"password": "correct horse battery"}).is_success
    r = Person(world.url).get("/api/users/Cid/lifetime")
    assert r.json()["error"]["code"] == "unknown_user"
    with sqlite3.connect(world.db) as conn:
        left = conn.execute(
            "SELECT count(*) FROM lifetime l JOIN users u ON u.id = l.user_id WHERE u.deleted = 1"
        ).fetchone()[0]
        left += conn.execute(
            "SELECT count(*) FROM lifetime_opponents l JOIN users u ON u.id = l.user_id "
            "WHERE u.deleted = 1"
        ).fetchone()[0]
    assert left == 0
    after = world.lifetime("Ann")["sets"][0]["opponents"]
    deleted = [o for o in after if o["kind"] == "deleted"]
    assert len(deleted) == 1 and deleted[0]["name"] is None
    was = before["Cid"]
    assert [deleted[0][k] for k in ("games", "above", "below", "tied")] == [
        was[k] for k in ("games", "above", "below", "tied")
    ]
    assert "Cid" not in Person(world.url).get("/api/users/Ann/lifetime").text


def test_an_account_at_two_seats_counts_its_best_one() -> None:
    """One screen, two seats of one account: the game counts once, by its better
    seat, and its other seat is not its opponent; two bots of one level are one
    opponent, met once, by the better of them."""
    seats = [
        SeatFacts("human", None, 7),
        SeatFacts("bot", "beginner", None),
        SeatFacts("human", None, 7),
        SeatFacts("bot", "beginner", None),
    ]
    results = [SeatResult(p, 5 - p, {"placed": p}) for p in (3, 4, 1, 2)]
    (only,) = credits(seats, results, [], [7])
    assert (only.place, only.won, only.score, only.counts) == (1, True, 4, {"placed": 1})
    assert set(only.meetings) == {"bot:beginner"}
    met = only.meetings["bot:beginner"]
    assert (met.above, met.below, met.tied) == (1, 0, 0)


def test_the_migration_counts_the_games_ended_before(world: World, tmp_path: Path) -> None:
    """Migration 0015 on a copy of the database as it was before it: the figures of
    every game, replayed from its log, are those the server added up as they ended."""
    from alembic import command
    from alembic.config import Config

    from euphrates.server.store import models
    from euphrates.server.store.database import make_engine

    copy = tmp_path / "copy.db"
    with sqlite3.connect(world.db) as src, sqlite3.connect(copy) as dst:
        src.backup(dst)
    url = f"sqlite+aiosqlite:///{copy}"

    def step(conn: Any, target: str, down: bool) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(Path(models.__file__).parent / "migrations"))
        cfg.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(cfg, target)

    async def move(target: str, down: bool) -> None:
        engine = make_engine(url)
        async with engine.begin() as conn:
            await conn.run_sync(step, target, down)
        await engine.dispose()

    with sqlite3.connect(copy) as conn:
        wanted = sorted(conn.execute("SELECT * FROM lifetime").fetchall())
        met = sorted(conn.execute("SELECT * FROM lifetime_opponents").fetchall())
        # the log rows were deleted by an earlier test of this module: they are put
        # back from the records (the notes, which the view never reads, too)
        conn.execute("DROP TRIGGER IF EXISTS log_only_in_play")
        for g in world.games:
            actions = g.record.get("actions", [])
            conn.execute("DELETE FROM log WHERE game_id = ?", (g.id,))
            conn.executemany(
                "INSERT INTO log (game_id, version, seat, kind, text, created_at) "
                "VALUES (?, ?, NULL, 'action', ?, '2026-01-01 00:00:00')",
                [(g.id, v, a) for v, a in enumerate(actions, 1)],
            )
            conn.executemany(
                "INSERT INTO notes (game_id, version, kind, seat, created_at) "
                "VALUES (?, ?, ?, ?, '2026-01-01 00:00:00')",
                [(g.id, n["after"], n["kind"], n.get("seat")) for n in g.record.get("notes", [])],
            )
    asyncio.run(move("0014_friends", True))
    asyncio.run(move("head", False))
    with sqlite3.connect(copy) as conn:
        got = sorted(conn.execute("SELECT * FROM lifetime").fetchall())
        got_met = sorted(conn.execute("SELECT * FROM lifetime_opponents").fetchall())
        counted = conn.execute("SELECT count(*) FROM lifetime_games").fetchone()[0]

    def strip(rows: list[Any]) -> list[Any]:
        return [r[:-1] for r in rows]  # every column but `last_at`, the last

    assert counted == 7
    assert strip(got) == strip(wanted)
    assert strip(got_met) == strip(met)


def test_the_migration_makes_the_models_tables(sqlite_template: Path) -> None:
    """Migration 0015 creates the tables models.py describes: the same columns, keys
    and nullability (the store writes by the models' names)."""
    from euphrates.server.store import models

    with sqlite3.connect(sqlite_template) as conn:
        for name in ("lifetime", "lifetime_opponents", "lifetime_games"):
            made = {
                r[1]: (bool(r[3]), bool(r[5])) for r in conn.execute(f"PRAGMA table_info({name})")
            }
            table = models.metadata.tables[name]
            wanted = {
                c.name: (not c.nullable or c.primary_key, c.primary_key) for c in table.columns
            }
            assert made == wanted, name

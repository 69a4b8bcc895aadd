"""Tournaments run by the server, played to their winners by stand-ins for eight and
six members (tournament_play.py): a Swiss of duels and a round robin of 3-player
tables, on SQLite and on PostgreSQL. Every pairing is checked against the format's
rules and every standing is worked out again from the games' own results."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from euphrates.server.common.config import Settings
from euphrates.server.features.tournaments.tournaments import Tournaments
from euphrates.server.store import models as db
from tests.server.conftest import migrated_sqlite_url
from tests.server.harness import run_async, running_app
from tests.server.people import Person, forget_accounts
from tests.server.test_tables import person
from tests.server.tournament_play import StandIns, check_rounds, meetings, recount

REALTIME = {"mode": "realtime", "preset": "medium"}
TURNS = {"mode": "turn", "days": 1, "level": "beginner"}


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


@pytest.fixture(params=["sqlite"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """SQLite here: the same tournaments on PostgreSQL, on two servers one of which is
    killed, are test_tournaments_cluster.py's."""
    return migrated_sqlite_url(request, tmp_path)


def settings(db_url: str, **more: Any) -> Settings:
    values: dict[str, Any] = {
        "db_url": db_url,
        "bot_workers": 1,
        "bot_pace": 0,
        "rate_per_s": 5000,
        "rate_burst": 5000,
        "logins_per_minute": 1000,
        "signups_per_hour": 1000,
        # A seat left for good is played on by the level's bot: random moves here, so
        # that the games' ends take a moment (the level is the games', not the test's).
        "bot_levels": {"beginner": "random"},
        **more,
    }
    return Settings(**values)


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, Tournaments]]:
    with running_app(settings(db_url)) as (url, app):
        yield url, app.state.services.tournaments


def create(p: Person, **spec: Any) -> dict[str, Any]:
    body = {"name": "Club night", "game": "board", "players": 2, "format": "swiss"}
    body.update(clock=REALTIME)
    body.update(spec)
    r = p.post("/api/tournaments", body)
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def enter(people: list[Person], tid: str) -> None:
    for p in people:
        r = p.post(f"/api/tournaments/{tid}/join")
        assert r.status_code == 200, r.text


def results_of(p: Person, doc: dict[str, Any]) -> dict[str, list[int]]:
    out = {}
    for rnd in doc["rounds_played"]:
        for table in rnd["tables"]:
            meta = p.get(f"/api/games/{table['game_id']}").json()["game"]
            assert meta["status"] == "over", meta["status"]
            out[table["game_id"]] = meta["result"]["places"]
    return out


def check_standings(p: Person, doc: dict[str, Any]) -> None:
    """The server's standings are the games' results counted again, in tiebreak order."""
    again = recount(doc, results_of(p, doc))
    for row in doc["standings"]:
        mine = again[row["name"]]
        assert row["score"] == pytest.approx(mine["score"]), row
        assert row["buchholz"] == pytest.approx(mine["buchholz"], abs=1e-3), row
    keys = [(-r["score"], -r["buchholz"], -r["median"], -r["wins"]) for r in doc["standings"]]
    assert keys == sorted(keys)
    assert doc["winner"] == doc["standings"][0]["name"]
    for rnd in doc["rounds_played"]:  # the table's places are the game's
        for table in rnd["tables"]:
            assert table["places"] == results_of(p, {"rounds_played": [rnd]})[table["game_id"]]


def check_swiss(doc: dict[str, Any], rounds: int, entrants: int) -> None:
    assert [r["round"] for r in doc["rounds_played"]] == list(range(1, rounds + 1))
    check_rounds(doc)
    for rnd in doc["rounds_played"]:
        assert len(rnd["tables"]) == entrants // 2 and not rnd["byes"]
    # With 8 entrants and 3 rounds a Swiss never needs a repeat.
    assert max(meetings(doc).values()) == 1


def check_robin(doc: dict[str, Any], names: list[str]) -> None:
    check_rounds(doc)
    met = meetings(doc)
    every = {frozenset((a, b)) for i, a in enumerate(names) for b in names[i + 1 :]}
    assert set(met) == every, every - set(met)  # everyone met everyone
    assert len(doc["rounds_played"]) == doc["rounds"] == 4  # 3 rounds cannot cover 15 pairs
    first = Counter(t["seats"][0] for r in doc["rounds_played"] for t in r["tables"])
    counts = [first.get(n, 0) for n in names]
    assert max(counts) - min(counts) <= 1, first  # who moves first, balanced


def games_started(db_url: str, doc: dict[str, Any]) -> int:
    """Games holding a seat of these entrants created since the tournament began: each
    table's game and no other (none started twice)."""

    async def count() -> int:
        from euphrates.server.common.config import async_db_url
        from euphrates.server.store.database import make_engine

        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.connect() as conn:
                tt = db.tournament_tables
                query = sa.select(sa.func.count()).where(
                    tt.c.tournament_id == doc["id"], tt.c.game_id.isnot(None)
                )
                return int((await conn.execute(query)).scalar() or 0)
        finally:
            await engine.dispose()

    return run_async(count())


def test_a_swiss_and_a_round_robin_are_played_to_their_winners(
    served: tuple[str, Tournaments], db_url: str
) -> None:
    url, tournaments = served
    people = [person(url, f"S{i}") for i in range(8)]
    swiss = create(people[0], rounds=3, rated=True, most=8, starts_in=60)
    enter(people[1:], swiss["id"])
    robin_people = [person(url, f"R{i}") for i in range(6)]
    robin = create(robin_people[0], players=3, format="robin", clock=TURNS, most=6, rated=True)
    enter(robin_people[1:], robin["id"])
    for creator, t in ((people[0], swiss), (robin_people[0], robin)):
        r = creator.post(f"/api/tournaments/{t['id']}/start")
        assert r.status_code == 200, r.text
        assert r.json()["status"] == "running"
    stand = StandIns(
        {
            p.me()["user"]["name"] if "user" in p.me() else p.me()["name"]: [p]
            for p in people + robin_people
        },
        seed=5,
        resign=0.3,
    )
    done = stand.play([swiss["id"], robin["id"]])
    s, rr = done[swiss["id"]], done[robin["id"]]
    assert s["status"] == rr["status"] == "over"
    check_swiss(s, 3, 8)
    check_robin(rr, [f"R{i}" for i in range(6)])
    check_standings(people[0], s)
    check_standings(people[0], rr)
    assert games_started(db_url, s) == 12 and games_started(db_url, rr) == 8
    assert tournaments.started_games == 20

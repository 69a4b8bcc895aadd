"""Tournaments on two servers sharing one PostgreSQL database, one of them killed with
`kill -9` in the middle: a Swiss of duels for eight members and a round robin of
3-player tables for six, each started on a different server, the entrants' stand-ins
playing through either. Every round is started exactly once (by whichever server
claims it), no game is started twice or lost, and the standings are the games'
results counted again.

Skipped (with the reason) where PostgreSQL does not answer; under `CI=true` it must run.
"""

from __future__ import annotations

import signal
import threading
import time
from typing import Any

import sqlalchemy as sa

from euphrates.server.common.config import async_db_url
from euphrates.server.serve import spawn
from euphrates.server.store import models as db
from euphrates.server.store.database import make_engine
from tests.server.harness import run_async, running_app
from tests.server.people import Person, forget_accounts
from tests.server.test_tables import person
from tests.server.test_tournaments import (
    TURNS,
    check_robin,
    check_standings,
    check_swiss,
    create,
    enter,
    settings,
)
from tests.server.tournament_play import StandIns


def games_of(pg_url: str, names: list[str]) -> int:
    """Every game any of these accounts holds a seat of."""

    async def count() -> int:
        engine = make_engine(async_db_url(pg_url))
        try:
            async with engine.connect() as conn:
                st, u = db.seats, db.users
                query = sa.select(sa.func.count(sa.distinct(st.c.game_id))).where(
                    st.c.user_id.in_(sa.select(u.c.id).where(u.c.name.in_(names)))
                )
                return int((await conn.execute(query)).scalar() or 0)
        finally:
            await engine.dispose()

    return run_async(count())


def test_two_tournaments_on_two_servers_survive_a_kill(pg_url: str) -> None:
    forget_accounts(pg_url)
    proc, b = spawn(
        pg_url, "--bot-workers", "1", "--bot-pace", "0", "--bot-level", "beginner=random"
    )
    try:
        with running_app(settings(pg_url)) as (a, app):
            tournaments = app.state.services.tournaments
            swiss_people = [person(a, f"S{i}") for i in range(8)]
            robin_people = [person(a, f"R{i}") for i in range(6)]
            reach: dict[str, list[Person]] = {}
            for i, p in enumerate(swiss_people + robin_people):
                name = p.me()["user"]["name"]
                there = Person(b)  # the same account, its requests to the other server
                there.http.cookies.update(p.http.cookies)
                there.csrf = p.csrf
                reach[name] = [there, p] if i % 2 else [p, there]
            # The Swiss is created and started on B, the round robin on A.
            sb = reach["S0"][0] if reach["S0"][0].base == b else reach["S0"][1]
            swiss = create(sb, rounds=3, rated=True, most=8)
            enter([reach[f"S{i}"][0] for i in range(1, 8)], swiss["id"])
            robin = create(
                robin_people[0], players=3, format="robin", clock=TURNS, rated=True, most=6
            )
            enter([reach[f"R{i}"][0] for i in range(1, 6)], robin["id"])
            # Both servers are asked to start each at the same moment: one round 1 each.
            go = threading.Barrier(4)
            answers: list[int] = []

            def start(p: Person, tid: str) -> None:
                go.wait()
                answers.append(p.post(f"/api/tournaments/{tid}/start").status_code)

            s0 = reach["S0"]
            r0 = reach["R0"]
            threads = [
                threading.Thread(target=start, args=(p, t["id"]))
                for p, t in ((s0[0], swiss), (s0[1], swiss), (r0[0], robin), (r0[1], robin))
            ]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            # Each: one start, the other refused as already started (or it saw it started).
            assert sorted(answers) in ([200, 200, 409, 409], [200, 200, 200, 409], [200] * 4)
            stand = StandIns(reach, seed=11, resign=0.3)
            done: dict[str, dict[str, Any]] = {}
            player = threading.Thread(
                target=lambda: done.update(stand.play([swiss["id"], robin["id"]], timeout=400))
            )
            player.start()
            # In the middle: once the Swiss's second round is being played, B dies.
            deadline = time.monotonic() + 200
            while stand.tournament(swiss["id"])["round"] < 2:
                assert time.monotonic() < deadline and player.is_alive()
                time.sleep(0.1)
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)
            player.join(450)
            assert not player.is_alive() and len(done) == 2, "the tournaments did not end"
            s, rr = done[swiss["id"]], done[robin["id"]]
            assert s["status"] == rr["status"] == "over"
            check_swiss(s, 3, 8)
            check_robin(rr, [f"R{i}" for i in range(6)])
            check_standings(robin_people[0], s)
            check_standings(robin_people[0], rr)
            # No game started twice, none lost: the entrants hold exactly the tables' games.
            assert games_of(pg_url, [f"S{i}" for i in range(8)]) == 12
            assert games_of(pg_url, [f"R{i}" for i in range(6)]) == 8
            assert tournaments.started_games <= 20
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)

"""Open tables and presence across servers sharing one PostgreSQL database.

Two servers (each its own event loop, connection pool, `LISTEN` connection and
identity; in threads of this process, so that their settings can be a test's) and,
for a crash, a real `euphrates serve` process killed with SIGKILL:

- two players taking the last free seat at the same moment on two servers: exactly
  one sits, every time;
- a table opened on one server is listed, and told to an open lobby, on the other;
- an account online in a lobby, or at a table, on one server shows so on the other,
  at the table and in the list; a server killed takes its players' presence with it.

Skipped (with the reason) where PostgreSQL does not answer; under `CI=true` it must run.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from euphrates.server.common.config import Settings
from euphrates.server.serve import spawn
from tests.server.harness import Api, running_server
from tests.server.people import Person, forget_accounts
from tests.server.test_tables import GRACE, HUMAN, listed, open_table, person, until


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[str, str]]:
    forget_accounts(pg_url)
    settings = Settings(
        db_url=pg_url,
        bot_workers=0,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        presence_grace=GRACE,
    )
    with running_server(settings) as a, running_server(settings) as b:
        yield a, b


def test_of_two_players_racing_for_the_last_seat_on_two_servers_one_sits(
    two: tuple[str, str],
) -> None:
    a, b = two
    ann = person(a, "Ann")
    bob, cara = person(a, "Bob"), person(b, "Cara")
    for round_ in range(6):
        table = open_table(ann, [HUMAN, HUMAN])
        gid = table["id"]
        # Both servers hold the table in memory, as they would with players watching.
        assert bob.get(f"/api/games/{gid}").status_code == 200
        assert cara.get(f"/api/games/{gid}").status_code == 200
        body = {"seat": 1} if round_ % 2 else {}
        answers = race(f"/api/games/{gid}/sit", body, {"Bob": bob, "Cara": cara})
        codes = sorted(r.status_code for r in answers.values())
        assert codes == [200, 409], {k: r.text for k, r in answers.items()}
        winner = next(k for k, r in answers.items() if r.status_code == 200)
        loser = answers["Cara" if winner == "Bob" else "Bob"]
        assert loser.json()["error"]["code"] in ("seat_taken", "already_started")
        # Both servers agree: the winner sits, the game has started.
        for server in (a, b):

            def game(server: str = server, gid: str = gid) -> dict[str, Any]:
                doc: dict[str, Any] = Api(server).http.get(f"/api/games/{gid}").json()["game"]
                return doc

            until(lambda game=game: game()["status"] == "active", f"{server} never heard it")
            assert game()["seats"][1]["name"] == winner


def race(path: str, body: dict[str, Any], people: dict[str, Person]) -> dict[str, httpx.Response]:
    """Each person posts `body` to `path` at the same moment (as near as threads go)."""
    start = threading.Barrier(len(people))
    answers: dict[str, httpx.Response] = {}

    def post(name: str, who: Person) -> None:
        start.wait()
        answers[name] = who.post(path, body)

    threads = [threading.Thread(target=post, args=item) for item in people.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_a_table_opened_on_one_server_is_listed_on_the_other(two: tuple[str, str]) -> None:
    a, b = two
    ann, bob = person(a, "Ann"), person(b, "Bob")
    lobby_b = bob.lobby()
    opened = time.monotonic()
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    lobby_b.until(lambda s: s.table(gid) is not None)
    print(f"a table opened on A reached a lobby on B {time.monotonic() - opened:.3f} s later")
    entry = listed(bob, gid)
    assert entry is not None and entry["creator"] == "Ann" and entry["free"] == [1, 2]
    # Bob sits on B: a lobby on A is told.
    lobby_a = person(a, "Cara").lobby()
    lobby_a.until(lambda s: s.table(gid) is not None)
    assert bob.post(f"/api/games/{gid}/sit", {}).status_code == 200
    lobby_a.until(lambda s: (t := s.table(gid)) is not None and t["free"] == [2])
    lobby_b.until(lambda s: any(g["id"] == gid for g in s.games))
    # Ann starts it early on A: it leaves both lists.
    assert ann.post(f"/api/games/{gid}/start", {"level": "beginner"}).status_code == 200
    lobby_a.until(lambda s: s.table(gid) is None)
    lobby_b.until(lambda s: s.table(gid) is None)
    until(lambda: listed(bob, gid) is None, "B still lists a table started on A")
    lobby_a.close()
    lobby_b.close()


def test_presence_crosses_servers(two: tuple[str, str]) -> None:
    a, b = two
    ann, bob = person(a, "Ann"), person(b, "Bob")
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    assert bob.post(f"/api/games/{gid}/sit", {}).status_code == 200
    ann_table = ann.socket(gid)  # on A
    seen: list[Any] = []

    def ann_told(want: str) -> bool:
        while True:
            try:
                msg = ann_table.recv(0.05)
            except TimeoutError:
                break
            if msg["type"] == "game":
                seen.append(msg["game"]["seats"][1]["presence"])
        return bool(seen) and seen[-1] == want

    def on_a() -> str | None:
        entry = listed(Api(a), gid)
        assert entry is not None
        presence: str | None = entry["seats"][1]["presence"]
        return presence

    assert on_a() == "away"
    lobby = bob.lobby()  # on B
    until(lambda: on_a() == "online", "A never heard Bob's lobby on B")
    until(lambda: ann_told("online"), "Ann's table never told Bob is online")
    bob_table = bob.socket(gid)  # on B
    until(lambda: on_a() == "here", "A never heard Bob at the table on B")
    until(lambda: ann_told("here"), "Ann's table never told Bob is here")
    bob_table.close()
    lobby.close()
    until(lambda: on_a() == "away", "A never heard Bob leave B")
    until(lambda: ann_told("away"), "Ann's table never told Bob is away")
    # And the other way: Ann at her table on A is `here` in B's list.
    entry = listed(Api(b), gid)
    assert entry is not None and entry["seats"][0]["presence"] == "here"
    ann_table.close()


def test_a_killed_server_takes_its_players_presence_with_it(pg_url: str) -> None:
    forget_accounts(pg_url)
    settings = Settings(db_url=pg_url, bot_workers=0, presence_grace=GRACE)
    proc, doomed = spawn(pg_url, "--bot-workers", "0")
    try:
        with running_server(settings) as a:
            ann = person(a, "Ann")
            table = open_table(ann, [HUMAN, HUMAN])
            gid = table["id"]
            bob = Person(doomed)
            assert bob.signup("Bob").status_code == 201
            assert bob.post(f"/api/games/{gid}/sit", {}).status_code == 200
            # Bob's lobby is open on the doomed server; A shows him online.
            lobby = bob.lobby()

            def bobs() -> str | None:
                doc = Api(a).http.get(f"/api/games/{gid}").json()
                presence: str | None = doc["game"]["seats"][1]["presence"]
                return presence

            until(lambda: bobs() == "online", "A never heard Bob online")
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            killed = time.monotonic()
            until(lambda: bobs() == "away", "Bob stayed online after his server died")
            took = time.monotonic() - killed
            print(f"presence of a killed server's player gone after {took:.2f} s")
            lobby.close()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

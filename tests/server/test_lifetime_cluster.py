"""A game's lifetime figures are added exactly once with two servers on one PostgreSQL
database, whichever of them stores its end: a board game whose every action is sent to
both servers at once (so its final action races too), a rated card duel resigned on
the server that does not hold the players' pages, and one whose resignation is sent to
both at once. Each game is counted once (`lifetime_games`), and both servers answer
the figures a replay of the records gives (tests/server/lifetimes.py). Skipped (with
the reason) where PostgreSQL does not answer; under `CI=true` it must run."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.server.common.config import Settings
from tests.server.harness import running_server
from tests.server.lifetimes import Played, Seat, expected, plain, served
from tests.server.people import Person, forget_accounts
from tests.server.playing import play_decisions
from tests.server.test_accounts import query


@pytest.fixture
def two(pg_url: str) -> Iterator[tuple[str, str]]:
    forget_accounts(pg_url)
    settings = Settings(db_url=pg_url, bot_workers=0, bot_pace=0, rate_per_s=5000, rate_burst=5000)
    with running_server(settings) as a, running_server(settings) as b:
        yield a, b


def at_once(calls: list[tuple[Person, str, Any]]) -> list[int]:
    """POST each (person, path, body) at the same moment; the status codes."""
    answers: list[int] = []

    def send(person: Person, path: str, body: Any) -> None:
        answers.append(person.post(path, body).status_code)

    threads = [threading.Thread(target=send, args=c) for c in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    return sorted(answers)


def duel(host: Person, guest: Person, rated: bool, game: str) -> str:
    body = {"game": game, "players": 2, "seats": [{"kind": "human"}] * 2, "rated": rated}
    created = host.post("/api/games", body).json()
    gid: str = created["id"]
    for i, p in enumerate((host, guest)):
        assert p.post(f"/api/games/{gid}/join", {}, token=created["seats"][i]["token"]).is_success
    return gid


def heard(gid: str, *people: Person) -> None:
    """Every server has heard of the game's last version: a resignation judges from the
    decisions its own server knows (enough made: a loss; too few: an abort)."""
    deadline = time.monotonic() + 15
    while len({p.get(f"/api/games/{gid}").json()["version"] for p in people}) > 1:
        assert time.monotonic() < deadline, "the servers never agreed on the version"
        time.sleep(0.05)


def ended_record(person: Person, gid: str, resigned: bool) -> dict[str, Any]:
    """The record as the person's server tells it once it has heard of the end (and of
    the resignation, when the other server stored it)."""
    deadline = time.monotonic() + 15
    while True:
        r = person.get(f"/api/games/{gid}/record")
        if r.status_code == 200:
            doc: dict[str, Any] = r.json()
            if not resigned or any(n["kind"] == "resigned" for n in doc.get("notes", [])):
                return doc
        assert time.monotonic() < deadline, r.text
        time.sleep(0.05)


def test_a_game_ending_on_either_server_counts_once(two: tuple[str, str], pg_url: str) -> None:
    a, b = two
    on_a = {"Ann": Person(a), "Bob": Person(a)}
    on_b = {"Ann": Person(b), "Bob": Person(b)}
    for name, p in on_a.items():
        assert p.signup(name).status_code == 201
    for name, p in on_b.items():
        assert p.login(name).status_code == 200
    names = ("Ann", "Bob")

    def seats(people: dict[str, Person]) -> list[Seat]:
        return [Seat(person=people[n], account=n) for n in names]

    # a whole board game, every action sent to both servers at once
    raced = Played(duel(on_a["Ann"], on_a["Bob"], False, "board"), "board", seats(on_a), False)
    gid, rng, versions = raced.id, random.Random(3), 0
    while True:
        doc = on_a["Ann"].get(f"/api/games/{gid}").json()
        if doc["game"]["status"] == "over":
            break
        seat = doc["views"]["0"]["decision"]["seat"]
        mover = names[seat]
        view = on_a[mover].get(f"/api/games/{gid}").json()
        move = {
            "version": view["version"],
            "seat": seat,
            "action": rng.choice(view["views"][str(seat)]["legal"]),
        }
        path = f"/api/games/{gid}/actions"
        answers = at_once([(on_a[mover], path, move), (on_b[mover], path, move)])
        # one stored, the other refused stale; or both stale, when B stored the last
        # version and A had not heard of it yet (the move is asked again)
        assert answers in ([200, 409], [409, 409]), answers
        versions += 1
        assert versions < 2000, "the game did not end"
    raced.status = "over"

    # a rated duel the pages follow on A, resigned on B
    on_b_only = Played(duel(on_a["Ann"], on_a["Bob"], True, "cards"), "cards", seats(on_a), True)
    play_decisions(on_b_only.id, {0: on_a["Ann"], 1: on_a["Bob"]})
    heard(on_b_only.id, on_a["Ann"], on_b["Ann"])
    r = on_b["Bob"].post(f"/api/games/{on_b_only.id}/seats/1/resign")
    assert r.json()["status"] == "over", r.text  # played: a loss, not an abort
    on_b_only.status = "over"

    # a rated duel resigned on both servers at once: one ends it
    both = Played(duel(on_b["Bob"], on_b["Ann"], True, "cards"), "cards", [], True)
    both.seats = [Seat(person=on_b["Bob"], account="Bob"), Seat(person=on_b["Ann"], account="Ann")]
    play_decisions(both.id, {0: on_b["Bob"], 1: on_b["Ann"]})
    heard(both.id, on_a["Ann"], on_b["Ann"])
    path = f"/api/games/{both.id}/seats/1/resign"
    answers = at_once([(on_a["Ann"], path, {}), (on_b["Ann"], path, {})])
    assert answers[0] == 200 and answers[1] != 200, answers
    both.status = "over"

    games = [raced, on_b_only, both]
    for g in games:
        g.record = ended_record(on_a["Ann"], g.id, resigned=g.rated)
    counted = query(
        pg_url,
        "SELECT game_id, count(*) FROM lifetime_games WHERE game_id IN (:x, :y, :z) "
        "GROUP BY game_id",
        x=raced.id,
        y=on_b_only.id,
        z=both.id,
    )
    assert sorted(r[1] for r in counted) == [1, 1, 1]
    rows = query(
        pg_url,
        "SELECT u.name, l.game, l.games FROM lifetime l JOIN users u ON u.id = l.user_id "
        "ORDER BY u.name, l.game",
    )
    assert [tuple(r) for r in rows] == [
        ("Ann", "board", 1),
        ("Ann", "cards", 2),
        ("Bob", "board", 1),
        ("Bob", "cards", 2),
    ]
    wanted = expected(games)
    for server in (a, b):
        for name in names:
            doc = Person(server).get(f"/api/users/{name}/lifetime").json()
            got = {(s["game"], s["players"]): served(s) for s in doc["sets"]}
            assert got == {k: plain(v) for k, v in wanted[name].items()}, (server, name)

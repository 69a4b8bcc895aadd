"""Quick match over HTTP and the lobby's WebSocket (SQLite, and PostgreSQL when it
answers): guests and foreign pages refused, joining twice changes nothing, leaving,
two players in their lobbies paired into one started game with a clock whose first
move works, nobody paired who is not in a lobby, and a wait that ends unpaired."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from euphrates.server.common.config import Settings
from euphrates.server.features.quickmatch.quickmatch import QuickMatch
from euphrates.server.store import models as db
from tests.server.harness import Api, running_app
from tests.server.people import LobbySocket, Person, forget_accounts
from tests.server.test_tables import GRACE, code, person, until


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, QuickMatch]]:
    """A server without bots, and its quick match (read by the tests, never driven)."""
    settings = Settings(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        presence_grace=GRACE,
    )
    with running_app(settings) as (url, app):
        yield url, app.state.services.quickmatch


def join(p: Person, game: str = "board", **more: Any) -> httpx.Response:
    return p.post("/api/quickmatch", {"game": game, **more})


def leave(p: Person, csrf: bool = True) -> httpx.Response:
    headers = {"x-csrf-token": p.csrf} if csrf and p.csrf else {}
    return p.http.delete("/api/quickmatch", headers=headers)


def state(p: Person) -> dict[str, Any]:
    r = p.get("/api/quickmatch")
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def told(lobby: LobbySocket) -> dict[str, Any] | None:
    """The last quick match state the lobby was told."""
    for text in reversed(lobby.raw):
        if '"type":"quickmatch"' in text:
            doc: dict[str, Any] = json.loads(text)["quickmatch"]
            return doc
    return None


def passes_after(qm: QuickMatch, n: int = 2) -> None:
    """Wait until the pool has been passed over `n` more times (a signal, not a sleep)."""
    start = qm.passes
    until(lambda: qm.passes >= start + n, "the pool was never passed over", timeout=30)


def test_guests_and_foreign_pages_are_refused(served: tuple[str, QuickMatch]) -> None:
    base, _ = served
    guest = Api(base)
    for method in ("GET", "POST", "DELETE"):
        r = guest.http.request(method, "/api/quickmatch", json={"game": "board"})
        assert code(r) == (401, "not_signed_in"), r.text
        assert "sign in" in r.json()["error"]["message"]
    ann = person(base, "Ann")
    assert code(ann.post("/api/quickmatch", {"game": "board"}, csrf=False)) == (403, "csrf_failed")
    assert code(leave(ann, csrf=False)) == (403, "csrf_failed")
    assert state(ann) == {"state": "idle"}, "nothing changed"


def test_what_is_asked_is_checked(served: tuple[str, QuickMatch]) -> None:
    """Every kind no table can be made of is refused, naming what is wrong, and
    nothing changes: a game unknown, 1 or 5 players (or 4 where… every game takes 2–4),
    numbers as text or far too large, a clock no server has, options unknown to the
    game or not booleans, too many of them, a field nobody asked for."""
    base, _ = served
    ann = person(base, "Ann")
    bad: list[tuple[dict[str, Any], str]] = [
        ({"game": "chess"}, "game"),
        ({"game": "board", "players": 5}, "players"),
        ({"game": "board", "players": 1}, "players"),
        ({"game": "board", "players": 0}, "players"),
        ({"game": "board", "players": -3}, "players"),
        ({"game": "board", "players": 10**40}, "players"),
        ({"game": "board", "players": "3"}, "players"),
        ({"game": "board", "players": 3.0}, "players"),
        ({"game": "board", "players": True}, "players"),
        ({"game": "board", "clock": "blitz"}, "clock"),
        ({"game": "board", "clock": "turn:4"}, "clock"),
        ({"game": "board", "clock": "turn:" + "9" * 60}, "clock"),
        ({"game": "board", "clock": 40}, "clock"),
        ({"game": "board", "clock": {"mode": "realtime", "bank": 1}}, "clock"),
        ({"game": "cards", "options": {"advanced": True}}, "advanced"),
        ({"game": "cards", "options": {"open_piles": "yes"}}, "open_piles"),
        ({"game": "cards", "options": {"open_piles": 1}}, "open_piles"),
        ({"game": "cards", "options": {f"o{i}": True for i in range(9)}}, "options"),
        ({"game": "cards", "options": ["open_piles"]}, "options"),
        ({"game": "board", "rated": True}, "rated"),
    ]
    for body, named in bad:
        r = join(ann, **body)
        assert code(r) == (400, "bad_request"), (body, r.text)
        assert named in r.json()["error"]["message"], (body, r.text)
    assert state(ann) == {"state": "idle"}
    r = join(ann, "board", players=4, clock="turn:5", options={"advanced": True})
    assert r.status_code == 200, r.text
    doc = r.json()
    assert (doc["players"], doc["clock"]) == (4, "turn:5")
    assert doc["options"] == {"advanced": True, "open_scores": False}
    assert doc["alike"] == 1


def test_joining_twice_changes_nothing_and_leaving_ends_the_wait(
    served: tuple[str, QuickMatch],
) -> None:
    base, _ = served
    ann = person(base, "Ann")
    r = join(ann)
    assert r.status_code == 200, r.text
    first = r.json()
    assert first["state"] == "waiting" and first["game"] == "board"
    assert first["rating"] == 1000, "unrated: a newcomer's skill on the shown scale"
    assert first["window"] == 100
    assert first["rule"] == {"start": 100, "step": 50, "every": 10, "any_after": 60}
    again = join(ann).json()
    assert again["since"] == first["since"], "the wait goes on"
    r = join(ann, "cards")
    assert code(r) == (409, "already_waiting")
    assert state(ann)["game"] == "board"
    assert leave(ann).json() == {"state": "idle"}
    assert leave(ann).json() == {"state": "idle"}, "leaving twice is no error"
    assert join(ann, "cards").json()["game"] == "cards"
    assert leave(ann).status_code == 200


def test_two_players_in_their_lobbies_are_paired_and_the_first_move_works(
    served: tuple[str, QuickMatch],
) -> None:
    base, _ = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    lobbies = [ann.lobby(), bob.lobby()]
    try:
        for lobby in lobbies:
            lobby.until(lambda lb: told(lb) == {"state": "idle"})
        assert join(ann, "cards").json()["state"] == "waiting"
        lobbies[0].until(lambda lb: (told(lb) or {}).get("state") == "waiting")
        join(bob, "cards")
        for lobby in lobbies:
            lobby.until(lambda lb: (told(lb) or {}).get("state") == "matched")
        matches = [told(lb) for lb in lobbies]
        gid = matches[0]["match"]["id"]  # type: ignore[index]
        assert matches[1]["match"]["id"] == gid  # type: ignore[index]
        assert matches[0]["match"]["opponent"] == "Bob"  # type: ignore[index]
        assert matches[1]["match"]["opponent"] == "Ann"  # type: ignore[index]
        assert matches[0]["match"]["link"] == f"/g/{gid}"  # type: ignore[index]
        assert state(ann)["match"]["id"] == gid
        assert leave(ann).json()["state"] == "matched", "a game made stays"
        again = join(ann, "cards").json()
        assert again["state"] == "matched" and again["match"]["id"] == gid, "a press crossed it"
    finally:
        for lobby in lobbies:
            lobby.close()
    doc = ann.get(f"/api/games/{gid}").json()
    game = doc["game"]
    assert game["game"] == "cards" and game["players"] == 2 and game["status"] == "active"
    assert sorted(s["name"] for s in game["seats"]) == ["Ann", "Bob"]
    assert game["clock"]["mode"] == "realtime" and game["clock"]["preset"] == "medium"
    assert game["clock"]["deadline"] is not None, "the first player's clock runs"
    assert game["rated"] is True, "a quick match is rated"
    mine = doc["you"]["seats"]
    assert len(mine) == 1 and bob.get(f"/api/games/{gid}").json()["you"]["seats"] == [1 - mine[0]]
    assert Api(base).http.get(f"/api/games/{gid}").json()["you"]["seats"] == []
    mover = doc["views"][str(mine[0])]["decision"]
    mover_seat = mover["seat"] if mover else 1 - mine[0]
    owner = ann if mover_seat == mine[0] else bob
    view = owner.get(f"/api/games/{gid}").json()
    body = {"version": view["version"], "seat": mover_seat}
    body["action"] = view["views"][str(mover_seat)]["legal"][0]
    r = owner.post(f"/api/games/{gid}/actions", body)
    assert r.status_code == 200 and r.json() == {"version": 1}, r.text


def test_nobody_is_paired_who_is_not_in_a_lobby(served: tuple[str, QuickMatch]) -> None:
    base, qm = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    ann_lobby = ann.lobby()
    try:
        join(ann)
        join(bob)  # no lobby open: nobody to tell, so nobody to pair
        passes_after(qm)
        assert state(ann)["state"] == state(bob)["state"] == "waiting"
        bob_lobby = bob.lobby()
        try:
            ann_lobby.until(lambda lb: (told(lb) or {}).get("state") == "matched")
            bob_lobby.until(lambda lb: (told(lb) or {}).get("state") == "matched")
        finally:
            bob_lobby.close()
    finally:
        ann_lobby.close()


def test_a_wait_nobody_watches_or_too_long_ends(served: tuple[str, QuickMatch]) -> None:
    base, qm = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    qm.grace = 0.5
    join(ann)
    until(lambda: state(ann) == {"state": "idle"}, "a wait nobody watches never ended")
    qm.grace, qm.longest = 30.0, 0.5
    lobby = bob.lobby()
    try:
        join(bob)
        lobby.until(lambda lb: (told(lb) or {}).get("state") == "waiting")
        lobby.until(lambda lb: told(lb) == {"state": "idle"})
    finally:
        lobby.close()
    assert qm.made == 0


def test_ratings_far_apart_wait_and_the_closest_is_paired(
    served: tuple[str, QuickMatch],
) -> None:
    """Ratings come from the lookup given to quick match: 1500 and 1800 are not paired
    at once (the window starts at ±100); 1780 joining is paired with 1800 at once."""
    base, qm = served
    ratings = {"Ann": 1500.0, "Bob": 1800.0, "Cara": 1780.0}

    async def lookup(engine: Any, user_id: int, game: str, group: str) -> float | None:
        assert game == "board" and group == "2"
        async with engine.connect() as conn:
            query = sa.select(db.users.c.name).where(db.users.c.id == user_id)
            return ratings[(await conn.execute(query)).scalar_one()]

    qm.rating = lookup
    people = {name: person(base, name) for name in ratings}
    lobbies = {name: p.lobby() for name, p in people.items()}
    try:
        assert join(people["Ann"]).json()["skill"] == 1500
        assert join(people["Bob"]).json()["skill"] == 1800
        passes_after(qm)
        assert state(people["Ann"])["state"] == state(people["Bob"])["state"] == "waiting"
        join(people["Cara"])
        lobbies["Cara"].until(lambda lb: (told(lb) or {}).get("state") == "matched")
        assert told(lobbies["Cara"])["match"]["opponent"] == "Bob"  # type: ignore[index]
        assert state(people["Ann"])["state"] == "waiting"
    finally:
        for lobby in lobbies.values():
            lobby.close()


def test_pairs_formed_quickly_under_many_joins(served: tuple[str, QuickMatch]) -> None:
    base, _ = served
    people = [person(base, f"P{i}") for i in range(8)]
    lobbies = [p.lobby() for p in people]
    try:
        for p in people:
            assert join(p).status_code == 200
        for lobby in lobbies:
            lobby.until(lambda lb: (told(lb) or {}).get("state") == "matched")
        games = [told(lb)["match"]["id"] for lb in lobbies]  # type: ignore[index]
        assert sorted(games.count(g) for g in set(games)) == [2, 2, 2, 2]
    finally:
        for lobby in lobbies:
            lobby.close()


def test_the_pass_benchmark_makes_the_tables_the_rule_does(db_url: str) -> None:
    """`euphrates loadtest --quickmatch N` (bench/quickmatch.py) fills the pool and
    passes over it as a server does: the pass makes the tables the rule alone makes,
    and leaves the others waiting — for duels as before and for every kind of table."""
    from euphrates.bench.quickmatch import measure
    from tests.server.harness import run_async

    for pool in ("duels", "mixed"):
        figures = run_async(measure(db_url, 60, 7, pool))
        assert figures["waiting"] == 60 and figures["pool"] == pool
        assert figures["pass_tables"] == figures["tables_by_rule"] > 0
        assert figures["pass_seated"] == figures["seated_by_rule"]
        assert figures["left_waiting"] == 60 - figures["pass_seated"]
        assert {"rule_ms", "pass_ms", "next_pass_ms"} <= set(figures)
    assert figures["kinds"] > 2

"""Open tables over HTTP and WebSocket (SQLite, and PostgreSQL when it answers): opened
by a signed-in creator who sits at it, listed in the lobby, seats taken and left by
accounts with no token, the game starting when the last seat is taken or early with
bots, every refusal with its code, expiry, connections that lose a seat, presence at
the table and in the lobby, and the lobby's socket told of every change."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.server.common.config import Settings
from tests.server.harness import Api, running_server
from tests.server.people import Person, forget_accounts

GRACE = 0.3
"""Seconds a connection still counts after it closed, in these tests (5 by default)."""


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


@pytest.fixture
def site(db_url: str) -> Iterator[str]:
    """A server without bots whose presence forgets a closed connection quickly."""
    settings = Settings(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        presence_grace=GRACE,
    )
    with running_server(settings) as url:
        yield url


def person(base: str, name: str) -> Person:
    p = Person(base)
    assert p.signup(name).status_code == 201
    return p


def open_table(host: Person, seats: list[dict[str, Any]], game: str = "board") -> dict[str, Any]:
    body = {"game": game, "players": len(seats), "seats": seats, "open": True}
    r = host.post("/api/games", body)
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def listed(who: Person | Api, game_id: str) -> dict[str, Any] | None:
    r = who.http.get("/api/tables")
    assert r.status_code == 200, r.text
    return next((t for t in r.json()["tables"] if t["id"] == game_id), None)


def code(r: Any) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def until(check: Any, what: str, timeout: float = 15) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


HUMAN = {"kind": "human"}


def test_an_open_table_needs_a_signed_in_creator_who_sits_at_it(site: str) -> None:
    guest = Api(site)
    body = {"game": "board", "players": 2, "seats": [HUMAN, HUMAN], "open": True}
    assert code(guest.http.post("/api/games", json=body)) == (401, "not_signed_in")
    ann = person(site, "Ann")
    alone = {**body, "seats": [HUMAN, {"kind": "bot", "level": "beginner"}]}
    r = ann.post("/api/games", alone)
    assert code(r) == (400, "bad_request")
    assert "free seat" in r.json()["error"]["message"]

    table = open_table(ann, [HUMAN, HUMAN, {"kind": "bot", "level": "strong"}])
    game = table["game"]
    assert game["open"] is True and game["status"] == "waiting" and game["creator"] == 0
    assert [s["taken"] for s in game["seats"]] == [True, False, True]
    assert game["seats"][0]["name"] == "Ann"

    entry = listed(guest, table["id"])
    assert entry is not None
    assert (
        entry["creator"] == "Ann" and entry["free"] == [1] and entry["link"] == f"/g/{table['id']}"
    )
    assert [s["name"] for s in entry["seats"]] == ["Ann", None, None]
    assert [s["kind"] for s in entry["seats"]] == ["human", "human", "bot"]
    assert entry["seats"][0]["presence"] == "away" and entry["seats"][1]["presence"] is None
    assert entry["seats"][0]["creator"] and not entry["seats"][0]["you"]
    assert entry["options"] == {} and entry["clock"] is None and entry["players"] == 3
    mine = listed(ann, table["id"])
    assert mine is not None and mine["seats"][0]["you"]
    # The creator opens the seat by the account alone, on any browser.
    other = Person(site)
    assert other.login("Ann").status_code == 200
    assert other.get(f"/api/games/{table['id']}").json()["you"] == {"seats": [0], "host": True}


def test_a_clock_and_options_are_listed(site: str) -> None:
    ann = person(site, "Ann")
    body = {
        "game": "cards",
        "players": 2,
        "seats": [HUMAN, HUMAN],
        "open": True,
        "options": {"open_piles": True},
        "clock": {"mode": "realtime", "preset": "fast"},
    }
    r = ann.post("/api/games", body)
    assert r.status_code == 201, r.text
    entry = listed(ann, r.json()["id"])
    assert entry is not None and entry["game"] == "cards"
    assert entry["options"] == {"open_piles": True}
    assert entry["clock"]["mode"] == "realtime" and entry["clock"]["preset"] == "fast"
    assert entry["clock"]["bank"] == 300.0 and entry["clock"]["increment"] == 30.0


def test_sitting_leaving_and_the_game_starting(site: str) -> None:
    ann, bob, cara, dan = (person(site, n) for n in ("Ann", "Bob", "Cara", "Dan"))
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    sit, leave = f"/api/games/{gid}/sit", f"/api/games/{gid}/leave"

    assert code(Api(site).http.post(sit, json={})) == (401, "not_signed_in")
    assert code(bob.post(sit, {}, csrf=False)) == (403, "csrf_failed")
    r = bob.post(sit, {})
    assert r.status_code == 200, r.text
    assert r.json()["you"] == {"seats": [1], "host": False}
    assert r.json()["game"]["seats"][1]["name"] == "Bob"
    assert code(bob.post(sit, {"seat": 2})) == (409, "already_seated")
    assert code(cara.post(sit, {"seat": 1})) == (409, "seat_taken")
    assert code(cara.post(sit, {"seat": 7})) == (400, "bad_request")
    entry = listed(cara, gid)
    assert entry is not None and entry["free"] == [2] and entry["seats"][1]["name"] == "Bob"

    # Bob opens his seat from another browser, by his account alone.
    bob2 = Person(site)
    assert bob2.login("Bob").status_code == 200
    assert bob2.get(f"/api/games/{gid}").json()["you"]["seats"] == [1]

    assert code(ann.post(leave, {})) == (409, "host_stays")
    assert code(cara.post(leave, {})) == (403, "not_your_seat")
    r = bob.post(leave, {})
    assert r.status_code == 200, r.text
    assert r.json()["game"]["seats"][1] == {**r.json()["game"]["seats"][1], "taken": False}
    entry = listed(cara, gid)
    assert entry is not None and entry["free"] == [1, 2]
    assert bob2.get(f"/api/games/{gid}").json()["you"]["seats"] == []

    assert bob.post(sit, {"seat": 2}).status_code == 200
    r = cara.post(sit)
    assert r.status_code == 200, r.text
    assert r.json()["you"]["seats"] == [1]
    assert r.json()["game"]["status"] == "active"
    assert listed(dan, gid) is None
    assert code(dan.post(sit, {})) == (409, "already_started")
    assert code(bob.post(leave, {})) == (409, "already_started")
    # Each player's account lists the game.
    for p in (ann, bob, cara):
        assert gid in [g["id"] for g in p.get("/api/account/games").json()["games"]]

    plain = Api(site).create()
    assert code(dan.post(f"/api/games/{plain['id']}/sit", {})) == (409, "not_open")


def test_invitation_links_of_free_seats_keep_working(site: str) -> None:
    ann, bob = person(site, "Ann"), person(site, "Bob")
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    tokens = {s["seat"]: s["token"] for s in table["seats"]}
    guest = Api(site)
    r = guest.call("POST", f"/api/games/{gid}/join", tokens[1], {"name": "Guest"})
    assert r.status_code == 200, r.text
    assert code(bob.post(f"/api/games/{gid}/sit", {"seat": 1})) == (409, "seat_taken")
    r = bob.post(f"/api/games/{gid}/sit", {})
    assert r.status_code == 200 and r.json()["you"]["seats"] == [2]
    assert r.json()["game"]["status"] == "active"
    # The link of the seat Bob took now needs Bob's account.
    r = guest.call("GET", f"/api/games/{gid}", tokens[2])
    assert code(r) == (403, "account_required")


def test_the_host_starts_early_with_bots(site: str) -> None:
    ann, bob = person(site, "Ann"), person(site, "Bob")
    table = open_table(ann, [HUMAN, HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    assert bob.post(f"/api/games/{gid}/sit", {}).status_code == 200
    assert code(bob.post(f"/api/games/{gid}/start", {"level": "strong"})) == (403, "not_host")
    assert code(ann.post(f"/api/games/{gid}/start", {"level": "grand"})) == (400, "bad_request")
    r = ann.post(f"/api/games/{gid}/start", {"level": "strong"})  # by the account, no token
    assert r.status_code == 200, r.text
    game = r.json()["game"]
    assert game["status"] == "active"
    assert [(s["kind"], s["level"]) for s in game["seats"]] == [
        ("human", None),
        ("human", None),
        ("bot", "strong"),
        ("bot", "strong"),
    ]
    assert listed(bob, gid) is None
    assert code(ann.post(f"/api/games/{gid}/start", {})) == (409, "already_started")
    # The link of a seat a bot took opens nothing now.
    bot_token = table["seats"][3]["token"]
    assert code(Api(site).call("GET", f"/api/games/{gid}", bot_token)) == (403, "bad_token")

    # The host's link starts a game too (no account needed): here an invitation game.
    guest = Api(site)
    plain = guest.create(seats=[HUMAN, HUMAN, HUMAN])
    host = plain["host"]["token"]
    assert code(guest.call("POST", f"/api/games/{plain['id']}/start", host, {})) == (
        409,
        "nobody_seated",
    )
    guest.call("POST", f"/api/games/{plain['id']}/join", plain["seats"][0]["token"], {"name": "A"})
    r = guest.call("POST", f"/api/games/{plain['id']}/start", host)
    assert r.status_code == 200, r.text
    assert [s["level"] for s in r.json()["game"]["seats"]] == [None, "intermediate", "intermediate"]


def test_a_host_who_abandons_closes_the_table(site: str) -> None:
    ann = person(site, "Ann")
    table = open_table(ann, [HUMAN, HUMAN])
    r = ann.post(f"/api/games/{table['id']}/abandon", {})  # the creator's account is the host
    assert r.status_code == 200, r.text
    assert listed(ann, table["id"]) is None
    bob = person(site, "Bob")
    assert code(bob.post(f"/api/games/{table['id']}/sit", {})) == (409, "abandoned")


def test_open_tables_expire_like_other_waiting_games(db_url: str) -> None:
    # Four seconds: a loaded machine took more than one between opening and listing.
    settings = Settings(db_url=db_url, bot_workers=0, waiting_expiry=4.0)
    with running_server(settings) as base:
        ann = person(base, "Ann")
        table = open_table(ann, [HUMAN, HUMAN])
        assert listed(ann, table["id"]) is not None
        until(lambda: listed(ann, table["id"]) is None, "the open table never expired")
        r = person(base, "Bob").post(f"/api/games/{table['id']}/sit", {})
        assert code(r) == (410, "expired")


def test_a_seat_left_or_taken_changes_what_connections_hold(site: str) -> None:
    ann, bob = person(site, "Ann"), person(site, "Bob")
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    # Bob watches the table before sitting: sitting closes that connection, and the
    # next one holds his seat.
    watching = bob.socket(gid)
    assert watching.welcome["you"]["seats"] == []
    assert bob.post(f"/api/games/{gid}/sit", {}).status_code == 200
    closed = watching.next("closed")
    assert closed["code"] == "seats_changed"
    seated = bob.socket(gid)
    assert seated.welcome["you"]["seats"] == [1]
    assert "1" in seated.welcome["views"]
    # Ann's connection holds what it held: it is told of Bob, not closed.
    ann_socket = ann.socket(gid)
    assert ann_socket.welcome["you"] == {"seats": [0], "host": True}
    # Leaving closes Bob's connections: they no longer hold the seat.
    assert bob.post(f"/api/games/{gid}/leave", {}).status_code == 200
    assert seated.next("closed")["code"] == "seats_changed"
    again = bob.socket(gid)
    assert again.welcome["you"]["seats"] == []
    assert "spectator" in again.welcome["views"]
    while ann_socket.next("game")["game"]["seats"][1]["taken"]:
        pass  # Ann is told that the seat is free again
    for c in (watching, seated, ann_socket, again):
        c.close()


def test_presence_at_the_table_and_in_the_lobby(site: str) -> None:
    ann, bob = person(site, "Ann"), person(site, "Bob")
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    assert bob.post(f"/api/games/{gid}/sit", {}).status_code == 200
    watcher = Api(site)

    def in_list(seat: int) -> str | None:
        entry = listed(watcher, gid)
        assert entry is not None
        presence: str | None = entry["seats"][seat]["presence"]
        return presence

    assert in_list(1) == "away"
    at_table = ann.socket(gid)
    until(lambda: in_list(0) == "here", "Ann at her table")

    # Ann's table is told of Bob as he comes and goes: the lobby, the table, away.
    told: list[str | None] = []

    def ann_sees(want: str) -> bool:
        for _ in range(20):
            try:
                msg = at_table.recv(0.05)
            except TimeoutError:
                break
            if msg["type"] in ("game", "welcome"):
                told.append(msg["game"]["seats"][1]["presence"])
        return bool(told) and told[-1] == want

    lobby = bob.lobby()
    until(lambda: in_list(1) == "online", "Bob online in the lobby")
    until(lambda: ann_sees("online"), "Ann's table told Bob is online")
    bob_table = bob.socket(gid)
    until(lambda: in_list(1) == "here", "Bob at the table")
    until(lambda: ann_sees("here"), "Ann's table told Bob is here")
    bob_table.close()
    until(lambda: in_list(1) == "online", "Bob back in the lobby only")
    lobby.close()
    until(lambda: in_list(1) == "away", "Bob away")
    until(lambda: ann_sees("away"), "Ann's table told Bob is away")
    at_table.close()


def test_the_lobby_socket_is_told_of_every_change(site: str) -> None:
    ann, bob, cara = (person(site, n) for n in ("Ann", "Bob", "Cara"))
    lobby = bob.lobby()
    assert lobby.you is not None and lobby.you["name"] == "Bob"
    guest = LobbyOf(site)
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    lobby.until(lambda s: s.table(gid) is not None)
    guest.lobby.until(lambda s: s.table(gid) is not None)
    entry = lobby.table(gid)
    assert entry is not None and entry["free"] == [1, 2] and entry["creator"] == "Ann"

    assert bob.post(f"/api/games/{gid}/sit", {}).status_code == 200
    lobby.until(lambda s: (t := s.table(gid)) is not None and t["seats"][1]["you"])
    # Bob's own games now hold it, with who sits where and whether they are online.
    lobby.until(lambda s: any(g["id"] == gid for g in s.games))
    mine = next(g for g in lobby.games if g["id"] == gid)
    assert [s["name"] for s in mine["seats"]] == ["Ann", "Bob", None]
    assert mine["seats"][1]["presence"] == "online"  # this very lobby
    guest.lobby.until(lambda s: (t := s.table(gid)) is not None and t["free"] == [2])
    assert not any(s["you"] for s in guest.lobby.table(gid)["seats"])  # type: ignore[index]

    assert cara.post(f"/api/games/{gid}/sit", {}).status_code == 200
    lobby.until(lambda s: s.table(gid) is None)
    guest.lobby.until(lambda s: s.table(gid) is None)
    lobby.until(lambda s: any(g["id"] == gid and g["status"] == "active" for g in s.games))
    lobby.close()
    guest.lobby.close()


class LobbyOf:
    """A lobby socket of a browser not signed in."""

    def __init__(self, base: str) -> None:
        self.lobby = Person(base).lobby()
        assert self.lobby.you is None

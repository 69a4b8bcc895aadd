"""Deleting an account is a change of every game it plays (game/seating.py,
`account_left`): nobody waits for a deleted player for ever. In a game being played a
bot plays its seat to the end (`left`), clocked or not; a table still waiting frees
its seat, or is abandoned when the account opened it. Its connections close on every
server process."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.server.common.config import Settings
from euphrates.server.serve import spawn
from tests.server.harness import Api, running_server, stop_processes
from tests.server.people import PASSWORD, Person, forget_accounts


@pytest.fixture
def with_bots(db_url: str) -> Iterator[str]:
    forget_accounts(db_url)
    settings = Settings(db_url=db_url, bot_workers=1, bot_pace=0)
    with running_server(settings) as url:
        yield url


def _game(who: Person, gid: str) -> dict[str, Any]:
    doc: dict[str, Any] = who.get(f"/api/games/{gid}").json()
    return doc


def _until(test: Any, message: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        assert time.monotonic() < deadline, message
        time.sleep(0.05)


def test_a_deleted_players_unclocked_game_goes_on_with_a_bot(with_bots: str) -> None:
    """The bug: Ann deletes her account in an unclocked game against Bob (and a bot),
    and the game waits for her seat for ever. Now a bot plays it to the end."""
    url = with_bots
    ann, bob = Person(url), Person(url)
    ann.signup("Ann")
    bob.signup("Bob")
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "beginner"}]
    game = Api(url).create("cards", seats)
    gid = game["id"]
    for who, seat in ((ann, 0), (bob, 1)):
        assert who.post(f"/api/games/{gid}/join", {}, token=game["seats"][seat]["token"]).is_success
    assert _game(bob, gid)["game"]["status"] == "active"

    assert ann.post("/api/account/delete", {"password": PASSWORD}).json() == {"done": True}
    doc = _game(bob, gid)
    seat = doc["game"]["seats"][0]
    assert seat["kind"] == "bot" and seat["name"].startswith("deleted-"), seat
    assert any(n["kind"] == "left" and n["seat"] == 0 for n in doc["notes"])
    # Bob plays on; whenever the decision is the deleted seat's, its bot answers.
    start = doc["version"]
    bob_token = game["seats"][1]["token"]

    def moved_on() -> bool:
        d = _game(bob, gid)
        view = d["views"]["1"]
        decision = view.get("decision")
        if d["game"]["status"] != "active":
            return True
        if decision is not None and decision["seat"] == 1:
            if d["version"] >= start + 6:
                return True
            r = bob.post(
                f"/api/games/{gid}/actions",
                {"version": d["version"], "seat": 1, "action": view["legal"][0]},
                token=bob_token,
            )
            assert r.status_code in (200, 409), r.text
        return False

    _until(moved_on, "the game waited for the deleted player's seat")
    assert _game(bob, gid)["version"] >= start + 2


def test_a_deleted_players_duel_ends_the_other_winning(with_bots: str) -> None:
    """In a duel there is nobody to play on for: the game ends, the one left winning
    (docs/fair-play.md)."""
    url = with_bots
    ann, bob = Person(url), Person(url)
    ann.signup("Ann")
    bob.signup("Bob")
    game = Api(url).create("cards")
    gid = game["id"]
    for who, seat in ((ann, 0), (bob, 1)):
        assert who.post(f"/api/games/{gid}/join", {}, token=game["seats"][seat]["token"]).is_success
    assert ann.post("/api/account/delete", {"password": PASSWORD}).json() == {"done": True}
    doc = _game(bob, gid)
    assert doc["game"]["status"] == "over"
    assert [(n["kind"], n["seat"]) for n in doc["notes"]] == [("left", 0)]
    record = Person(url).get(f"/api/games/{gid}/record").json()
    assert [(n["kind"], n["seat"]) for n in record["notes"]] == [("left", 0)]


def test_a_deleted_players_waiting_tables(with_bots: str) -> None:
    """A table the account opened is abandoned (its host is gone); at another's table
    its seat is free again, for anyone to sit."""
    url = with_bots
    ann, bob, cara = Person(url), Person(url), Person(url)
    ann.signup("Ann")
    bob.signup("Bob")
    cara.signup("Cara")
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    body = {"game": "board", "players": 3, "seats": seats, "options": {}, "open": True}
    hers = ann.post("/api/games", body).json()["id"]
    his = bob.post("/api/games", body).json()["id"]
    assert ann.post(f"/api/games/{his}/sit", {}).is_success
    assert cara.post(f"/api/games/{hers}/sit", {}).is_success

    assert ann.post("/api/account/delete", {"password": PASSWORD}).json() == {"done": True}
    assert _game(cara, hers)["game"]["status"] == "abandoned"
    table = _game(bob, his)["game"]
    assert table["status"] == "waiting"
    assert [s["taken"] for s in table["seats"]] == [True, False, False], table["seats"]
    assert cara.post(f"/api/games/{his}/sit", {}).is_success


def test_a_deletion_on_one_server_closes_the_accounts_connections_on_another(
    pg_url: str,
) -> None:
    forget_accounts(pg_url)
    procs = []
    try:
        for _ in range(2):
            proc, url = spawn(pg_url, "--bot-workers", "0")
            procs.append((proc, url))
        (_a, here), (_b, there) = procs
        ann = Person(here)
        ann.signup("Ann")
        elsewhere = Person(there)
        assert elsewhere.login("Ann").status_code == 200
        gid = Api(there).create("cards", [{"kind": "human"}, {"kind": "human"}])["id"]
        watching = elsewhere.socket(gid)
        lobby = elsewhere.lobby()
        assert ann.post("/api/account/delete", {"password": PASSWORD}).json() == {"done": True}
        assert watching.next("closed", timeout=10)["code"] == "account_changed"
        lobby_closed = False
        deadline = time.monotonic() + 10
        while not lobby_closed and time.monotonic() < deadline:
            try:
                msg = lobby.recv(0.5)
                lobby_closed = msg.get("type") == "closed"
            except TimeoutError:
                continue
        assert lobby_closed, "the account's lobby on the other server stayed open"
        assert elsewhere.me()["user"] is None
    finally:
        stop_processes([p for p, _u in procs])

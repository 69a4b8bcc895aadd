"""Following players (SQLite, and PostgreSQL when it answers): by name, no consent
asked and nothing sent to anyone; whom one follows, online first, with the games one
may watch; the lobby's friends panel told live when a followed player comes, goes or
starts a game; the limit; and blocks, which win over follows — written as the exploits
they stop: a blocked player following the blocker to watch them, a follow made before
a block still showing, a blocker following the one they block."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from euphrates.server.common.config import Settings
from euphrates.server.features.friends.friends import Friends
from tests.server.harness import Api, running_app
from tests.server.people import LobbySocket, Person, forget_accounts
from tests.server.test_tables import GRACE, HUMAN, code, open_table, person


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, Friends]]:
    settings = Settings(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        presence_grace=GRACE,
    )
    with running_app(settings) as (url, app):
        yield url, app.state.services.friends


def follow(p: Person, name: str, csrf: bool = True) -> httpx.Response:
    headers = {"x-csrf-token": p.csrf} if csrf and p.csrf else {}
    return p.http.put(f"/api/follows/{name}", headers=headers)


def unfollow(p: Person, name: str) -> httpx.Response:
    headers = {"x-csrf-token": p.csrf} if p.csrf else {}
    return p.http.delete(f"/api/follows/{name}", headers=headers)


def followed(p: Person) -> list[dict[str, Any]]:
    r = p.get("/api/follows")
    assert r.status_code == 200, r.text
    players: list[dict[str, Any]] = r.json()["players"]
    return players


def entry(lobby: LobbySocket, name: str) -> dict[str, Any] | None:
    """The lobby's friends panel's entry of `name`, as last told."""
    players = (lobby.friends or {}).get("players", [])
    return next((p for p in players if p["name"] == name), None)


def seen(lobby: LobbySocket, name: str, online: bool, games: int | None = None) -> bool:
    e = entry(lobby, name)
    return e is not None and e["online"] is online and (games is None or len(e["games"]) == games)


def test_following_is_by_name_asks_nobody_and_is_undone(served: tuple[str, Friends]) -> None:
    base, _ = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    bob_lobby = bob.lobby()
    try:
        bob_lobby.until(lambda lb: lb.friends is not None)
        before = len(bob_lobby.raw)
        r = follow(ann, "bob")  # names are compared as account names are
        assert r.status_code == 200, r.text
        assert r.json()["players"] == [
            {"name": "Bob", "online": True, "since": r.json()["players"][0]["since"], "games": []}
        ]
        assert follow(ann, "BOB").json()["players"] == r.json()["players"], "again: the same"
        # Bob is not asked nor told: his lobby hears nothing of it, his follows are his.
        bob_lobby.until(lambda lb: lb.friends is not None)
        assert "Ann" not in "".join(bob_lobby.raw[before:])
        assert followed(bob) == []
        assert unfollow(ann, "Bob").json() == {"players": []}
        assert unfollow(ann, "Bob").json() == {"players": []}, "unfollowing twice is no error"
    finally:
        bob_lobby.close()


def test_what_is_asked_is_checked_and_refusals_change_nothing(
    served: tuple[str, Friends],
) -> None:
    base, friends = served
    ann = person(base, "Ann")
    for name in ("Bob", "Cara", "Dan", "Eve"):
        person(base, name)
    guest = Api(base)
    assert code(guest.http.put("/api/follows/Bob")) == (401, "not_signed_in")
    assert code(guest.http.get("/api/follows")) == (401, "not_signed_in")
    assert code(follow(ann, "Bob", csrf=False)) == (403, "csrf_failed"), "a forged request"
    forged = ann.http.put(
        "/api/follows/Bob", headers={"x-csrf-token": "0" * 43, "origin": "https://evil.example"}
    )
    assert code(forged) == (403, "csrf_failed")
    assert code(follow(ann, "Nobody")) == (404, "unknown_user")
    r = follow(ann, "ann")
    assert code(r) == (409, "follow_refused") and "yourself" in r.json()["error"]["message"]
    assert code(follow(ann, "x" * 65))[0] in (400, 404)
    assert followed(ann) == [], "nothing changed"
    friends.follow_limit = 3
    for name in ("Bob", "Cara", "Dan"):
        assert follow(ann, name).status_code == 200
    r = follow(ann, "Eve")
    assert code(r) == (409, "too_many_follows"), r.text
    assert follow(ann, "Dan").status_code == 200, "following one followed already is no more"
    assert [p["name"] for p in followed(ann)] == ["Bob", "Cara", "Dan"]
    assert unfollow(ann, "Cara").status_code == 200
    assert follow(ann, "Eve").status_code == 200


def test_the_lobby_shows_who_comes_goes_and_plays_live(served: tuple[str, Friends]) -> None:
    base, _ = served
    ann, bob, cara = person(base, "Ann"), person(base, "Bob"), person(base, "Cara")
    lobby = ann.lobby()
    try:
        lobby.until(lambda lb: lb.friends == {"players": [], "received": [], "sent": []})
        assert follow(ann, "Bob").status_code == 200
        assert follow(ann, "Cara").status_code == 200
        lobby.until(lambda lb: seen(lb, "Bob", False) and seen(lb, "Cara", False))
        bob_lobby = bob.lobby()
        lobby.until(lambda lb: seen(lb, "Bob", True, 0))
        players = lobby.friends["players"]  # type: ignore[index]
        assert [p["name"] for p in players] == ["Bob", "Cara"], "online first"
        # Bob opens a table: it shows with its link, to watch.
        table = open_table(bob, [HUMAN, HUMAN])
        lobby.until(lambda lb: seen(lb, "Bob", True, 1))
        game = entry(lobby, "Bob")["games"][0]  # type: ignore[index]
        assert game == {
            "id": table["id"],
            "game": "board",
            "players": 2,
            "status": "waiting",
            "rated": False,
            "link": f"/g/{table['id']}",
        }
        # Cara sits down: the game starts, and shows as being played.
        assert cara.post(f"/api/games/{table['id']}/sit", {}).status_code == 200
        lobby.until(
            lambda lb: (entry(lb, "Bob") or {}).get("games", [{}])[0].get("status") == "active"
        )
        lobby.until(lambda lb: seen(lb, "Cara", False, 1))
        # Bob goes: once his grace has passed he shows away, his game still listed.
        bob_lobby.close()
        lobby.until(lambda lb: seen(lb, "Bob", False, 1))
        # At the table he is online again.
        at_table = bob.socket(table["id"])
        try:
            lobby.until(lambda lb: seen(lb, "Bob", True))
        finally:
            at_table.close()
        raw = "".join(lobby.raw)
        assert "user_id" not in raw and "token" not in raw
    finally:
        lobby.close()


# --- blocks win over follows --------------------------------------------------------


def test_a_blocked_player_who_follows_the_blocker_sees_nothing(
    served: tuple[str, Friends],
) -> None:
    """The exploit: Bob blocked Ann; Ann follows Bob to watch when he is online and
    what he plays. The follow is taken (refusing it would tell her of the block) and
    shows Bob away, with no games, however present he is."""
    base, _ = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    assert bob.post("/api/users/Ann/block").json() == {"blocked": True}
    bob_lobby = bob.lobby()
    table = open_table(bob, [HUMAN, HUMAN])
    lobby = ann.lobby()
    try:
        r = follow(ann, "Bob")
        assert r.status_code == 200, r.text
        shown = r.json()["players"]
        assert [(p["name"], p["online"], p["games"]) for p in shown] == [("Bob", False, [])]
        lobby.until(lambda lb: seen(lb, "Bob", False, 0))
        assert followed(ann)[0]["online"] is False
        text = json.dumps(lobby.friends) + r.text
        assert table["id"] not in text and "block" not in text
    finally:
        lobby.close()
        bob_lobby.close()


def test_a_follow_made_before_a_block_stops_showing_at_once(
    served: tuple[str, Friends],
) -> None:
    base, _ = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    assert follow(ann, "Bob").status_code == 200
    bob_lobby = bob.lobby()
    table = open_table(bob, [HUMAN, HUMAN])
    lobby = ann.lobby()
    try:
        lobby.until(lambda lb: seen(lb, "Bob", True, 1))
        assert bob.post("/api/users/Ann/block").status_code == 200
        lobby.until(lambda lb: seen(lb, "Bob", False, 0))  # live: no reload
        assert table["id"] not in json.dumps(lobby.friends)
        assert [(p["online"], p["games"]) for p in followed(ann)] == [(False, [])]
        # Lifted, it shows again.
        r = bob.http.delete("/api/users/Ann/block", headers={"x-csrf-token": bob.csrf or ""})
        assert r.json() == {"blocked": False}
        lobby.until(lambda lb: seen(lb, "Bob", True, 1))
    finally:
        lobby.close()
        bob_lobby.close()


def test_the_blocker_may_not_follow_and_their_old_follow_shows_nothing(
    served: tuple[str, Friends],
) -> None:
    base, _ = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    assert follow(ann, "Bob").status_code == 200
    assert ann.post("/api/users/Bob/block").status_code == 200
    bob_lobby = bob.lobby()
    try:
        r = follow(ann, "Bob")
        assert code(r) == (409, "follow_refused")
        assert "you block" in r.json()["error"]["message"], "her own block, no more"
        assert [(p["online"], p["games"]) for p in followed(ann)] == [(False, [])]
        # Bob, blocked, follows Ann: taken, and shows nothing.
        ann_lobby = ann.lobby()
        try:
            assert [(p["name"], p["online"]) for p in follow(bob, "Ann").json()["players"]] == [
                ("Ann", False)
            ]
        finally:
            ann_lobby.close()
    finally:
        bob_lobby.close()

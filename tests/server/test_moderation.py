"""Reports and the admins who settle them: a player reported from their profile, a
report repeated by its reporter counted once, the admin API refused to everyone but
the server's admins, and an admin's mute or disable in force at once — in the server
that took it, and on PostgreSQL in every other server process (the `account` signal)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from euphrates.server.serve import spawn
from tests.server.harness import Api, stop_processes
from tests.server.people import PASSWORD, Person, forget_accounts
from tests.server.test_account_data import admin, table


@pytest.fixture
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


def an_admin(base: str, db_url: str, name: str = "Cleo") -> Person:
    """An account made an admin by `euphrates admin grant`, signed in."""
    person = Person(base)
    assert person.signup(name).status_code == 201
    status, out = admin(db_url, "grant", name)
    assert status == 0 and "is an admin" in out, out
    return person


def cases(who: Person) -> list[dict[str, Any]]:
    r = who.get("/api/admin/reports")
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["reports"]
    return found


@pytest.mark.usefixtures("no_accounts")
def test_a_player_reported_from_their_profile_reaches_the_admins_once(
    base: str, db_url: str
) -> None:
    game, ann, bob = table(base)
    dan = Person(base)
    dan.signup("Dan")
    cleo = an_admin(base, db_url)
    assert cases(cleo) == []
    assert bob.post("/api/users/Ann/report", {"reason": "rude\nall game\x1b"}).json() == {
        "done": True
    }
    # The same reporter again, by another spelling of the name: counted once.
    assert bob.post("/api/users/ANN/report", {"reason": "and again"}).is_success
    assert dan.post("/api/users/ann/report", {}).is_success
    found = cases(cleo)
    assert len(found) == 1, found
    case = found[0]
    assert case["kind"] == "player" and case["game"] is None and case["context"] == []
    assert case["account"] == {"name": "Ann", "muted": False, "disabled": False, "admin": False}
    assert [(r["reporter"], r["reason"]) for r in case["reports"]] == [
        ("Bob", "rude all game"),
        ("Dan", ""),
    ]
    # A line of hers reported twice by Bob: one more case, with the lines around it.
    gid = game["id"]
    for _ in range(2):
        assert bob.post(f"/api/games/{gid}/chat/1/report", {"reason": "hello?"}).is_success
    found = cases(cleo)
    assert [c["kind"] for c in found] == ["player", "chat"]
    line = found[1]
    assert (line["game"], line["seq"], len(line["reports"])) == (gid, 1, 1)
    assert [(x["seq"], x["account"], x["text"], x["reported"]) for x in line["context"]] == [
        (1, "Ann", "ann says hello", True),
        (2, "Bob", "bob whispers zebra", False),
    ]
    # Each case shows the account's other reports: the line's case, the player's.
    assert [(r["kind"], r["reporter"]) for r in line["recent"]] == [
        ("player", "Dan"),
        ("player", "Bob"),
    ]
    assert line["account"]["name"] == "Ann"
    # Refused: oneself, one's own line, nobody, a guest.
    r = ann.post("/api/users/Ann/report", {"reason": "me"})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_request")
    assert ann.post(f"/api/games/{gid}/chat/1/report", {}).status_code == 400
    assert bob.post("/api/users/Nobody/report", {}).json()["error"]["code"] == "unknown_user"
    assert Person(base).post("/api/users/Ann/report", {}).status_code == 401
    long = bob.post("/api/users/Dan/report", {"reason": "x" * 501})
    assert long.status_code == 400, long.text
    # `euphrates admin reports` shows both kinds.
    status, out = admin(db_url, "reports")
    assert status == 0 and "player Ann (open)" in out and "line 1 by Ann (Ann) (open)" in out


@pytest.mark.usefixtures("no_accounts")
def test_the_admin_api_answers_admins_alone(base: str, db_url: str) -> None:
    _game, ann, bob = table(base)
    assert bob.post("/api/users/Ann/report", {"reason": "rude"}).is_success
    anyone = Person(base)
    cleo = an_admin(base, db_url)
    report = cases(cleo)[0]["id"]
    asks = [
        ("GET", "/api/admin/reports", None),
        ("GET", "/api/admin/users/Ann", None),
        ("POST", f"/api/admin/reports/{report}", {"resolution": "muted"}),
        ("POST", "/api/admin/users/Ann", {"muted": True}),
    ]
    for who in (anyone, ann, bob):
        for method, path, body in asks:
            r = who.get(path) if method == "GET" else who.post(path, body)
            assert (r.status_code, r.json()["error"]["code"]) == (403, "not_admin"), (path, r.text)
    # An admin's change carries the session's CSRF token as every other.
    r = cleo.post("/api/admin/users/Ann", {"muted": True}, csrf=False)
    assert r.json()["error"]["code"] == "csrf_failed"
    assert cleo.get("/api/admin/users/Ann").json()["muted"] is False
    # Revoked: refused as anyone.
    assert admin(db_url, "grant", "Cleo", "--revoke")[0] == 0
    assert cleo.get("/api/admin/reports").json()["error"]["code"] == "not_admin"
    assert admin(db_url, "grant", "Nobody")[0] == 1


@pytest.mark.usefixtures("no_accounts")
def test_an_admins_mute_and_disable_take_effect_at_once(base: str, db_url: str) -> None:
    """In the server that took it (on SQLite the only one): the account's connections
    close at once and its next line is refused, with no wait for a signal."""
    game, ann, bob = table(base)
    gid = game["id"]
    cleo = an_admin(base, db_url)
    assert bob.post(f"/api/games/{gid}/chat/1/report", {"reason": "rude"}).is_success
    assert cleo.post("/api/users/Bob/report", {"reason": "spam"}).is_success
    found = cases(cleo)
    line = next(c for c in found if c["kind"] == "chat")
    socket = ann.socket(gid)
    assert socket.welcome["type"] == "welcome"
    r = cleo.post(f"/api/admin/reports/{line['id']}", {"resolution": "muted"})
    assert r.json() == {"done": True}
    assert socket.next("closed", timeout=2)["code"] == "account_changed"
    again = ann.socket(gid)
    again.send({"type": "chat", "id": 3, "text": "still rude"})
    assert again.next("error")["code"] == "muted"
    again.close()
    assert [c["kind"] for c in cases(cleo)] == ["player"]  # the line's report is settled
    settled = cleo.post(f"/api/admin/reports/{line['id']}", {"resolution": "dismissed"})
    assert settled.json()["error"]["code"] == "not_found"
    doc = cleo.get("/api/admin/users/ann").json()
    assert doc["muted"] is True and doc["recent"][0]["resolution"] == "muted"
    # Unmuted, then disabled and enabled, by name.
    assert cleo.post("/api/admin/users/Ann", {"muted": False}).json()["muted"] is False
    assert ann.post(f"/api/games/{gid}/chat", {"text": "sorry"}).is_success
    socket = ann.socket(gid)
    done = cleo.post("/api/admin/users/Ann", {"disabled": True}).json()
    assert done["disabled"] is True
    assert socket.next("closed", timeout=2)["code"] == "account_changed"
    assert ann.me()["user"] is None  # its sessions ended
    assert ann.login("Ann").json()["error"]["code"] == "account_disabled"
    assert cleo.post("/api/admin/users/Ann", {"disabled": False}).json()["disabled"] is False
    assert ann.login("Ann").status_code == 200
    # Bob's report, dismissed: nothing changes for him.
    player = cases(cleo)[0]
    assert cleo.post(f"/api/admin/reports/{player['id']}", {"resolution": "dismissed"}).is_success
    assert cases(cleo) == []
    assert bob.post(f"/api/games/{gid}/chat", {"text": "fine"}).is_success
    # An admin does not disable their own account; an unknown name is refused.
    r = cleo.post("/api/admin/users/Cleo", {"disabled": True})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_request")
    assert cleo.post("/api/admin/users/Nobody", {"muted": True}).status_code == 404


@pytest.mark.usefixtures("no_accounts")
def test_a_guests_line_is_dismissed_but_no_account_is_muted(base: str, db_url: str) -> None:
    api = Api(base)
    created = api.create("board", [{"kind": "human"}, {"kind": "human"}])
    gid, token = created["id"], created["seats"][0]["token"]
    assert api.call("POST", f"/api/games/{gid}/chat", token, {"text": "a guest speaks"}).is_success
    bob = Person(base)
    bob.signup("Bob")
    assert bob.post(f"/api/games/{gid}/chat/1/report", {"reason": "?"}).is_success
    cleo = an_admin(base, db_url)
    case = cases(cleo)[0]
    assert case["account"] is None and case["context"][0]["account"] is None
    r = cleo.post(f"/api/admin/reports/{case['id']}", {"resolution": "muted"})
    assert r.json()["error"]["code"] == "unknown_user"
    assert len(cases(cleo)) == 1  # refused: still open
    assert cleo.post(f"/api/admin/reports/{case['id']}", {"resolution": "dismissed"}).is_success
    assert cases(cleo) == []


def test_an_admins_mute_and_disable_close_connections_on_another_server(pg_url: str) -> None:
    """Two server processes on one PostgreSQL database: the admin acts on one, the
    account's table is open on the other, which closes it within moments."""
    forget_accounts(pg_url)
    procs = []
    try:
        for _ in range(2):
            procs.append(spawn(pg_url, "--bot-workers", "0"))
        (_a, here), (_b, there) = procs
        cleo = an_admin(here, pg_url)
        ann = Person(there)
        assert ann.signup("Ann").status_code == 201
        gid = Api(there).create("cards", [{"kind": "human"}, {"kind": "human"}])["id"]
        assert ann.post(f"/api/games/{gid}/chat", {"text": "rude"}).is_success
        bob = Person(here)
        bob.signup("Bob")
        assert bob.post(f"/api/games/{gid}/chat/1/report", {"reason": "rude"}).is_success
        watching = ann.socket(gid)
        report = cases(cleo)[0]["id"]
        assert cleo.post(f"/api/admin/reports/{report}", {"resolution": "muted"}).is_success
        assert watching.next("closed", timeout=5)["code"] == "account_changed"
        r = ann.post(f"/api/games/{gid}/chat", {"text": "again"})
        assert r.json()["error"]["code"] == "muted"
        watching = ann.socket(gid)
        lobby = ann.lobby()
        assert cleo.post("/api/admin/users/Ann", {"disabled": True}).is_success
        assert watching.next("closed", timeout=5)["code"] == "account_changed"
        assert _lobby_closed(lobby), "the account's lobby on the other server stayed open"
        assert ann.me()["user"] is None
        assert Person(there).login("Ann", PASSWORD).json()["error"]["code"] == "account_disabled"
    finally:
        stop_processes([p for p, _u in procs])


def _lobby_closed(lobby: Any, within: float = 5) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            if lobby.recv(0.5).get("type") == "closed":
                return True
        except TimeoutError:
            continue
        except Exception:  # the connection is gone
            return True
    return False

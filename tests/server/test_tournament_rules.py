"""A tournament's rules as an outsider tries to break them: creating one signed out,
with a forged CSRF proof or absurd numbers; joining twice, after the start, with a
second account; starting someone else's; a flood of tournaments; and a no-show,
whom the clock forfeits so that the round goes on (docs/tournaments.md)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.server.common.config import Settings
from euphrates.server.features.tournaments.tournaments import OPEN_PER_CREATOR
from tests.server.harness import running_app
from tests.server.people import Person, forget_accounts
from tests.server.test_moderation import an_admin
from tests.server.test_tables import person
from tests.server.test_tournaments import REALTIME, create, enter
from tests.server.test_tournaments import settings as played

SPEC = {"name": "Cup", "game": "board", "players": 2, "format": "swiss", "clock": REALTIME}


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


def settings(db_url: str, **more: Any) -> Settings:
    """The tournaments' test server, with a forfeit grace short enough to wait out."""
    return played(db_url, forfeit_grace=0.5, **more)


@pytest.fixture
def served(db_url: str) -> Iterator[str]:
    with running_app(settings(db_url)) as (url, _app):
        yield url


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def test_creating_needs_an_account_a_csrf_proof_and_sane_numbers(served: str) -> None:
    guest = Person(served)
    r = guest.post("/api/tournaments", SPEC)
    assert r.status_code == 401 and code(r) == "not_signed_in"
    ann = person(served, "Ann")
    r = ann.post("/api/tournaments", SPEC, csrf=False)
    assert r.status_code == 403 and code(r) == "csrf_failed"
    r = ann.post("/api/tournaments", SPEC, headers={"x-csrf-token": "forged"})
    assert code(r) == "csrf_failed"
    for bad in (
        {"rounds": 0},
        {"rounds": -3},
        {"rounds": 21},
        {"rounds": 2**64},
        {"rounds": "3"},
        {"players": 5},
        {"players": 1},
        {"most": 100000},
        {"starts_in": 0},
        {"name": ""},
        {"name": "a\x00b"},
        {"name": "x" * 81},
        {"format": "knockout"},
        {"bots": "grandmaster"},
        {"clock": {"mode": "none"}},
        {"options": {"no_such_option": True}},
        {"owner": "Bob"},
    ):
        r = ann.post("/api/tournaments", {**SPEC, **bad})
        assert r.status_code == 400, (bad, r.text)
    assert ann.get("/api/tournaments").json()["tournaments"] == []
    r = ann.post("/api/tournaments", {**SPEC, "format": "robin", "most": 17})
    assert r.status_code == 400 and "16" in r.json()["error"]["message"]


def test_joining_twice_changes_nothing_and_nobody_joins_for_another(served: str) -> None:
    ann, bob = person(served, "Ann"), person(served, "Bob")
    t = create(ann)
    for _ in range(3):
        assert bob.post(f"/api/tournaments/{t['id']}/join").status_code == 200
    doc = bob.get(f"/api/tournaments/{t['id']}").json()
    assert [e["name"] for e in doc["entrants"]] == ["Ann", "Bob"]
    # A body naming someone else is no way in: the route enters the caller or nobody.
    cyd = person(served, "Cyd")
    r = cyd.post(f"/api/tournaments/{t['id']}/join", {"name": "Dee"})
    assert r.status_code in (200, 400)
    names = [e["name"] for e in cyd.get(f"/api/tournaments/{t['id']}").json()["entrants"]]
    assert "Dee" not in names
    assert Person(served).post(f"/api/tournaments/{t['id']}/join").status_code == 401
    for bad in ("nope", "../etc", "x" * 40, "%00"):
        assert bob.post(f"/api/tournaments/{bad}/join").status_code in (400, 404)


def test_start_is_the_creators_and_needs_its_entrants(served: str) -> None:
    ann, bob, cyd = (person(served, n) for n in ("Ann", "Bob", "Cyd"))
    t = create(ann, players=3)
    enter([bob], t["id"])
    r = bob.post(f"/api/tournaments/{t['id']}/start")
    assert r.status_code == 403 and code(r) == "not_creator"
    r = ann.post(f"/api/tournaments/{t['id']}/start")
    assert r.status_code == 409 and code(r) == "too_few_entrants"
    r = ann.post(f"/api/tournaments/{t['id']}/leave")
    assert code(r) == "creator_stays"
    enter([cyd], t["id"])
    assert ann.post(f"/api/tournaments/{t['id']}/start").json()["status"] == "running"
    r = ann.post(f"/api/tournaments/{t['id']}/start")
    assert r.status_code == 409 and code(r) == "already_started"
    dee = person(served, "Dee")
    r = dee.post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 409 and code(r) == "entries_closed"


def test_a_flood_of_tournaments_is_refused(served: str) -> None:
    ann = person(served, "Ann")
    for _ in range(OPEN_PER_CREATOR):
        create(ann)
    r = ann.post("/api/tournaments", SPEC)
    assert r.status_code == 429 and code(r) == "too_many_tournaments"


def test_only_admins_create_where_the_server_says_so(db_url: str) -> None:
    with running_app(settings(db_url, tournaments_by="admins")) as (url, _app):
        ann = person(url, "Ann")
        r = ann.post("/api/tournaments", SPEC)
        assert r.status_code == 403 and code(r) == "admins_only"
        cleo = an_admin(url, db_url)
        assert cleo.post("/api/tournaments", SPEC).status_code == 201


def test_a_second_account_of_one_device_does_not_enter_a_rated_tournament(served: str) -> None:
    ann = person(served, "Ann")
    t = create(ann, rated=True)
    # Ann's second account, signed up from the same browser (its device cookie).
    other = Person(served)
    other.http.cookies.update({k: v for k, v in ann.http.cookies.items() if "device" in k})
    assert other.signup("Ann2").status_code == 201
    r = other.post(f"/api/tournaments/{t['id']}/join")
    assert r.status_code == 403 and code(r) == "second_account"
    # Unrated, the same is no gain to anyone's rating: it may enter.
    u = create(ann)
    assert other.post(f"/api/tournaments/{u['id']}/join").status_code == 200


def test_a_late_entrant_and_a_withdrawal_in_a_swiss(served: str) -> None:
    people = [person(served, n) for n in ("Ann", "Bob", "Cyd", "Dee")]
    t = create(people[0], rounds=4, late=True)
    enter(people[1:3], t["id"])
    ann = people[0]
    assert ann.post(f"/api/tournaments/{t['id']}/start").status_code == 200
    doc = ann.get(f"/api/tournaments/{t['id']}").json()
    assert doc["rounds_played"][0]["byes"] and len(doc["rounds_played"][0]["tables"]) == 1
    # Dee enters late (round 1 of 4 being played), Bob withdraws.
    assert people[3].post(f"/api/tournaments/{t['id']}/join").status_code == 200
    assert people[1].post(f"/api/tournaments/{t['id']}/leave").status_code == 200
    doc = ann.get(f"/api/tournaments/{t['id']}").json()
    assert {e["name"]: e["withdrew"] for e in doc["entrants"]}["Bob"] is True


def test_a_no_show_is_forfeited_by_the_clock_and_the_round_goes_on(served: str) -> None:
    ann, bob = person(served, "Ann"), person(served, "Bob")
    clock = {"mode": "realtime", "bank": 1, "increment": 0}
    t = create(ann, rounds=1, rated=True, clock=clock)
    enter([bob], t["id"])
    assert ann.post(f"/api/tournaments/{t['id']}/start").status_code == 200
    deadline = time.monotonic() + 30
    while True:
        doc = ann.get(f"/api/tournaments/{t['id']}").json()
        if doc["status"] == "over":
            break
        assert time.monotonic() < deadline, doc["rounds_played"]
        time.sleep(0.1)
    table = doc["rounds_played"][0]["tables"][0]
    game = ann.get(f"/api/games/{table['game_id']}").json()
    assert game["game"]["status"] == "aborted"  # nobody played: rated for nobody
    kinds = {n["kind"]: n["seat"] for n in game["notes"]}
    gone = kinds["aborted"]  # who was to move first did not come: out of time, gone
    assert "out_of_time" in kinds
    assert table["places"][gone] == 2 and table["places"][1 - gone] == 1
    assert doc["winner"] == table["seats"][1 - gone]
    scores = {s["name"]: s["score"] for s in doc["standings"]}
    assert scores == {table["seats"][1 - gone]: 1.0, table["seats"][gone]: 0.0}


def test_bots_fill_a_table_where_the_creator_allows_it(served: str) -> None:
    people = [person(served, n) for n in ("Ann", "Bob", "Cyd")]
    t = create(people[0], rounds=1, bots="beginner", rated=True)
    enter(people[1:], t["id"])
    assert people[0].post(f"/api/tournaments/{t['id']}/start").status_code == 200
    doc = people[0].get(f"/api/tournaments/{t['id']}").json()
    tables = doc["rounds_played"][0]["tables"]
    assert len(tables) == 2 and not doc["rounds_played"][0]["byes"]
    assert sorted(sum(1 for s in tb["seats"] if s is None) for tb in tables) == [0, 1]
    assert [s["name"] for s in doc["standings"]] and len(doc["standings"]) == 3


def test_a_crowd_racing_for_the_last_places_never_overfills(served: str) -> None:
    """Twelve members press "enter" at the same moment, one of them from three
    browsers at once, for the three places left: three get in, once each."""
    ann = person(served, "Ann")
    t = create(ann, most=4)
    crowd = [person(served, f"P{i}") for i in range(10)]
    same = crowd[0]
    twins = []
    for _ in range(2):  # P0's other browsers: the same session
        twin = Person(served)
        twin.http.cookies.update(same.http.cookies)
        twin.csrf = same.csrf
        twins.append(twin)
    racers = crowd + twins
    gate = threading.Barrier(len(racers))
    codes: list[int] = []

    def go(p: Person) -> None:
        gate.wait()
        codes.append(p.post(f"/api/tournaments/{t['id']}/join").status_code)

    threads = [threading.Thread(target=go, args=(p,)) for p in racers]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    doc = ann.get(f"/api/tournaments/{t['id']}").json()
    names = [e["name"] for e in doc["entrants"]]
    assert len(names) == 4 and len(set(names)) == 4, names
    assert set(codes) <= {200, 409}, codes

"""Rated games over HTTP: who may create and sit at one, no take-backs, resigning, the
ratings written when the game ends (those who resigned last, bots fixed), the
leaderboard and the profile."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euphrates.match.ladder import shipped
from euphrates.match.ratings import display
from euphrates.server.common.config import Settings
from tests.server.conftest import sqlite_url
from tests.server.harness import Api, running_server
from tests.server.people import Person, forget_accounts
from tests.server.playing import play_decisions


@pytest.fixture
def with_bots(tmp_path: Path) -> Iterator[str]:
    """A server whose bots move at once."""
    settings = Settings(db_url=sqlite_url(tmp_path), bot_workers=1, bot_pace=0)
    with running_server(settings) as url:
        yield url


def rated(person: Person, seats: list[dict[str, Any]], game: str = "cards") -> Any:
    body = {"game": game, "players": len(seats), "seats": seats, "rated": True}
    return person.post("/api/games", body)


def seated(base: str, *names: str, bots: tuple[str, ...] = ()) -> tuple[str, list[Person]]:
    """A rated card game: each named account at its seat (in order), then the bots."""
    people = [Person(base) for _ in names]
    for p, name in zip(people, names, strict=True):
        assert p.signup(name).status_code == 201
    seats: list[dict[str, Any]] = [{"kind": "human"} for _ in names]
    seats += [{"kind": "bot", "level": b} for b in bots]
    r = rated(people[0], seats)
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["game"]["rated"] is True
    for i, p in enumerate(people):
        assert p.post(
            f"/api/games/{game['id']}/join", {}, token=game["seats"][i]["token"]
        ).is_success
    return game["id"], people


def finished_rated_game(base: str) -> tuple[str, dict[str, Any], list[Person]]:
    """A rated card duel between Ann and Bob, played (each made the decisions that make
    it count, docs/fair-play.md) until Bob resigned, which ends it: its id, its
    creation's answer (with the tokens), and the two people."""
    ann, bob = Person(base), Person(base)
    ann.signup("Ann")
    bob.signup("Bob")
    created = rated(ann, [{"kind": "human"}, {"kind": "human"}]).json()
    gid = created["id"]
    for i, p in enumerate((ann, bob)):
        assert p.post(f"/api/games/{gid}/join", {}, token=created["seats"][i]["token"]).is_success
    play_decisions(gid, {0: ann, 1: bob})
    assert bob.post(f"/api/games/{gid}/seats/1/resign").json()["status"] == "over"
    wait_over(ann, gid)
    return gid, created, [ann, bob]


def wait_over(person: Person, gid: str, timeout: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        doc: dict[str, Any] = person.get(f"/api/games/{gid}").json()
        if doc["game"]["status"] == "over":
            return doc
        assert time.monotonic() < deadline, doc["game"]
        time.sleep(0.1)


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def test_a_rated_game_is_for_accounts_and_takes_nothing_back(base: str, db_url: str) -> None:
    forget_accounts(db_url)
    two = [{"kind": "human"}, {"kind": "human"}]
    guest = Person(base)
    assert code(rated(guest, two)) == "not_signed_in"
    ann, bob, eve = Person(base), Person(base), Person(base)
    ann.signup("Ann")
    bob.signup("Bob")
    eve.signup("Eve")
    unmeasured = rated(ann, [{"kind": "human"}, {"kind": "bot", "level": "expert"}])
    assert code(unmeasured) == "bad_request" and "measured rating" in unmeasured.text
    assert code(rated(ann, [{"kind": "bot", "level": "beginner"}] * 2)) == "bad_request"
    game = rated(ann, two).json()
    gid, (t0, t1) = game["id"], [s["token"] for s in game["seats"]]
    r = guest.post(f"/api/games/{gid}/join", {}, token=t1)  # a guest's link
    assert code(r) == "account_required" and "rated" in r.json()["error"]["message"]
    r = ann.post(f"/api/games/{gid}/join", {}, token=t0)
    assert r.is_success
    assert code(ann.post(f"/api/games/{gid}/join", {}, token=t1)) == "already_seated"
    assert bob.post(f"/api/games/{gid}/join", {}, token=t1).is_success
    doc = ann.get(f"/api/games/{gid}").json()
    assert doc["game"]["rated"] is True and doc["game"]["status"] == "active"
    mover = doc["views"]["0"]["decision"]["seat"]
    who = (ann, bob)[mover]
    legal = who.get(f"/api/games/{gid}").json()["views"][str(mover)]["legal"]
    move = {"version": doc["version"], "seat": mover, "action": legal[0]}
    assert who.post(f"/api/games/{gid}/actions", move).is_success
    assert who.get(f"/api/games/{gid}").json()["can_undo"] == {str(mover): False}
    r = who.post(f"/api/games/{gid}/undo", {"version": 1, "seat": mover})
    assert code(r) == "undo_refused" and "rated" in r.json()["error"]["message"]
    assert code(eve.post(f"/api/games/{gid}/seats/0/resign")) == "not_your_seat"
    assert code(bob.post(f"/api/games/{gid}/seats/0/resign")) == "not_your_seat"
    # an open rated table starts early only with bots of a measured level
    body = {"game": "cards", "players": 2, "seats": two, "open": True, "rated": True}
    table = ann.post("/api/games", body).json()
    r = ann.post(f"/api/games/{table['id']}/start", {"level": "expert"})
    assert code(r) == "bad_request" and "measured rating" in r.text
    unrated = Api(base).create("cards")
    r = Api(base).call(
        "POST", f"/api/games/{unrated['id']}/seats/0/resign", unrated["seats"][0]["token"]
    )
    assert code(r) == "not_rated"


def test_two_resign_the_earlier_is_last_both_ratings_move_and_show(with_bots: str) -> None:
    """Three seats — Ann, Bob and a bot — played until each person made the decisions
    that make it count; Ann resigns, a bot of her level plays on; Bob resigns, bots
    finish it. Whoever won on the board, the earlier leaver is last."""
    base = with_bots
    gid, (ann, bob) = seated(base, "Ann", "Bob", bots=("intermediate",))
    play_decisions(gid, {0: ann, 1: bob})
    r = ann.post(f"/api/games/{gid}/seats/0/resign")
    assert r.json() == {"level": "intermediate", "status": "active"}, r.text
    assert code(ann.post(f"/api/games/{gid}/seats/0/resign")) == "not_your_seat"  # no longer hers
    doc = bob.get(f"/api/games/{gid}").json()
    assert [n["kind"] for n in doc["notes"]] == ["resigned"]
    assert doc["game"]["seats"][0]["kind"] == "bot"
    assert bob.post(f"/api/games/{gid}/seats/1/resign").is_success
    wait_over(bob, gid)
    ann_profile = Person(base).get("/api/users/Ann").json()
    bob_profile = Person(base).get("/api/users/Bob").json()
    assert [(g["id"], g["place"], g["before"]) for g in ann_profile["rated"]] == [(gid, 3, 1000)]
    assert [(g["id"], g["place"]) for g in bob_profile["rated"]] == [(gid, 2)]
    assert ann_profile["rated"][0]["replay"] == f"/replay/{gid}"
    a, b = ann_profile["ratings"][0], bob_profile["ratings"][0]
    assert (a["game"], a["group"], a["games"], a["provisional"]) == ("cards", "3-4", 1, True)
    assert a["rating"] < 1000 and b["rating"] > a["rating"]
    assert ann_profile["rated"][0]["after"] == a["rating"]
    board = Person(base).get("/api/leaderboards/cards?players=3-4").json()
    people = [(e["name"], e["rating"]) for e in board["entries"] if not e["bot"]]
    assert people == [("Bob", b["rating"]), ("Ann", a["rating"])]
    bots = {e["name"]: e["rating"] for e in board["entries"] if e["bot"]}
    fixed = shipped()["cards"]["3-4"]
    assert bots == {k: display(v["mu"], v["sigma"]) for k, v in fixed.items()}
    assert [e["place"] for e in board["entries"]] == list(range(1, len(board["entries"]) + 1))
    assert Person(base).get(f"/replay/{gid}").status_code == 200
    record = Person(base).get(f"/api/games/{gid}/record").json()
    assert [n["kind"] for n in record["notes"]] == ["resigned", "resigned"]
    empty = Person(base).get("/api/leaderboards/board?players=3-4").json()
    assert all(e["bot"] for e in empty["entries"])
    assert Person(base).get("/api/leaderboards/cards?players=5").status_code == 400


def test_a_newcomer_moves_a_long_way_against_a_fixed_bot(with_bots: str) -> None:
    base = with_bots
    gid, (cy,) = seated(base, "Cy", bots=("intermediate",))
    board = Person(base).get("/api/leaderboards/cards?players=2").json()
    play_decisions(gid, {0: cy})
    assert cy.post(f"/api/games/{gid}/seats/0/resign").json()["status"] == "over"
    wait_over(cy, gid)
    doc = Person(base).get("/api/users/Cy").json()
    assert doc["rated"][0]["place"] == 2 and doc["rated"][0]["before"] == 1000
    assert doc["ratings"][0]["rating"] < 1000 - 10  # a loss to a bot counts at once
    after = Person(base).get("/api/leaderboards/cards?players=2").json()

    def bots(doc: dict[str, Any]) -> dict[str, int]:
        return {e["name"]: e["rating"] for e in doc["entries"] if e["bot"]}

    assert bots(after) == bots(board)  # the bot's rating stands


def test_the_host_cannot_give_a_rated_games_seat_to_a_bot(with_bots: str) -> None:
    """The exploit: the host of a rated game hands the human opponent's seat to a bot,
    then resigns, so that the opponent is ranked last. The host's powers over seats
    end when a rated game is taken: refused (`rated_seat`), the seat stays the
    opponent's; whoever leaves a duel that was played loses it."""
    base = with_bots
    ann, bob = Person(base), Person(base)
    ann.signup("Ann")
    bob.signup("Bob")
    created = rated(ann, [{"kind": "human"}, {"kind": "human"}]).json()
    gid, host = created["id"], created["host"]["token"]
    for i, p in enumerate((ann, bob)):
        assert p.post(f"/api/games/{gid}/join", {}, token=created["seats"][i]["token"]).is_success
    r = Api(base).call("POST", f"/api/games/{gid}/seats/1/bot", host, {"level": "intermediate"})
    assert r.status_code == 403 and r.json()["error"]["code"] == "rated_seat", r.text
    seats = ann.get(f"/api/games/{gid}").json()["game"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "human"] and seats[1]["name"] == "Bob"
    play_decisions(gid, {0: ann, 1: bob})
    assert bob.post(f"/api/games/{gid}/seats/1/resign").is_success
    wait_over(ann, gid)
    places = {
        name: Person(base).get(f"/api/users/{name}").json()["rated"][0]["place"]
        for name in ("Ann", "Bob")
    }
    assert places == {"Ann": 1, "Bob": 2}


def test_quick_match_pairs_by_the_skill_estimate(with_bots: str, tmp_path: Path) -> None:
    """After a rated duel, quick match reads the account's μ on the shown scale (1000 +
    40 × (μ − 25)), not the conservative shown rating: a newcomer is matched at 1000."""
    import sqlite3

    _gid, _created, (ann, bob) = finished_rated_game(with_bots)
    with sqlite3.connect(f"{tmp_path}/games.db") as conn:
        mus = dict(
            conn.execute(
                "SELECT users.name, ratings.mu FROM ratings JOIN users ON users.id = "
                "ratings.user_id WHERE ratings.game = 'cards' AND ratings.grp = '2'"
            ).fetchall()
        )
    assert set(mus) == {"Ann", "Bob"} and mus["Ann"] != mus["Bob"]
    for person, name in ((ann, "Ann"), (bob, "Bob")):
        r = person.post("/api/quickmatch", {"game": "cards"})
        assert r.status_code == 200, r.text
        assert r.json()["skill"] == round(1000 + 40 * (mus[name] - 25))
        assert person.post("/api/quickmatch", {"game": "board"}).status_code == 409
        gone = person.http.delete("/api/quickmatch", headers={"x-csrf-token": person.csrf or ""})
        assert gone.json()["state"] == "idle"
    cara = Person(with_bots)
    cara.signup("Cara")
    assert cara.post("/api/quickmatch", {"game": "cards"}).json()["skill"] == 1000

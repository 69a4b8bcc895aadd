"""Invitations to a seat by name (SQLite, and PostgreSQL when it answers): the host of
a waiting table invites a member to a free seat; the guest's lobby shows it live and a
mail and a webhook call tell them; accepting seats their account, no token handed
anywhere. Then every abuse first, as its exploit: inviting to someone else's table, to
a taken seat, oneself, a flood; taking someone else's invitation, a seat taken
meanwhile, twice; forged requests, numbers out of range; blocks either way; and that
following sends nobody anything, so that there is nothing to spam."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from euphrates.server.common.config import Settings
from euphrates.server.features.friends.friends import NOT_INVITED, Friends
from tests.server.harness import Api, running_app
from tests.server.notifying import enrol, execute, rows, settings, wait_for
from tests.server.people import LobbySocket, Person, forget_accounts
from tests.server.sinks import sinks
from tests.server.test_tables import GRACE, HUMAN, code, open_table, person, until

BOT = {"kind": "bot", "level": "beginner"}


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


@pytest.fixture
def served(db_url: str) -> Iterator[tuple[str, Friends]]:
    s = Settings(
        db_url=db_url,
        bot_workers=0,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        presence_grace=GRACE,
    )
    with running_app(s) as (url, app):
        yield url, app.state.services.friends


def invite(
    host: Person, gid: str, name: Any, seat: Any, token: str | None = None
) -> httpx.Response:
    return host.post(f"/api/games/{gid}/invitations", {"name": name, "seat": seat}, token=token)


def received(p: Person) -> list[dict[str, Any]]:
    r = p.get("/api/invitations")
    assert r.status_code == 200, r.text
    out: list[dict[str, Any]] = r.json()["received"]
    return out


def accept(p: Person, invitation: str) -> httpx.Response:
    return p.post(f"/api/invitations/{invitation}/accept")


def withdraw(p: Person, invitation: str) -> httpx.Response:
    return p.http.delete(f"/api/invitations/{invitation}", headers={"x-csrf-token": p.csrf or ""})


def secrets_of(table: dict[str, Any]) -> list[str]:
    """Every token a game's creation answer handed out."""
    return [table["host"]["token"], *(s["token"] for s in table["seats"] if s.get("token"))]


def told(lobby: LobbySocket, key: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = (lobby.friends or {}).get(key, [])
    return found


def test_a_guest_is_told_live_and_by_message_and_accepting_seats_their_account(
    db_url: str,
) -> None:
    with (
        sinks() as (smtp, http),
        running_app(settings(db_url, smtp, presence_grace=GRACE)) as (
            base,
            _app,
        ),
    ):
        ann = person(base, "Ann")
        bob = Person(base)
        address = enrol(bob, "Bob", smtp, http)
        bob_lobby, ann_lobby = bob.lobby(), ann.lobby()
        try:
            bob_lobby.until(lambda lb: lb.friends is not None)
            table = open_table(ann, [HUMAN, HUMAN, HUMAN])
            gid = table["id"]
            r = invite(ann, gid, "bob", 1)
            assert r.status_code == 201, r.text
            made = r.json()
            assert made["name"] == "Bob" and made["seat"] == 1 and made["link"] == f"/g/{gid}"
            bob_lobby.until(lambda lb: len(told(lb, "received")) == 1)
            item = told(bob_lobby, "received")[0]
            assert {k: item[k] for k in ("id", "host", "game", "players", "seat", "link")} == {
                "id": made["id"],
                "host": "Ann",
                "game": "board",
                "players": 3,
                "seat": 1,
                "link": f"/g/{gid}",
            }
            ann_lobby.until(lambda lb: [s["name"] for s in told(lb, "sent")] == ["Bob"])
            assert received(bob) == told(bob_lobby, "received")
            listed = ann.get(f"/api/games/{gid}/invitations").json()["invitations"]
            assert [(i["name"], i["seat"]) for i in listed] == [("Bob", 1)]
            # The message: who, which table, which seat; a link to the lobby, no token.
            wait_for(smtp, http, address, "Bob", 2, 1)  # the address's code, and this
            mail = smtp.to(address)[-1]
            assert mail.subject == "Ann invites you to Tigris & Euphrates"
            assert (
                "Ann invites you to a table of Tigris & Euphrates for 3 players, seat 2"
                in mail.text
            )
            assert "http://play.example.org/" in mail.text
            hook = http.at("/Bob")[0].json["content"]
            assert hook == mail.text.strip()
            # Accepting: the seat is Bob's account's, opened without a token.
            r = accept(bob, made["id"])
            assert r.status_code == 200, r.text
            assert r.json() == {"game": gid, "seats": [1], "link": f"/g/{gid}"}
            doc = bob.get(f"/api/games/{gid}").json()
            assert doc["you"]["seats"] == [1]
            assert doc["game"]["seats"][1]["name"] == "Bob" and doc["game"]["seats"][1]["taken"]
            bob_lobby.until(lambda lb: told(lb, "received") == [])
            ann_lobby.until(lambda lb: told(lb, "sent") == [])
            assert ann.get(f"/api/games/{gid}/invitations").json() == {"invitations": []}
            # Its link alone no longer opens the seat: the seat is an account's.
            token = table["seats"][1]["token"]
            assert code(Api(base).call("GET", f"/api/games/{gid}", token=token)) == (
                403,
                "account_required",
            )
            # Following and unfollowing again and again sends nothing: only the
            # invitation's two messages are in the outbox.
            for _ in range(10):
                assert ann.http.put(
                    "/api/follows/Bob", headers={"x-csrf-token": ann.csrf or ""}
                ).is_success
                assert ann.http.delete(
                    "/api/follows/Bob", headers={"x-csrf-token": ann.csrf or ""}
                ).is_success
            keys = sorted(str(r.key) for r in rows(db_url, "SELECT key FROM notices"))
            assert keys == [f"invite:{made['id']}"] * 2, keys
            # No token anywhere: answers, lobbies, mail, webhook.
            seen = "".join(bob_lobby.raw + ann_lobby.raw) + mail.raw + json.dumps(hook)
            seen += json.dumps([made, item, listed])
            for secret in secrets_of(table):
                assert secret not in seen
        finally:
            bob_lobby.close()
            ann_lobby.close()


def test_only_the_host_invites_to_a_free_seat_of_a_waiting_table(
    served: tuple[str, Friends],
) -> None:
    base, _ = served
    ann, bob, cara = person(base, "Ann"), person(base, "Bob"), person(base, "Cara")
    table = open_table(ann, [HUMAN, HUMAN, BOT])
    gid = table["id"]
    # Someone else's table: Cara, signed in, with no token, or with a seat's token.
    assert code(invite(cara, gid, "Bob", 1)) == (403, "not_host")
    assert code(invite(cara, gid, "Bob", 1, table["seats"][1]["token"])) == (403, "not_host")
    assert code(
        Api(base).call("POST", f"/api/games/{gid}/invitations", body={"name": "Bob", "seat": 1})
    ) == (
        401,
        "not_signed_in",
    )
    # A seat taken (the host's own), a bot's, numbers out of range or of the wrong kind.
    assert code(invite(ann, gid, "Bob", 0)) == (409, "seat_taken")
    assert code(invite(ann, gid, "Bob", 2)) == (409, "seat_taken")
    for seat in (-1, 4, 99, 2**40, -(2**63), "1", True, 1.0, None):
        assert code(invite(ann, gid, "Bob", seat)) == (400, "bad_request"), seat
    small = open_table(ann, [HUMAN, HUMAN])
    assert code(invite(ann, small["id"], "Bob", 3)) == (400, "bad_request"), "no seat 4 at two"
    # Oneself, nobody, a name too long, fields it does not take, a forged request.
    r = invite(ann, gid, "ANN", 1)
    assert code(r) == (409, "invite_refused") and "yourself" in r.json()["error"]["message"]
    assert code(invite(ann, gid, "Nobody", 1)) == (404, "unknown_user")
    assert code(invite(ann, gid, "x" * 65, 1)) == (400, "bad_request")
    extra = ann.post(f"/api/games/{gid}/invitations", {"name": "Bob", "seat": 1, "token": "t"})
    assert code(extra) == (400, "bad_request")
    forged = ann.post(f"/api/games/{gid}/invitations", {"name": "Bob", "seat": 1}, csrf=False)
    assert code(forged) == (403, "csrf_failed")
    evil = ann.post(
        f"/api/games/{gid}/invitations",
        {"name": "Bob", "seat": 1},
        headers={"origin": "https://evil.example"},
    )
    assert code(evil) == (403, "csrf_failed")
    assert received(bob) == [], "nothing was made"
    # One who sits there already; one invited already.
    assert invite(ann, gid, "Bob", 1).status_code == 201
    assert code(invite(ann, gid, "Bob", 1)) == (409, "invite_refused")
    assert cara.post(f"/api/games/{gid}/sit", {"seat": 1}).status_code == 200
    assert code(invite(ann, small["id"], "Ann", 1)) == (409, "invite_refused")
    # The game started (Cara took the last seat): nobody is invited any more, and the
    # invitation to the seat she took no longer stands.
    assert code(invite(ann, gid, "Cara", 1)) == (409, "already_started")
    assert received(bob) == []


def test_the_host_of_a_linked_game_invites_with_its_link_signed_in(
    served: tuple[str, Friends],
) -> None:
    base, _ = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    r = ann.post("/api/games", {"game": "cards", "players": 2, "seats": [HUMAN, HUMAN]})
    assert r.status_code == 201, r.text
    game = r.json()
    gid, host = game["id"], game["host"]["token"]
    assert ann.post(
        f"/api/games/{gid}/join", {"name": "Ann"}, token=game["seats"][0]["token"]
    ).is_success
    assert code(invite(ann, gid, "Bob", 1)) == (403, "not_host"), "the account alone is no host"
    guest = Api(base)
    r = guest.call(
        "POST", f"/api/games/{gid}/invitations", token=host, body={"name": "Bob", "seat": 1}
    )
    assert code(r) == (401, "not_signed_in"), "an invitation is from someone"
    r = invite(ann, gid, "Bob", 1, token=host)
    assert r.status_code == 201, r.text
    assert [(i["host"], i["game"], i["open"]) for i in received(bob)] == [("Ann", "cards", False)]
    assert accept(bob, r.json()["id"]).json()["seats"] == [1]
    doc = bob.get(f"/api/games/{gid}").json()
    assert doc["game"]["status"] == "active" and doc["you"]["seats"] == [1]


def test_invitations_are_limited_per_hour(served: tuple[str, Friends]) -> None:
    base, friends = served
    friends.invites_per_hour = 3
    ann = person(base, "Ann")
    for name in ("Bob", "Cara", "Dan", "Eve"):
        person(base, name)
    table = open_table(ann, [HUMAN, HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    made = [invite(ann, gid, name, seat) for name, seat in (("Bob", 1), ("Cara", 2), ("Dan", 3))]
    assert [r.status_code for r in made] == [201, 201, 201]
    r = invite(ann, gid, "Eve", 1)
    assert (
        code(r) == (429, "rate_limited") and "3 invitations an hour" in r.json()["error"]["message"]
    )
    # Withdrawn ones still count: a flood is not made of invitations taken back.
    assert withdraw(ann, made[0].json()["id"]).status_code == 200
    assert code(invite(ann, gid, "Eve", 1)) == (429, "rate_limited")


def test_taking_an_invitation_is_the_guests_once_while_its_seat_is_free(
    served: tuple[str, Friends],
) -> None:
    base, _ = served
    ann, bob, cara, dan = (person(base, n) for n in ("Ann", "Bob", "Cara", "Dan"))
    table = open_table(ann, [HUMAN, HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    to_bob = invite(ann, gid, "Bob", 1).json()["id"]
    to_cara = invite(ann, gid, "Cara", 2).json()["id"]
    # Someone else's: refused as if it did not exist, whatever is tried with it.
    assert code(accept(cara, to_bob)) == (404, "unknown_invitation")
    assert code(cara.post(f"/api/invitations/{to_bob}/decline")) == (404, "unknown_invitation")
    assert code(withdraw(cara, to_bob)) == (404, "unknown_invitation")
    assert code(withdraw(bob, to_bob)) == (404, "unknown_invitation"), "the guest is no host"
    assert code(accept(ann, to_bob)) == (404, "unknown_invitation"), "the host is no guest"
    for wrong in ("nope", "a" * 32, "x" * 33, "..%2F..", "%00"):
        assert code(accept(bob, wrong))[0] in (400, 404), wrong
    assert code(cara.post(f"/api/invitations/{to_bob}/accept", csrf=False)) == (403, "csrf_failed")
    assert bob.get(f"/api/games/{gid}").json()["you"]["seats"] == []
    # Taken once: twice is refused, and holds one seat.
    assert accept(bob, to_bob).json()["seats"] == [1]
    assert code(accept(bob, to_bob)) == (409, "invitation_ended")
    # A seat taken meanwhile: Dan sits at Cara's seat before she accepts.
    assert dan.post(f"/api/games/{gid}/sit", {"seat": 2}).status_code == 200
    assert received(cara) == [], "it no longer stands"
    assert code(accept(cara, to_cara)) == (409, "seat_taken")
    # Declined, withdrawn: ended for both.
    eve = person(base, "Eve")
    to_eve = invite(ann, gid, "Eve", 3).json()["id"]
    assert eve.post(f"/api/invitations/{to_eve}/decline").json() == {"done": True}
    assert code(eve.post(f"/api/invitations/{to_eve}/decline")) == (409, "invitation_ended")
    assert code(accept(eve, to_eve)) == (409, "invitation_ended")
    assert code(withdraw(ann, to_eve)) == (409, "invitation_ended")
    to_eve = invite(ann, gid, "Eve", 3).json()["id"]
    assert withdraw(ann, to_eve).json() == {"done": True}
    assert code(accept(eve, to_eve)) == (409, "invitation_ended")
    assert received(eve) == []
    # The game started: an invitation left is refused as the game's start.
    fay = person(base, "Fay")
    to_fay = invite(ann, gid, "Fay", 3).json()["id"]
    assert eve.post(f"/api/games/{gid}/sit", {"seat": 3}).status_code == 200
    assert code(accept(fay, to_fay)) == (409, "already_started")
    doc = fay.get(f"/api/games/{gid}").json()["game"]
    assert [s["name"] for s in doc["seats"]] == ["Ann", "Bob", "Dan", "Eve"]


def test_the_seat_rules_apply_to_an_invited_guest(served: tuple[str, Friends], db_url: str) -> None:
    """A rated table's seat is refused to an account that aborted too many rated games
    lately, invited or not; and a guest holds one seat of a table."""
    base, _ = served
    ann, bob = person(base, "Ann"), person(base, "Bob")
    body = {
        "game": "board",
        "players": 3,
        "seats": [HUMAN, HUMAN, HUMAN],
        "open": True,
        "rated": True,
    }
    r = ann.post("/api/games", body)
    assert r.status_code == 201, r.text
    gid = r.json()["id"]
    to_bob = invite(ann, gid, "Bob", 1).json()["id"]
    bob_id = rows(db_url, "SELECT id FROM users WHERE name = 'Bob'")[0].id
    for _ in range(3):
        execute(
            db_url,
            f"INSERT INTO aborts (user_id, game_id, created_at) VALUES ({bob_id}, '{gid}', "
            "CURRENT_TIMESTAMP)",
        )
    assert code(accept(bob, to_bob)) == (429, "too_many_aborts")
    assert received(bob)[0]["id"] == to_bob, "refused, it still stands"
    execute(db_url, f"DELETE FROM aborts WHERE user_id = {bob_id}")
    assert accept(bob, to_bob).json()["seats"] == [1]
    to_bob_again = invite(ann, gid, "Bob", 2)
    assert code(to_bob_again) == (409, "already_seated")


def test_no_invitation_across_a_block_either_way(served: tuple[str, Friends]) -> None:
    """The exploits: a blocked host inviting the one who blocked them (a message into
    their lobby and mailbox), a blocker inviting the one they block; an invitation made
    before a block, still standing or taken after it. Both refusals say the same, which
    is also what any invitation the guest may not get says."""
    base, _ = served
    ann, bob, cara = person(base, "Ann"), person(base, "Bob"), person(base, "Cara")
    table = open_table(ann, [HUMAN, HUMAN, HUMAN])
    gid = table["id"]
    earlier = invite(ann, gid, "Cara", 2).json()["id"]
    assert bob.post("/api/users/Ann/block").status_code == 200
    r1 = invite(ann, gid, "Bob", 1)
    assert ann.post("/api/users/Cara/block").status_code == 200
    r2 = invite(ann, gid, "Cara", 1)
    assert code(r1) == code(r2) == (409, "invite_refused")
    assert r1.json()["error"]["message"] == r2.json()["error"]["message"] == NOT_INVITED
    assert received(bob) == [] and received(cara) == [], "the earlier one no longer shows"
    assert ann.get("/api/invitations").json()["sent"] == []
    assert code(accept(cara, earlier)) == (409, "invite_refused")
    assert cara.get(f"/api/games/{gid}").json()["you"]["seats"] == []


def test_an_invitation_ends_with_its_game_expiring(db_url: str) -> None:
    s = Settings(db_url=db_url, bot_workers=0, bot_pace=0, rate_per_s=5000, waiting_expiry=1.5)
    with running_app(s) as (base, _app):
        ann, bob = person(base, "Ann"), person(base, "Bob")
        gid = open_table(ann, [HUMAN, HUMAN])["id"]
        made = invite(ann, gid, "Bob", 1).json()["id"]
        assert [i["id"] for i in received(bob)] == [made]
        until(lambda: received(bob) == [], "an invitation outlived its game's wait")
        assert ann.get("/api/invitations").json()["sent"] == []
        assert code(accept(bob, made)) == (410, "expired")


def test_the_account_export_holds_its_follows_and_invitations_and_no_one_elses(
    served: tuple[str, Friends],
) -> None:
    base, _ = served
    ann, bob, cara = person(base, "Ann"), person(base, "Bob"), person(base, "Cara")
    assert ann.http.put("/api/follows/Bob", headers={"x-csrf-token": ann.csrf or ""}).is_success
    assert cara.http.put("/api/follows/Ann", headers={"x-csrf-token": cara.csrf or ""}).is_success
    gid = open_table(ann, [HUMAN, HUMAN, HUMAN])["id"]
    to_bob = invite(ann, gid, "Bob", 1).json()["id"]
    assert invite(ann, gid, "Cara", 2).status_code == 201
    assert withdraw(ann, to_bob).status_code == 200
    mine = ann.get("/api/account/export").json()["friends"]
    # Whom Ann follows, not who follows her: Cara's follow is Cara's.
    assert [f["name"] for f in mine["following"]] == ["Bob"]
    assert [(i["guest"], i["seat"], i["state"]) for i in mine["invitations"]] == [
        ("Bob", 1, "withdrawn"),
        ("Cara", 2, "pending"),
    ]
    assert all(i["host"] == "Ann" and i["game"] == gid for i in mine["invitations"])
    assert mine["invitations"][0]["ended"] and mine["invitations"][1]["ended"] is None
    # The guest's export holds the invitation it was sent, and its own follows only.
    theirs = cara.get("/api/account/export").json()["friends"]
    assert [f["name"] for f in theirs["following"]] == ["Ann"]
    assert [(i["host"], i["guest"]) for i in theirs["invitations"]] == [("Ann", "Cara")]
    assert bob.get("/api/account/export").json()["friends"]["following"] == []

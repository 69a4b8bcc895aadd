"""Accounts over HTTP and WebSocket: sign-up, sessions and their end, CSRF, seats
tied to an account, claimed seats, rate limits, no enumeration (SQLite, and
PostgreSQL when it answers)."""

from __future__ import annotations

from typing import Any

import pytest
import sqlalchemy as sa
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from euphrates.server.common.buckets import Buckets
from euphrates.server.common.config import Settings, async_db_url
from euphrates.server.features.accounts import passwords
from euphrates.server.store.database import make_engine
from tests.server.harness import Api, run_async, running_app, running_server
from tests.server.people import PASSWORD, Person, forget_accounts


def query(db_url: str, sql: str, **params: Any) -> list[Any]:
    async def read() -> list[Any]:
        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.connect() as conn:
                return list((await conn.execute(sa.text(sql), params)).all())
        finally:
            await engine.dispose()

    return run_async(read())


CREATE = {"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2}


def cookie(person: Person) -> str:
    return f"euphrates_session={person.session}"


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


def test_sign_up_log_in_log_out(base: str, db_url: str) -> None:
    ann = Person(base)
    r = ann.signup("Ann")
    assert r.status_code == 201, r.text
    assert r.json()["user"]["name"] == "Ann"
    cookie = r.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
    assert "secure" not in cookie  # served over http here
    assert ann.me()["user"]["name"] == "Ann"
    old = ann.session
    assert ann.post("/api/account/logout").json() == {"done": True}
    assert ann.me() == {"user": None, "csrf": None}
    # The ended session is gone on the server: its cookie, sent again, opens nothing.
    again = Person(base)
    assert old is not None
    again.http.cookies.set("euphrates_session", old)
    assert again.me()["user"] is None
    assert ann.login("ann").status_code == 200  # names compare case-insensitively
    assert ann.me()["user"]["name"] == "Ann"
    (stored,) = query(db_url, "SELECT password_hash FROM users")
    assert stored[0].startswith("$argon2id$") and PASSWORD not in stored[0]
    hashes = [r[0] for r in query(db_url, "SELECT id_hash FROM sessions")]
    assert ann.session and ann.session not in hashes and len(hashes) == 1


@pytest.mark.production_argon2
def test_a_password_is_stored_at_the_production_cost(base: str, db_url: str) -> None:
    """The one test with the production hasher (tests/conftest.py gives the others a
    cheap one): argon2-cffi's RFC 9106 low-memory profile, 64 MiB, three passes, four
    lanes; the server's dummy hash for unknown names has the same parameters."""
    ann = Person(base)
    assert ann.signup("Ann").status_code == 201
    (stored,) = query(db_url, "SELECT password_hash FROM users")
    assert stored[0].startswith("$argon2id$v=19$m=65536,t=3,p=4$"), stored[0]
    assert passwords._dummy is not None
    assert passwords._dummy.rsplit("$", 2)[0] == stored[0].rsplit("$", 2)[0]
    assert ann.login("Ann").status_code == 200


def test_names_are_nfc_case_insensitively_unique_and_limited(base: str) -> None:
    p = Person(base)
    assert p.signup("Åsa").status_code == 201
    q = Person(base)
    assert q.signup("A\u030asa").json()["error"]["code"] == "name_taken"  # NFD of the same
    assert q.signup("ÅSA").json()["error"]["code"] == "name_taken"
    assert q.signup("Ａsa").status_code == 201  # a full-width A is another letter's key? no:
    # NFKC folds it to "asa", which is not "åsa": a different name.
    for bad in ("x", "y" * 25, "a\u202eb", " ", "deleted-1", "ab\ncd", "<b>"):
        assert q.signup(bad).json()["error"]["code"] == "bad_name", bad
    assert q.signup("Bob", "short").json()["error"]["code"] == "bad_password"


def test_a_password_is_the_same_whichever_way_its_accents_were_typed(base: str) -> None:
    """A sign-up keeps the password's NFC form; a log-in typed where an accent comes as
    its own mark (NFD: some keyboards, some platforms) is the same password. It was
    refused as a wrong one, and the account locked for its owner's own typing."""
    composed, decomposed = "caf\u00e9 au lait", "cafe\u0301 au lait"
    ann = Person(base)
    assert ann.signup("Zoe", composed).status_code == 201
    assert Person(base).login("Zoe", decomposed).status_code == 200
    assert Person(base).login("Zoe", composed).status_code == 200
    assert ann.post("/api/account/password", {"old": decomposed, "new": "thé vert"}).is_success
    assert Person(base).login("Zoe", "the\u0301 vert").status_code == 200
    assert Person(base).login("Zoe", composed).json()["error"]["code"] == "bad_login"


def test_log_out_everywhere_ends_every_session(base: str) -> None:
    first, second = Person(base), Person(base)
    first.signup("Cem")
    second.login("Cem")
    assert second.me()["user"]["name"] == "Cem"
    assert first.post("/api/account/logout-all").json() == {"ended": 2}
    assert first.me()["user"] is None and second.me()["user"] is None


def test_a_change_a_cookie_authorises_needs_the_csrf_token(base: str) -> None:
    ann = Person(base)
    ann.signup("Ann")
    api = Api(base)
    game = api.create()
    token = game["seats"][0]["token"]
    join = f"/api/games/{game['id']}/join"
    refused = [
        ann.post("/api/account/logout", csrf=False),
        ann.post("/api/account/logout", headers={"x-csrf-token": "0" * 64}),
        ann.post("/api/account/logout", headers={"origin": "http://evil.example"}),
        ann.post("/api/account/logout", headers={"sec-fetch-site": "cross-site"}),
        ann.post(join, {"name": "A"}, token=token, csrf=False),
        ann.post(join, {"name": "A"}, token=token, headers={"origin": "https://evil.example"}),
    ]
    for r in refused:
        assert (r.status_code, r.json()["error"]["code"]) == (403, "csrf_failed"), r.text
    # Nothing happened: still signed in, the seat not taken.
    assert ann.me()["user"]["name"] == "Ann"
    assert not api.call("GET", f"/api/games/{game['id']}").json()["game"]["seats"][0]["taken"]
    assert ann.post("/api/games", CREATE, csrf=False).json()["error"]["code"] == "csrf_failed"
    # A WebSocket from another site's page is refused at the handshake, cookie or not.
    with pytest.raises(InvalidStatus) as refused_socket:
        connect(
            base.replace("http", "ws") + f"/api/games/{game['id']}/ws",
            additional_headers={"origin": "http://evil.example", "cookie": cookie(ann)},
            proxy=None,
        )
    assert refused_socket.value.response.status_code == 403
    # Log-in from another site's page is refused too (log-in CSRF).
    other = Person(base, headers={"origin": "http://evil.example"})
    assert other.login("Ann").json()["error"]["code"] == "csrf_failed"
    assert ann.post(join, {"name": "A"}, token=token).status_code == 200
    assert ann.post("/api/account/logout").status_code == 200


def test_one_account_cannot_act_for_anothers_seat(base: str) -> None:
    ann, bob = Person(base), Person(base)
    ann.signup("Ann")
    bob.signup("Bob")
    game = Api(base).create()
    gid, (t0, t1) = game["id"], [s["token"] for s in game["seats"]]
    assert ann.post(f"/api/games/{gid}/join", {}, token=t0).status_code == 200
    assert bob.post(f"/api/games/{gid}/join", {}, token=t1).status_code == 200
    seats = ann.get(f"/api/games/{gid}").json()["game"]["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob"]  # named by their accounts
    # Each account opens its own seat without a token, on any browser.
    assert ann.get(f"/api/games/{gid}").json()["you"]["seats"] == [0]
    assert bob.get(f"/api/games/{gid}").json()["you"]["seats"] == [1]
    doc = ann.get(f"/api/games/{gid}").json()
    mover = doc["views"]["0"]["decision"]["seat"]
    owner, other = (ann, bob) if mover == 0 else (bob, ann)
    legal = owner.get(f"/api/games/{gid}").json()["views"][str(mover)]["legal"]
    body = {"version": doc["version"], "seat": mover, "action": legal[0]}
    r = other.post(f"/api/games/{gid}/actions", body)
    assert r.json()["error"]["code"] == "not_your_seat"
    r = other.post(f"/api/games/{gid}/actions", body, token=(t0, t1)[mover])  # the link too
    assert r.json()["error"]["code"] == "account_required"
    assert owner.post(f"/api/games/{gid}/actions", body).json() == {"version": 1}
    games = bob.get("/api/account/games").json()["games"]
    assert [(g["id"], g["seats"], g["link"]) for g in games] == [(gid, [1], f"/g/{gid}")]


def test_a_claimed_seats_stolen_link_needs_the_account(base: str) -> None:
    api = Api(base)
    game = api.create()
    gid, t0 = game["id"], game["seats"][0]["token"]
    assert api.call("POST", f"/api/games/{gid}/join", t0, {"name": "Guest"}).status_code == 200
    ann = Person(base)
    ann.signup("Ann")
    r = ann.post(f"/api/games/{gid}/claim", token=t0)
    assert r.status_code == 200, r.text
    assert r.json()["you"]["seats"] == [0]
    assert ann.get("/api/account/games").json()["games"][0]["seats"] == [0]
    # The link alone (a thief's browser, or the guest's old one) no longer acts.
    for r in (
        api.call("GET", f"/api/games/{gid}", t0),
        api.call("POST", f"/api/games/{gid}/join", t0, {"name": "Thief"}),
        api.call("POST", f"/api/games/{gid}/chat", t0, {"text": "hi"}),
        api.call("GET", f"/api/games/{gid}/log", t0),
    ):
        assert (r.status_code, r.json()["error"]["code"]) == (403, "account_required"), r.text
    thief = Person(base)
    thief.signup("Thief")
    assert thief.get(f"/api/games/{gid}", t0).json()["error"]["code"] == "account_required"
    assert thief.post(f"/api/games/{gid}/claim", token=t0).json()["error"]["code"] == (
        "account_required"
    )
    ws = thief.socket(gid, [t0])
    assert ws.welcome["type"] == "error" and ws.welcome["code"] == "account_required"
    ws.close()
    # The account opens it over the WebSocket, with its link or without.
    mine = ann.socket(gid)
    assert mine.welcome["type"] == "welcome" and mine.welcome["you"]["seats"] == [0]
    mine.close()
    assert api.call("GET", f"/api/games/{gid}").status_code == 200  # spectators still watch


def test_log_in_is_rate_limited_per_address_over_every_name(db_url: str) -> None:
    """One address trying many names is stopped by its bucket; a name's own wrong
    passwords are slowed per address (tests/server/test_lockout.py)."""
    settings = Settings(
        db_url=db_url, bot_workers=0, logins_per_minute=4, trusted_proxies=["127.0.0.1"]
    )
    with running_app(settings) as (base, app):
        services = app.state.services
        # The bucket the settings ask for: 4 at once, refilled at 4 a minute.
        assert (services.logins.burst, services.logins.rate) == (4, 4 / 60)
        # The same bucket with no refill while the test runs: on a loaded machine the
        # Argon2id checks of the attempts below may take the 15 s a token takes to come
        # back, and the test would count the clock instead of the attempts.
        services.logins = Buckets(1e-9, 4)
        Person(base).signup("Ann")
        here = Person(base, headers={"x-forwarded-for": "10.0.0.1"})
        answers = [here.login(f"Nobody{i}", "wrong password") for i in range(5)]
        assert [r.status_code for r in answers] == [401, 401, 401, 401, 429]
        assert answers[-1].json()["error"]["code"] == "rate_limited"
        # Other addresses have buckets of their own, whatever name they try.
        elsewhere = Person(base, headers={"x-forwarded-for": "10.0.0.2"})
        assert elsewhere.login("Ann").status_code == 200


def test_unknown_name_and_wrong_password_look_alike(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same answer, after the same work: one Argon2id check each, against hashes
    of the same parameters (so of the same cost). Counted, not timed: a timing on a
    loaded machine says more about the machine."""
    checked: list[str] = []
    real = passwords._verify

    def counting(stored: str, password: str) -> bool:
        checked.append(stored.rsplit("$", 2)[0])  # the algorithm and its parameters
        return real(stored, password)

    monkeypatch.setattr(passwords, "_verify", counting)
    settings = Settings(db_url=db_url, bot_workers=0, logins_per_minute=100)
    with running_server(settings) as base:
        Person(base).signup("Ann")
        p = Person(base)
        unknown, wrong = p.login("Nobody", "whatever pw"), p.login("Ann", "whatever pw")
        assert unknown.status_code == wrong.status_code == 401
        assert unknown.json() == wrong.json()
        assert unknown.json()["error"]["code"] == "bad_login"
    assert len(checked) == 2 and checked[0] == checked[1], checked
    assert checked[0].startswith("$argon2id$v=19$m=")


def test_a_disabled_or_deleted_account_cannot_sign_in(base: str) -> None:
    ann = Person(base)
    ann.signup("Ann")
    assert (
        ann.post("/api/account/delete", {"password": "not it at all"}).json()["error"]["code"]
        == "bad_login"
    )
    assert ann.post("/api/account/delete", {"password": PASSWORD}).json() == {"done": True}
    assert ann.me()["user"] is None
    assert Person(base).login("Ann").json()["error"]["code"] == "bad_login"
    assert Person(base).get("/api/users/Ann").json()["error"]["code"] == "unknown_user"

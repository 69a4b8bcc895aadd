"""Wrong passwords are slowed per account name and client address (accounts/lockout.py,
store/logins.py), on SQLite and PostgreSQL: an attacker failing again and again from
one address waits ever longer, up to the longest wait, with its attempts refused
unchecked meanwhile; the owner, from another address, logs in at once; a right
password clears its pair; every server on the database refuses alike; a password asked
again of a signed-in account is counted the same way.

The clients' addresses are X-Forwarded-For's, from a trusted proxy (the test itself).
Waiting is not slept: a test moves a pair's wait into the past in the database, as if
the time had passed.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import sqlalchemy as sa

from euphrates.server.common.config import Settings, async_db_url
from euphrates.server.features.accounts import passwords
from euphrates.server.features.accounts.lockout import FREE, LONGEST, delay
from euphrates.server.store import models as db
from euphrates.server.store.database import aware, make_engine
from tests.server.harness import run_async, running_server
from tests.server.people import PASSWORD, Person, forget_accounts

ATTACKER = "10.66.0.1"
OWNER = "10.7.0.1"


@pytest.fixture(autouse=True)
def no_accounts(db_url: str) -> None:
    forget_accounts(db_url)


def settings(db_url: str) -> Settings:
    """Per-address buckets lifted: only the pair's delays are at work."""
    return Settings(
        db_url=db_url, bot_workers=0, logins_per_minute=10_000, trusted_proxies=["127.0.0.1"]
    )


def at(base: str, address: str) -> Person:
    return Person(base, headers={"x-forwarded-for": address})


def run(db_url: str, statement: Any) -> list[Any]:
    """One statement on the server's database, committed; its rows, if any."""

    async def go() -> list[Any]:
        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.begin() as conn:
                done = await conn.execute(statement)
                return list(done.all()) if done.returns_rows else []
        finally:
            await engine.dispose()

    return run_async(go())


def stored(db_url: str, address: str, key: str = "ann") -> tuple[int, float] | None:
    """The pair's attempts and the seconds it waits after the last one."""
    t = db.login_failures
    rows = run(
        db_url,
        sa.select(t.c.failures, t.c.last_at, t.c.locked_until).where(
            t.c.name_key == key, t.c.address == address
        ),
    )
    if not rows:
        return None
    failures, last, until = rows[0]
    return failures, 0.0 if until is None else (aware(until) - aware(last)).total_seconds()


def time_passes(db_url: str, address: str, **values: Any) -> None:
    """As if the pair's wait were over (or `values` were what is stored)."""
    t = db.login_failures
    run(
        db_url,
        t.update().where(t.c.address == address).values(values or {"locked_until": t.c.last_at}),
    )


def test_the_wait_doubles_up_to_the_longest() -> None:
    waits = [delay(n) for n in range(1, 25)]
    assert waits[:FREE] == [0.0] * FREE
    assert waits[FREE : FREE + 5] == [1, 2, 4, 8, 16]
    assert max(waits) == LONGEST and waits[-1] == LONGEST
    assert delay(10**6) == LONGEST  # no overflow however long it goes on


def test_an_attacker_waits_ever_longer_and_the_owner_logs_in_at_once(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    checked: list[str] = []
    real = passwords._verify

    def counting(stored_hash: str, password: str) -> bool:
        checked.append(password)
        return real(stored_hash, password)

    monkeypatch.setattr(passwords, "_verify", counting)
    with running_server(settings(db_url)) as base:
        assert Person(base).signup("Ann").status_code == 201
        attacker = at(base, ATTACKER)
        waits = []
        for n in range(1, 21):
            r = attacker.login("Ann", f"guess number {n}")
            assert r.status_code == 401, (n, r.text)
            state = stored(db_url, ATTACKER)
            assert state is not None and state[0] == n
            waits.append(state[1])
            if state[1] >= 4:
                # Refused while it waits, its password not even checked.
                before = len(checked)
                refused = attacker.login("Ann", PASSWORD)
                assert refused.status_code == 429, refused.text
                error = refused.json()["error"]
                assert error["code"] == "rate_limited" and "try again in" in error["message"]
                assert len(checked) == before
                assert stored(db_url, ATTACKER) == state  # and not counted
            if state[1] and n < 20:
                time_passes(db_url, ATTACKER)
        assert waits == [delay(n) for n in range(1, 21)]
        assert waits[-1] == LONGEST and waits[FREE] == 1 and waits == sorted(waits)
        # Its pair waits the longest now; the owner, from their own address, does not.
        assert attacker.login("Ann", PASSWORD).status_code == 429
        owner = at(base, OWNER)
        assert owner.login("Ann").status_code == 200
        assert owner.me()["user"]["name"] == "Ann"
        assert stored(db_url, OWNER) is None
        assert stored(db_url, ATTACKER) == (20, LONGEST)


def test_a_right_password_clears_its_pair_only(db_url: str) -> None:
    with running_server(settings(db_url)) as base:
        assert Person(base).signup("Ann").status_code == 201
        owner, other = at(base, OWNER), at(base, ATTACKER)
        for _ in range(3):
            assert owner.login("ANN", "a typo or two").status_code == 401
            assert other.login("Ann", "a guess or two").status_code == 401
        assert stored(db_url, OWNER) == (3, 0.0)  # one name, however it is written
        assert owner.login("ann").status_code == 200
        assert stored(db_url, OWNER) is None
        assert stored(db_url, ATTACKER) == (3, 0.0)
        # An unknown name is counted alike: the answers say nothing of who exists.
        for _ in range(FREE + 1):
            assert other.login("Nobody", "a guess").status_code == 401
        assert stored(db_url, ATTACKER, "nobody") == (FREE + 1, 1.0)


def test_every_server_on_the_database_refuses_alike(db_url: str) -> None:
    with running_server(settings(db_url)) as one, running_server(settings(db_url)) as two:
        assert Person(one).signup("Ann").status_code == 201
        for n in range(FREE + 4):  # alternately on both servers
            r = at(one if n % 2 else two, ATTACKER).login("Ann", "wrong, wrong")
            assert r.status_code == 401
            time_passes(db_url, ATTACKER)
        assert at(one, ATTACKER).login("Ann", "wrong again").status_code == 401
        state = stored(db_url, ATTACKER)
        assert state == (FREE + 5, 16.0)
        for base in (one, two):
            assert at(base, ATTACKER).login("Ann").json()["error"]["code"] == "rate_limited"
        # A right password on one server, once the wait is over, clears it for both.
        time_passes(db_url, ATTACKER)
        assert at(two, ATTACKER).login("Ann").status_code == 200
        assert stored(db_url, ATTACKER) is None
        assert at(one, ATTACKER).login("Ann", "wrong").status_code == 401


def test_a_password_asked_again_is_counted_as_a_log_in(db_url: str) -> None:
    """A session left open is no faster way to guess the account's password."""
    with running_server(settings(db_url)) as base:
        ann = at(base, ATTACKER)
        assert ann.signup("Ann").status_code == 201
        for n in range(FREE + 3):
            r = ann.post("/api/account/password", {"old": f"guess {n}", "new": "a new secret"})
            assert r.status_code == 401, r.text
            if n < FREE + 2:
                time_passes(db_url, ATTACKER)
        assert stored(db_url, ATTACKER) == (FREE + 3, 4.0)
        r = ann.post("/api/account/delete", {"password": PASSWORD})
        assert r.json()["error"]["code"] == "rate_limited"
        assert ann.me()["user"]["name"] == "Ann"
        time_passes(db_url, ATTACKER)
        assert ann.post("/api/account/delete", {"password": PASSWORD}).json() == {"done": True}


def test_a_long_or_strange_name_is_counted_too(db_url: str) -> None:
    """Names longer than any account's, or that no column could store as they are, are
    counted under their digest: refused alike, never a server error."""
    with running_server(settings(db_url)) as base:
        attacker = at(base, ATTACKER)
        for name in ("\ufdfa" * 20, "nul\x00name", "x" * 200):
            for _ in range(FREE + 1):
                assert attacker.login(name, "a guess").status_code == 401
            refused = attacker.login(name, "a guess")
            assert refused.json()["error"]["code"] == "rate_limited", refused.text
            time_passes(db_url, ATTACKER)
        t = db.login_failures
        assert len(run(db_url, sa.select(t.c.name_key).where(t.c.address == ATTACKER))) == 3


def test_the_waits_are_for_the_pair_not_before(db_url: str) -> None:
    """Only failures count: a quiet day later a pair starts again."""
    with running_server(settings(db_url)) as base:
        attacker = at(base, ATTACKER)
        for _ in range(FREE + 1):
            assert attacker.login("Ann", "a guess").status_code == 401
        day_ago = datetime.now(UTC) - timedelta(days=2)
        time_passes(db_url, ATTACKER, last_at=day_ago, locked_until=day_ago)
        assert attacker.login("Ann", "a guess").status_code == 401
        assert stored(db_url, ATTACKER) == (1, 0.0)


def test_wrong_passwords_against_a_name_lock_no_one_else_out(db_url: str) -> None:
    """The attack as it was: with the default limits, twenty wrong passwords against
    a name from one address; its owner, from another, still logs in at once."""
    strict = Settings(db_url=db_url, bot_workers=0, trusted_proxies=["127.0.0.1"])
    with running_server(strict) as base:
        assert Person(base).signup("Ann").status_code == 201
        attacker = at(base, ATTACKER)
        codes = [attacker.login("Ann", f"guess {n}").status_code for n in range(20)]
        assert codes[:FREE] == [401] * FREE and codes[-1] == 429
        assert at(base, OWNER).login("Ann").status_code == 200

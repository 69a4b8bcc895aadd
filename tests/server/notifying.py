"""What the turn-message tests share: a server with mail and webhooks pointed at the
local sinks, players who verified an address and set a webhook, a two-player game
played through the API, and the outbox read from the database."""

from __future__ import annotations

import random
import re
from typing import Any

import sqlalchemy as sa

from euphrates.server.common.config import Settings, async_db_url
from euphrates.server.store.database import make_engine
from tests.server.harness import run_async
from tests.server.people import Person
from tests.server.sinks import HttpSink, SmtpSink, until

PUBLIC = "http://play.example.org"


def settings(db_url: str, smtp: SmtpSink, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "db_url": db_url,
        "bot_workers": 0,
        "bot_pace": 0,
        "rate_per_s": 5000,
        "rate_burst": 5000,
        "smtp_url": smtp.url,
        "webhook_allow": ["127.0.0.1/32"],
        "public_url": PUBLIC,
        "notify_retry": 0.05,
        **extra,
    }
    return Settings(**values)


def rows(db_url: str, query: str) -> list[Any]:
    async def read() -> list[Any]:
        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.connect() as conn:
                return list((await conn.execute(sa.text(query))).all())
        finally:
            await engine.dispose()

    return run_async(read())


def execute(db_url: str, statement: str) -> None:
    async def write() -> None:
        engine = make_engine(async_db_url(db_url))
        try:
            async with engine.begin() as conn:
                await conn.execute(sa.text(statement))
        finally:
            await engine.dispose()

    run_async(write())


def enrol(person: Person, name: str, smtp: SmtpSink, http: HttpSink) -> str:
    """Sign up, verify an address with the mailed code, set a webhook; the address."""
    assert person.signup(name).status_code == 201
    address = f"{name.lower()}@example.org"
    r = person.post("/api/account/notifications/email", {"email": address})
    assert r.status_code == 200, r.text
    assert r.json()["email"] is None and r.json()["email_pending"] == address
    mail = until(lambda: smtp.to(address), why="the code")[-1]
    found = re.search(r"Your code: ([A-Z0-9-]+)", mail.text)
    assert found is not None, mail.text
    r = person.post("/api/account/notifications/verify", {"code": found.group(1)})
    assert r.status_code == 200, r.text
    assert r.json()["email"] == address and r.json()["email_on"] is True
    r = person.post("/api/account/notifications", {"webhook": http.url(f"/{name}")})
    assert r.status_code == 200 and r.json()["webhook_on"] is True, r.text
    return address


def new_game(ann: Person, bob: Person, clock: dict[str, Any]) -> tuple[str, list[str]]:
    body = {
        "game": "board",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "clock": clock,
    }
    r = ann.post("/api/games", body)
    assert r.status_code == 201, r.text
    doc = r.json()
    tokens = [s["token"] for s in doc["seats"]]
    assert ann.post(f"/api/games/{doc['id']}/join", {}, tokens[0]).status_code == 200
    assert bob.post(f"/api/games/{doc['id']}/join", {}, tokens[1]).status_code == 200
    return doc["id"], tokens


def pending(person: Person, gid: str, token: str, seat: int) -> tuple[int, int | None, list[str]]:
    doc = person.get(f"/api/games/{gid}", token).json()
    view = doc["views"][str(seat)]
    decision = view["decision"]
    return doc["version"], (decision["seat"] if decision else None), view["legal"]


class Table:
    """Two signed-in players of one game, acting through the API. Each may be on a
    server of its own: a server hears of another's versions a moment later, so a
    player reads the game from its server once that server has the last version."""

    def __init__(self, people: list[Person], gid: str, tokens: list[str]) -> None:
        self.people = people
        self.gid = gid
        self.tokens = tokens
        self.rng = random.Random(7)
        self.version = 0
        """The last version an action of this table made."""

    def _read(self, seat: int) -> tuple[int, int | None, list[str]]:
        person, token = self.people[seat], self.tokens[seat]
        found = until(
            lambda: (got := pending(person, self.gid, token, seat))[0] >= self.version and got
        )
        read: tuple[int, int | None, list[str]] = found
        return read

    def whose(self) -> tuple[int, int | None]:
        version, seat, _ = self._read(0)
        return version, seat

    def act(self, person: Person | None = None) -> int | None:
        """The seat to move plays a random legal action; the seat to move after it."""
        _, seat = self.whose()
        assert seat is not None
        who = person or self.people[seat]
        version, _, legal = self._read(seat)
        body = {"version": version, "seat": seat, "action": self.rng.choice(legal)}
        r = who.post(f"/api/games/{self.gid}/actions", body, self.tokens[seat])
        assert r.status_code == 200, r.text
        self.version = int(r.json()["version"])
        return self.whose()[1]


def wait_for(
    smtp: SmtpSink, http: HttpSink, address: str, name: str, mails: int, hooks: int
) -> None:
    """Until the sinks hold that many mails to `address` and calls to `/name`; no more."""
    until(lambda: len(smtp.to(address)) >= mails and len(http.at(f"/{name}")) >= hooks)
    assert len(smtp.to(address)) == mails and len(http.at(f"/{name}")) == hooks


def check_turn_message(text: str, gid: str, name: str, secrets_: list[str]) -> None:
    """Exactly the link, the game and the name: nothing hidden, no token, no address."""
    assert f"{PUBLIC}/g/{gid}" in text and name in text and "Tigris & Euphrates" in text
    for secret in secrets_:
        assert secret not in text
    assert "@" not in text

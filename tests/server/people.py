"""Signed-in clients for the account tests: a browser's cookie jar and the session's
CSRF token, over HTTP and WebSocket."""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from euphrates.server.common.config import async_db_url
from euphrates.server.features.deps import SESSION_COOKIE
from euphrates.server.store import models as db
from euphrates.server.store.database import make_engine, migrate
from tests.server.harness import Client, run_async

PASSWORD = "correct horse battery"


def forget_accounts(db_url: str) -> None:
    """Empty the account tables: on PostgreSQL one database serves a worker's tests,
    and each test signs up its own Ann."""

    async def wipe() -> None:
        engine = make_engine(async_db_url(db_url))
        try:
            await migrate(engine)
            async with engine.begin() as conn:
                await conn.execute(db.quickmatch.delete())
                await conn.execute(db.invitations.delete())
                await conn.execute(db.follows.delete())
                await conn.execute(db.tournament_tables.delete())
                await conn.execute(db.tournament_players.delete())
                await conn.execute(db.tournaments.delete())
                await conn.execute(db.lifetime_opponents.delete())
                await conn.execute(db.lifetime.delete())
                await conn.execute(db.rating_history.delete())
                await conn.execute(db.ratings.delete())
                await conn.execute(db.notices.delete())
                await conn.execute(db.awaiting.delete())
                await conn.execute(db.notify_settings.delete())
                await conn.execute(db.reports.delete())
                await conn.execute(db.account_marks.delete())
                await conn.execute(db.aborts.delete())
                await conn.execute(db.vacations.delete())
                await conn.execute(db.blocks.delete())
                await conn.execute(db.login_failures.delete())
                await conn.execute(db.blocks.delete())
                await conn.execute(db.sessions.delete())
                await conn.execute(db.login_failures.delete())
                await conn.execute(db.games.update().values(creator=None))
                await conn.execute(db.seats.update().values(user_id=None))
                await conn.execute(db.chat.update().values(user_id=None))
                await conn.execute(db.users.delete())
        finally:
            await engine.dispose()

    run_async(wipe())


class Person:
    """One browser: its cookies, the CSRF token its pages read, its origin."""

    def __init__(self, base: str, headers: dict[str, str] | None = None) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=30, headers=headers or {})
        self.csrf: str | None = None

    def signup(self, name: str, password: str = PASSWORD) -> httpx.Response:
        r = self.http.post("/api/account/signup", json={"name": name, "password": password})
        if r.status_code == 201:
            self.csrf = r.json()["csrf"]
        return r

    def login(self, name: str, password: str = PASSWORD) -> httpx.Response:
        r = self.http.post("/api/account/login", json={"name": name, "password": password})
        if r.status_code == 200:
            self.csrf = r.json()["csrf"]
        return r

    def me(self) -> dict[str, Any]:
        doc: dict[str, Any] = self.http.get("/api/account").json()
        return doc

    def post(
        self,
        path: str,
        body: Any = None,
        token: str | None = None,
        csrf: bool = True,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        sent = dict(headers or {})
        if csrf and self.csrf:
            sent.setdefault("x-csrf-token", self.csrf)
        if token:
            sent["authorization"] = f"Bearer {token}"
        return self.http.post(path, json=body if body is not None else {}, headers=sent)

    def get(self, path: str, token: str | None = None) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.http.get(path, headers=headers)

    @property
    def session(self) -> str | None:
        return self.http.cookies.get(SESSION_COOKIE)

    def socket(self, game_id: str, tokens: list[str] | None = None) -> Client:
        """A WebSocket from this browser's page: its origin and its cookie."""
        cookie = f"{SESSION_COOKIE}={self.session}" if self.session else None
        return Client(self.base, game_id, tokens, origin=self.base, cookie=cookie)

    def lobby(self) -> LobbySocket:
        """The lobby's WebSocket from this browser's page."""
        return LobbySocket(self)

    def close(self) -> None:
        self.http.close()


class LobbySocket:
    """The lobby's WebSocket from one browser: the open tables and the account's games
    as last told, and every message received (as text, for leak checks)."""

    def __init__(self, person: Person) -> None:
        url = person.base.replace("http://", "ws://") + "/api/lobby/ws"
        headers = {"origin": person.base}
        if person.session:
            headers["cookie"] = f"{SESSION_COOKIE}={person.session}"
        self.ws: ClientConnection = connect(
            url,
            proxy=None,
            compression=None,
            additional_headers=headers,
            open_timeout=10,
            legacy=True,
        )
        self.raw: list[str] = []
        self.tables: list[dict[str, Any]] = []
        self.games: list[dict[str, Any]] = []
        self.you: dict[str, Any] | None = None
        self.friends: dict[str, Any] | None = None
        first = self.recv()
        assert first["type"] == "lobby", first

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        if msg["type"] == "lobby":
            self.you = msg["you"]
        elif msg["type"] == "tables":
            self.tables = msg["tables"]
        elif msg["type"] == "mine":
            self.games = msg["games"]
        elif msg["type"] == "friends":
            self.friends = msg["friends"]
        return msg

    def until(self, check: Callable[[LobbySocket], bool], timeout: float = 15) -> None:
        """Read until `check` holds of what was told (a deadline, not a sleep)."""
        deadline = time.monotonic() + timeout
        while not check(self):
            left = deadline - time.monotonic()
            assert left > 0, f"the lobby was never told that; last: {self.raw[-3:]}"
            with contextlib.suppress(TimeoutError):
                self.recv(min(left, 1.0))

    def table(self, game_id: str) -> dict[str, Any] | None:
        return next((t for t in self.tables if t["id"] == game_id), None)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

"""A real server in a background thread, and small HTTP and WebSocket clients for tests.

The server runs uvicorn on a free loopback port with its own event loop, exactly as
`euphrates serve` does, so tests cross real sockets (origins, frame limits, closes).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import io
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from websockets.sync.client import ClientConnection, connect

from euphrates.server.common.config import Settings
from euphrates.server.game.patch import patch_in_place
from euphrates.server.transport.app import create_app
from euphrates.server.transport.serving import uvicorn_options

PG_DEFAULT = "postgresql://127.0.0.1:5432/test"

T = TypeVar("T")


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, also from a thread whose event loop is already running (a
    browser test's Playwright keeps one running for the rest of its worker's session):
    then in a thread of its own."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main)
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main).result()


def need_tool(tool: str | None, name: str) -> str:
    """A program a test runs (nginx, openssl): skipped where it is missing, failed under
    `CI=true`, which must have it (.ci/run installs it)."""
    if tool is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true needs {name}")
        pytest.skip(f"skipped: {name} is not installed")
    return tool


def pg_admin_url() -> str:
    return os.environ.get("EUPHRATES_TEST_PG", PG_DEFAULT)


def pg_reachable() -> str | None:
    """None if PostgreSQL answers, else why not."""
    import asyncpg

    async def probe() -> None:
        conn = await asyncpg.connect(pg_admin_url(), timeout=3)
        await conn.close()

    try:
        run_async(probe())
    except Exception as e:
        return f"PostgreSQL at {pg_admin_url()} does not answer: {e}"
    return None


def migrated_sqlite(path: Path) -> None:
    """Apply every migration to a new SQLite file at `path`: a template that tests copy
    for each fresh database, so that a test does not wait on the migrations (some 0.3
    to 0.8 s a database, most of it writing the file). The migrations themselves are
    tested from files of their own."""
    from euphrates.server.store.database import make_engine, migrate

    async def run() -> None:
        engine = make_engine(f"sqlite+aiosqlite:///{path}")
        try:
            await migrate(engine)
        finally:
            await engine.dispose()

    run_async(run())


def create_pg_database(name: str) -> str:
    import asyncpg

    async def make() -> None:
        conn = await asyncpg.connect(pg_admin_url(), timeout=5)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            await conn.execute(f'CREATE DATABASE "{name}"')
        finally:
            await conn.close()

    run_async(make())
    base = pg_admin_url().rsplit("/", 1)[0]
    return f"{base}/{name}"


def drop_pg_database(name: str) -> None:
    import asyncpg

    async def drop() -> None:
        conn = await asyncpg.connect(pg_admin_url(), timeout=5)
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()

    with contextlib.suppress(Exception):
        run_async(drop())


def stop_processes(procs: list[subprocess.Popen[Any]]) -> None:
    """Stop server processes a test started: SIGTERM to all first (they shut down
    together), then wait for each, killing one that does not end."""
    for p in procs:
        if p.poll() is None:
            p.send_signal(signal.SIGTERM)
    for p in procs:
        try:
            p.wait(15)
        except subprocess.TimeoutExpired:
            p.kill()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running_server(settings: Settings) -> Iterator[str]:
    """Serve `create_app(settings)` on a free port; yields the base URL."""
    with running_app(settings) as (url, _app):
        yield url


@contextlib.contextmanager
def running_app(settings: Settings) -> Iterator[tuple[str, Any]]:
    """The same, yielding the application too (tests that reach into the server)."""
    port = free_port()
    app = create_app(settings)
    # The protocol's settings and limits are `euphrates serve`'s own (serving.py).
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", **uvicorn_options(settings)
    )
    server = uvicorn.Server(config)
    server.install_signal_handlers = False  # type: ignore[attr-defined]
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(30)
        # A server that does not stop goes on serving (and using the machine) behind
        # the tests that follow: a defect of its own, not a slow teardown.
        assert not thread.is_alive(), "the test server did not stop within 30 s:\n" + (
            where_stuck(thread)
        )


def where_stuck(thread: threading.Thread) -> str:
    """Where a server's thread and its event loop's tasks wait: what a hung shutdown
    needs to be understood from one failed run."""
    lines: list[str] = []
    frame = sys._current_frames().get(thread.ident or -1)
    if frame is not None:
        lines += traceback.format_stack(frame)
    loop = loop_of(thread)
    for task in asyncio.all_tasks(loop) if loop is not None else ():
        buf = io.StringIO()
        task.print_stack(limit=10, file=buf)
        lines.append(buf.getvalue())
    return "".join(lines)


def loop_of(thread: threading.Thread) -> asyncio.AbstractEventLoop | None:
    frame = sys._current_frames().get(thread.ident or -1)
    while frame is not None:
        loop = frame.f_locals.get("self")
        if isinstance(loop, asyncio.AbstractEventLoop):
            return loop
        frame = frame.f_back
    return None


class Api:
    """HTTP calls; `token` goes into the Authorization header."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=30)

    def create(
        self,
        game: str = "board",
        seats: list[dict[str, Any]] | None = None,
        options: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        seats = seats or [{"kind": "human"}, {"kind": "human"}]
        r = self.http.post(
            "/api/games",
            json={"game": game, "players": len(seats), "seats": seats, "options": options or {}},
        )
        assert r.status_code == 201, r.text
        doc: dict[str, Any] = r.json()
        return doc

    def call(
        self, method: str, path: str, token: str | None = None, body: Any = None
    ) -> httpx.Response:
        headers = {"authorization": f"Bearer {token}"} if token else {}
        return self.http.request(method, path, json=body, headers=headers)


class Client:
    """One WebSocket client: keeps its views up to date from patches and records
    every message it received (as text), for leak checks."""

    def __init__(
        self,
        base: str,
        game_id: str,
        tokens: list[str] | None = None,
        name: str | None = None,
        version: int | None = None,
        history: bool = True,
        origin: str | None = None,
        cookie: str | None = None,
    ) -> None:
        url = base.replace("http://", "ws://") + f"/api/games/{game_id}/ws"
        headers = {"origin": origin} if origin else {}
        if cookie:
            headers["cookie"] = cookie
        self.ws: ClientConnection = connect(
            url,
            proxy=None,
            compression=None,
            additional_headers=headers or None,
            open_timeout=10,
            legacy=True,
        )
        self.raw: list[str] = []
        self.views: dict[str, Any] = {}
        self.version = -1
        self.status = "?"
        self.events: list[dict[str, Any]] = []
        self.can_undo: dict[str, bool] = {}
        hello: dict[str, Any] = {"type": "hello", "tokens": tokens or [], "history": history}
        if name is not None:
            hello["name"] = name
        if version is not None:
            hello["version"] = version
        self.send(hello)
        self.welcome = self.next("welcome", "error")

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        msg: dict[str, Any] = json.loads(text)
        self._absorb(msg)
        return msg

    def _absorb(self, msg: dict[str, Any]) -> None:
        kind = msg.get("type")
        if kind in ("welcome", "sync"):
            if msg.get("views") is not None:
                self.views = msg["views"]
            self.version = msg["version"]
            self.status = msg["game"]["status"]
            self.can_undo = msg.get("can_undo", {})
            for step in msg.get("history", []):
                self.events.extend(step["events"])
        elif kind == "update":
            assert msg["version"] == self.version + 1, (msg["version"], self.version)
            for key, part in msg["views"].items():
                if "patch" in part:
                    self.views[key] = patch_in_place(self.views[key], part["patch"])
                else:
                    self.views[key] = part["full"]
            self.version = msg["version"]
            self.status = msg["status"]
            self.can_undo = msg["can_undo"]
            self.events.extend(msg["events"])
        elif kind == "game":
            self.status = msg["game"]["status"]

    def next(self, *kinds: str, timeout: float = 10) -> dict[str, Any]:
        """The next message of one of `kinds` (others are absorbed on the way)."""
        deadline = time.monotonic() + timeout
        while True:
            msg = self.recv(max(0.01, deadline - time.monotonic()))
            if msg.get("type") in kinds:
                return msg

    def until_version(self, version: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while self.version < version:
            self.recv(max(0.01, deadline - time.monotonic()))

    def drain(self, quiet: float = 0.15) -> None:
        """Read everything that arrives until nothing has for `quiet` seconds."""
        while True:
            try:
                self.recv(quiet)
            except TimeoutError:
                return

    def view(self, seat: int | None = None) -> dict[str, Any]:
        key = "spectator" if seat is None else str(seat)
        view: dict[str, Any] = self.views[key]
        return view

    def act(self, seat: int, action: str, msg_id: Any = 1) -> dict[str, Any]:
        self.send(
            {
                "type": "action",
                "id": msg_id,
                "version": self.version,
                "seat": seat,
                "action": action,
            }
        )
        return self.next("ack", "error")

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()

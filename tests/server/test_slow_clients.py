"""Slow and greedy connections (transport/serving.py): a client that sends a byte a
second — of its headers, of its body, or nothing at all — is cut off at the request
deadline while others are served; a head over the cap is refused; one address holding
the most HTTP connections it may is refused one more, while another address is served,
until it lets one go; a WebSocket leaves that count once upgraded; a trusted proxy's
connections are not counted; and `euphrates serve` keeps the same deadline.

The clients are raw sockets: an HTTP library sends a request whole. The slow ones wait
on their socket between two bytes, so they stop the moment the server answers or
closes. Other addresses are other loopback addresses (127.0.0.2, …: all of 127/8 is
the loopback's on Linux).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from websockets.sync.client import connect

from euphrates.server.common.config import Settings
from euphrates.server.serve import add_arguments, settings_from, spawn
from tests.server.conftest import migrated_sqlite_url
from tests.server.harness import running_server, stop_processes

DEADLINE = 3.0
"""The request deadline of these servers (seconds): long enough for a request of a
loaded machine's client to arrive, short enough to wait for."""
LATE = 3.0
"""How much later than the deadline a loaded machine may close a connection."""
HEAD = b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: a-byte-a-second\r\n\r\n"
CREATE = {"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2}
BODY = json.dumps(CREATE).encode()
POST_HEAD = (
    b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
    b"content-length: %d\r\n\r\n" % len(BODY)
)


@pytest.fixture
def sqlite_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """The limits are the connection's, before any database: SQLite is enough."""
    return migrated_sqlite_url(request, tmp_path)


def serve(db: str, **limits: Any) -> contextlib.AbstractContextManager[str]:
    settings = Settings(db_url=db, bot_workers=0, **{"request_timeout": DEADLINE, **limits})
    return running_server(settings)


class Raw:
    """One TCP connection to the server, from `source` (a loopback address)."""

    def __init__(self, base: str, source: str = "127.0.0.1") -> None:
        parts = urlsplit(base)
        self.sock = socket.socket()
        self.sock.bind((source, 0))
        self.sock.connect((parts.hostname or "", parts.port or 80))
        self.opened = time.monotonic()
        self.sent = 0

    def drip(self, data: bytes, every: float = 1.0) -> bytes:
        """Send `data` a byte every `every` seconds, stopping as soon as the server
        answers or closes; what it answered."""
        for i in range(len(data)):
            try:
                self.sock.sendall(data[i : i + 1])
            except OSError:  # closed on us: what it said is still to be read
                break
            self.sent += 1
            readable, _, _ = select.select([self.sock], [], [], every)
            if readable:
                break
        return self.answer()

    def answer(self, timeout: float = 30) -> bytes:
        """Everything the server sends until it closes the connection."""
        self.sock.settimeout(timeout)
        got = b""
        with contextlib.suppress(ConnectionResetError):
            while chunk := self.sock.recv(65536):
                got += chunk
        return got

    def closed_after(self) -> float:
        return time.monotonic() - self.opened

    def close(self) -> None:
        self.sock.close()


def refusal(answer: bytes) -> tuple[int, str]:
    """The status and error code of a whole refusal."""
    head, _, body = answer.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    return status, json.loads(body)["error"]["code"]


def test_a_byte_a_second_is_cut_off_at_the_deadline_while_others_are_served(sqlite_db: str) -> None:
    with serve(sqlite_db) as base:
        heads = [Raw(base) for _ in range(3)]
        bodies = [Raw(base) for _ in range(3)]
        silent = Raw(base)
        for b in bodies:
            b.sock.sendall(POST_HEAD)
        answers: dict[int, bytes] = {}
        closed: dict[int, float] = {}

        def attack(i: int, client: Raw, data: bytes) -> None:
            answers[i] = client.drip(data)
            closed[i] = client.closed_after()

        threads = [
            threading.Thread(target=attack, args=(i, c, HEAD if c in heads else BODY))
            for i, c in enumerate(heads + bodies)
        ]
        for t in threads:
            t.start()
        # While they drip, another client's requests are answered at once.
        with httpx.Client(base_url=base, timeout=30) as http:
            for _ in range(5):
                assert http.get("/api/health").status_code == 200
                assert http.post("/api/games", json=CREATE).status_code == 201
        served = time.monotonic()
        silent_answer = silent.answer()
        closed[-1] = silent.closed_after()
        for t in threads:
            t.join(DEADLINE + LATE + 30)
        for i, client in enumerate([*heads, *bodies, silent]):
            key = -1 if client is silent else i
            answer = silent_answer if client is silent else answers[i]
            assert refusal(answer) == (408, "request_timeout"), answer
            assert DEADLINE - 0.1 <= closed[key] < DEADLINE + LATE, closed[key]
            assert served < client.opened + closed[key]  # the others were served first
            client.close()
        # A byte a second: only the first few of the head or body reached the server.
        assert all(c.sent <= DEADLINE + LATE + 1 for c in heads + bodies)


def test_a_head_over_the_cap_is_refused(sqlite_db: str) -> None:
    with serve(sqlite_db) as base:
        huge = Raw(base)
        huge.sock.sendall(b"GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        with contextlib.suppress(OSError):  # it may close before all is sent
            for _ in range(40):
                huge.sock.sendall(b"x-filler: " + b"y" * 1000 + b"\r\n")
        assert refusal(huge.answer()) == (431, "headers_too_large")
        huge.close()
        # A head just under the cap passes.
        with httpx.Client(base_url=base, timeout=30) as http:
            r = http.get("/api/health", headers={"x-filler": "y" * 12000})
            assert r.status_code == 200


def _served(base: str, source: str) -> bytes:
    client = Raw(base, source)
    client.sock.sendall(HEAD.replace(b"HTTP/1.1\r\n", b"HTTP/1.1\r\nConnection: close\r\n"))
    answer = client.answer()
    client.close()
    return answer


def test_one_address_holds_at_most_its_connections(sqlite_db: str) -> None:
    with serve(sqlite_db, max_http_connections_per_address=8, request_timeout=60) as base:
        held = [Raw(base, "127.0.0.2") for _ in range(8)]
        for h in held:
            h.sock.sendall(HEAD[:10])  # a request begun, never finished
        # Many more from that address: each is answered at once and closed.
        for _ in range(30):
            more = Raw(base, "127.0.0.2")
            assert refusal(more.answer()) == (429, "too_many_connections")
            more.close()
        # Another address is served meanwhile, as many times as it likes.
        for _ in range(10):
            assert _served(base, "127.0.0.3").startswith(b"HTTP/1.1 200")
        # One let go, the address may open one again (as soon as the server saw it go).
        held.pop().close()
        deadline = time.monotonic() + 20
        while not (answer := _served(base, "127.0.0.2")).startswith(b"HTTP/1.1 200"):
            assert refusal(answer)[1] == "too_many_connections"
            assert time.monotonic() < deadline, "the closed connection was never given back"
        for h in held:
            h.close()


def test_a_websocket_leaves_the_count_of_http_connections(sqlite_db: str) -> None:
    """Upgraded, it is held to the WebSocket cap (ws.py) instead: three of them from an
    address that may hold two HTTP connections, and that address is still served."""
    with serve(sqlite_db, max_http_connections_per_address=2) as base:
        url = base.replace("http://", "ws://") + "/api/lobby/ws"
        sockets = []
        for _ in range(3):
            sock = socket.socket()
            sock.bind(("127.0.0.2", 0))
            sock.connect((urlsplit(base).hostname or "", urlsplit(base).port or 80))
            ws = connect(url, sock=sock, proxy=None, open_timeout=10, legacy=True)
            assert json.loads(ws.recv(timeout=10))["type"] == "lobby"
            sockets.append(ws)
        assert _served(base, "127.0.0.2").startswith(b"HTTP/1.1 200")
        for ws in sockets:
            ws.close()


def test_a_trusted_proxys_connections_are_not_counted(sqlite_db: str) -> None:
    with serve(
        sqlite_db, max_http_connections_per_address=2, trusted_proxies=["127.0.0.2"]
    ) as base:
        held = [Raw(base, "127.0.0.2") for _ in range(5)]
        for h in held:
            h.sock.sendall(HEAD[:10])
        assert _served(base, "127.0.0.2").startswith(b"HTTP/1.1 200")
        for h in held:
            h.close()


def test_serve_takes_the_connection_options() -> None:
    p = argparse.ArgumentParser()
    add_arguments(p)
    s = settings_from(p.parse_args(["--max-http-connections", "5", "--request-timeout", "2.5"]))
    assert (s.max_http_connections_per_address, s.request_timeout) == (5, 2.5)
    default = settings_from(p.parse_args([]))
    assert (default.max_http_connections_per_address, default.request_timeout) == (64, 10.0)


@pytest.fixture
def served(sqlite_db: str) -> Iterator[str]:
    proc, url = spawn(sqlite_db, "--bot-workers", "0", "--request-timeout", "1")
    try:
        yield url
    finally:
        stop_processes([proc])


def test_euphrates_serve_cuts_off_a_silent_connection(served: str) -> None:
    """The command serves with the same protocol as the tests' servers."""
    silent = Raw(served)
    assert refusal(silent.answer()) == (408, "request_timeout")
    assert silent.closed_after() < 1 + LATE
    silent.close()

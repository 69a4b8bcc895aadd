"""What a client without any token can make the server do: bodies are capped while
they arrive, numbers are range-checked before they reach the database, reads are
rate-limited like writes, and a failure is one log entry and a JSON answer."""

from __future__ import annotations

import json
import logging
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from euphrates.server.common.config import Settings
from tests.server.conftest import sqlite_url
from tests.server.harness import Api, running_app


def _error(r: Any, status: int, code: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json"), r.headers
    err: dict[str, Any] = r.json()["error"]
    assert err["code"] == code, err
    assert set(err) == {"code", "message", "ruling"} and err["message"]
    return err


def _raw(base: str, head: str, chunks: Iterator[bytes], timeout: float = 10) -> tuple[int, Any]:
    """Send a request by hand (headers, then body chunks, never finished if the server
    answers first); returns the status and the JSON body of the answer."""
    parts = urlsplit(base)
    with socket.create_connection((parts.hostname, parts.port), timeout=timeout) as s:
        s.sendall(head.replace("\n", "\r\n").encode() + b"\r\n")
        answer = b""
        s.setblocking(False)
        deadline = time.monotonic() + timeout
        for chunk in chunks:
            try:
                s.sendall(chunk)
            except (BlockingIOError, BrokenPipeError, ConnectionResetError):
                break
            try:
                answer += s.recv(65536)
                break
            except BlockingIOError:
                pass
            assert time.monotonic() < deadline, "the server read on without answering"
        s.settimeout(timeout)
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            try:
                more = s.recv(65536)
            except (ConnectionResetError, TimeoutError):
                break
            if not more:
                break
            answer += more
    head_bytes, _, body = answer.partition(b"\r\n\r\n")
    status = int(head_bytes.split()[1])
    if b"transfer-encoding: chunked" in head_bytes.lower():
        body = body.split(b"\r\n", 1)[1].rsplit(b"\r\n0\r\n", 1)[0]
    return status, json.loads(body)


def _chunked(total: int, size: int = 1024) -> Iterator[bytes]:
    """A chunked body of `total` bytes that never ends (no closing chunk)."""
    sent = 0
    while sent < total:
        yield f"{size:x}\r\n".encode() + b"x" * size + b"\r\n"
        sent += size
        time.sleep(0.001)


@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/api/games/{gid}/chat"), ("POST", "/api/games"), ("GET", "/api/games/{gid}")],
)
def test_chunked_bodies_are_capped_while_they_arrive(
    api: Api, base: str, method: str, path: str
) -> None:
    gid = api.create()["id"]
    host = urlsplit(base).netloc
    head = (
        f"{method} {path.format(gid=gid)} HTTP/1.1\nHost: {host}\n"
        "Content-Type: application/json\nTransfer-Encoding: chunked\n"
    )
    status, doc = _raw(base, head, _chunked(4 << 20))
    assert status == 413 and doc["error"]["code"] == "too_large", doc


def test_a_declared_length_over_the_cap_is_refused_on_reads_too(api: Api) -> None:
    gid = api.create()["id"]
    r = api.http.request("GET", f"/api/games/{gid}", content=b"x" * 20000)
    _error(r, 413, "too_large")


@pytest.mark.parametrize("n", [2**31, 2**63, 2**64, -1])
def test_numbers_are_range_checked_at_the_door(api: Api, n: int) -> None:
    created = api.create()
    gid, host = created["id"], created["host"]["token"]
    _error(api.call("GET", f"/api/games/{gid}/chat?after={n}"), 400, "bad_request")
    _error(api.call("GET", f"/api/games/{gid}/replay/{n}"), 400, "bad_request")
    _error(
        api.call("POST", f"/api/games/{gid}/seats/{n}/bot", host, {"level": "beginner"}),
        400,
        "bad_request",
    )
    for body in ({"version": n, "seat": 0, "action": "pass"}, {"version": 0, "seat": n}):
        route = "actions" if "action" in body else "undo"
        _error(api.call("POST", f"/api/games/{gid}/{route}", host, body), 400, "bad_request")
    assert api.call("GET", f"/api/games/{gid}/chat?after={2**31 - 1}").json() == {"messages": []}


def test_an_unknown_failure_is_logged_once_and_answered_as_json(tmp_path: Path) -> None:
    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    keep = Keep(level=logging.ERROR)
    loggers = [logging.getLogger(n) for n in ("euphrates", "uvicorn", "uvicorn.error")]
    for lg in loggers:
        lg.addHandler(keep)
    settings = Settings(db_url=sqlite_url(tmp_path), bot_workers=0, bot_pace=0)
    try:
        with running_app(settings) as (url, app):
            api = Api(url)
            gid = api.create()["id"]
            chat = app.state.services.chat

            async def broken(*_args: Any, **_kw: Any) -> Any:
                raise RuntimeError("a bug")

            chat.say = broken
            r = api.call("POST", f"/api/games/{gid}/chat", None, {"text": "secret-words"})
            _error(r, 500, "server_error")
            assert api.call("GET", f"/api/games/{gid}").status_code == 200
    finally:
        for lg in loggers:
            lg.removeHandler(keep)
    assert len(seen) == 1, [r.getMessage() for r in seen]
    record = seen[0]
    assert record.exc_info is not None and "a bug" in str(record.exc_info[1])
    assert "secret-words" not in record.getMessage()


def _until_limited(send: Any, tries: int = 3000) -> tuple[int, Any]:
    """Send until the server says 429; returns how many went through and that answer."""
    for i in range(tries):
        r = send(i)
        if r.status_code == 429:
            return i, r
    raise AssertionError(f"{tries} requests and no 429")


def test_reads_are_rate_limited_per_address(limited_base: str) -> None:
    api = Api(limited_base)
    gid = api.create()["id"]
    passed, r = _until_limited(lambda _i: api.call("GET", f"/api/games/{gid}/chat"))
    assert passed >= 19  # the burst (20) less the creation
    _error(r, 429, "rate_limited")


def test_a_forged_forwarded_address_does_not_escape_the_limit(limited_base: str) -> None:
    with httpx.Client(base_url=limited_base, timeout=10) as http:

        def send(i: int) -> httpx.Response:
            forged = {"x-forwarded-for": f"10.0.{i // 250}.{i % 250}"}
            return http.post("/api/games/nosuchgame/chat", json={"text": "hi"}, headers=forged)

        _passed, r = _until_limited(send)
    _error(r, 429, "rate_limited")


def _handshake(base: str, path: str, host: str, origin: str) -> int:
    """The status a WebSocket handshake gets, with exactly these Host and Origin."""
    parts = urlsplit(base)
    request = (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n"
    )
    with socket.create_connection((parts.hostname, parts.port), timeout=10) as s:
        s.sendall(request.encode())
        return int(s.recv(1024).split()[1])


def test_a_host_the_server_is_not_served_as_is_refused(api: Api, base: str) -> None:
    """DNS rebinding: a page on evil.example whose name resolves to this server must
    not reach the API, over HTTP or WebSocket (its Origin matches its Host)."""
    gid = api.create()["id"]
    evil = {"host": "evil.example", "origin": "http://evil.example"}
    _error(api.http.get(f"/api/games/{gid}", headers=evil), 400, "bad_host")
    _error(api.http.post("/api/games", json={}, headers=evil), 400, "bad_host")
    path = f"/api/games/{gid}/ws"
    assert _handshake(base, path, "evil.example", "http://evil.example") in (400, 403)
    port = urlsplit(base).port
    for name in ("127.0.0.1", "localhost"):
        assert _handshake(base, path, f"{name}:{port}", f"http://{name}:{port}") == 101
        r = api.http.get(f"/api/games/{gid}", headers={"host": f"{name}:{port}"})
        assert r.status_code == 200

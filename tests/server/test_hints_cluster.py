"""A hint given by one server is told to the clients of another (PostgreSQL, two
processes): its note comes with the seats, which other servers read when told."""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator

import pytest

from tests.server.harness import Api, Client
from tests.server.test_crash import start_server
from tests.server.test_hints import wait_for


@pytest.fixture(scope="module")
def two_with_bots(pg_url: str) -> Iterator[tuple[str, str]]:
    procs: list[subprocess.Popen[str]] = []
    urls = []
    try:
        for _ in range(2):
            proc, url = start_server(pg_url, bot_workers=1)
            procs.append(proc)
            urls.append(url)
        yield urls[0], urls[1]
    finally:
        for p in procs:
            os.kill(p.pid, signal.SIGTERM)
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()


def test_a_hint_on_one_server_is_noted_at_the_others_clients(
    two_with_bots: tuple[str, str],
) -> None:
    a, b = two_with_bots
    api = Api(a)
    created = api.create("cards", [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    gid, token = created["id"], created["seats"][0]["token"]
    doc = wait_for(api, gid, token, 0)
    watcher = Client(b, gid, [])
    try:
        r = api.call("POST", f"/api/games/{gid}/seats/0/hint", token)
        assert r.status_code == 200, r.text
        note = watcher.next("note", timeout=60)["note"]
        assert (note["kind"], note["seat"], note["version"]) == ("hint", 0, doc["version"])
    finally:
        watcher.close()

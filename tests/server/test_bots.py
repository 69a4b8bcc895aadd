"""Bots seated on the server: they move by themselves in worker processes, run on to
the next human decision with nobody connected, and receive only their seat's view."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euphrates.match.records import GameRecord, replay
from euphrates.server.common.config import Settings
from tests.server.conftest import sqlite_url
from tests.server.harness import Api, Client, running_server

SPY = """
import os, sys
from euphrates.bots import worker
from euphrates.bots.process import child_setup, serve
path = os.environ["EUPHRATES_SPY"]
def handle(line):
    with open(path, "ab") as f:
        f.write(line.rstrip(b"\\n") + b"\\n")
    return worker.handle(line)
requests, replies = child_setup(sys.argv[1:])
sys.exit(serve(requests, replies, handle))
"""


@pytest.fixture
def spied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A server whose bot workers write down every request they are sent."""
    log = tmp_path / "requests.jsonl"
    monkeypatch.setenv("EUPHRATES_SPY", str(log))
    settings = Settings(
        db_url=sqlite_url(tmp_path),
        bot_workers=2,
        bot_pace=0,
        bot_command=[sys.executable, "-c", SPY],
    )
    with running_server(settings) as url:
        yield url, log


def _wait(api: Api, gid: str, done: Any, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        doc: dict[str, Any] = api.call("GET", f"/api/games/{gid}").json()
        if done(doc):
            return doc
        assert time.monotonic() < deadline, doc["game"]
        time.sleep(0.1)


def test_bots_play_a_game_alone_and_see_only_their_views(spied: tuple[str, Path]) -> None:
    url, log = spied
    api = Api(url)
    created = api.create(
        "board",
        [{"kind": "bot", "level": "beginner"}] * 2 + [{"kind": "bot", "level": "intermediate"}],
    )
    gid = created["id"]
    assert created["game"]["status"] == "active"
    _wait(api, gid, lambda d: d["game"]["status"] == "over")
    record = GameRecord.from_json(api.call("GET", f"/api/games/{gid}/record").json())
    assert record.seats == ["bot:beginner", "bot:beginner", "bot:intermediate"]
    final = replay(record)
    assert final.is_over()
    # Every request a worker got was one seat's view at one version, nothing else.
    requests = [json.loads(line) for line in log.read_text().splitlines()]
    requests = [r for r in requests if "bot" in r]  # the review's come after the end
    assert len(requests) == len(record.actions)
    state = replay(record, 0)
    for req, text in zip(requests, record.actions, strict=True):
        assert set(req) == {"id", "game", "bot", "seed", "view"}
        seat = state.to_move()
        assert req["view"] == state.view(seat)
        assert req["seed"] != record.seed
        assert str(record.seed) not in json.dumps(req)
        state.apply(text)


def test_bots_run_to_the_next_human_decision_with_no_one_connected(spied: tuple[str, Path]) -> None:
    url, _log = spied
    api = Api(url)
    created = api.create(
        "cards",
        [
            {"kind": "human"},
            {"kind": "bot", "level": "beginner"},
            {"kind": "bot", "level": "intermediate"},
        ],
    )
    gid = created["id"]
    token = created["seats"][0]["token"]
    me = Client(url, gid, [token], name="Ann")
    for _ in range(6):
        me.drain(0.3)
        d = me.view(0)["decision"]
        if d is not None and d["seat"] == 0:
            ack = me.act(0, me.view(0)["legal"][-1])
            assert ack["type"] == "ack", ack
    me.close()
    # Nobody is connected; the bots play on until the person must decide again.
    doc = _wait(
        api,
        gid,
        lambda d: d["game"]["status"] == "over" or d["views"]["spectator"]["decision"]["seat"] == 0,
        timeout=60,
    )
    assert not any(s["connected"] for s in doc["game"]["seats"])
    back = Client(url, gid, [token])
    assert back.view(0)["legal"], "the person's decision is pending"


def test_host_replaces_a_player_who_left_and_the_bot_takes_over(spied: tuple[str, Path]) -> None:
    url, _log = spied
    api = Api(url)
    created = api.create("board", [{"kind": "human"}, {"kind": "human"}])
    gid = created["id"]
    host = created["host"]["token"]
    ann = Client(url, gid, [created["seats"][0]["token"]], name="Ann")
    bob = Client(url, gid, [created["seats"][1]["token"]], name="Bob")
    ann.drain()
    bob.close()
    r = api.call("POST", f"/api/games/{gid}/seats/1/bot", host, {"level": "beginner"})
    assert r.status_code == 200
    # Ann's table is told, as a note of the move log (notes.py).
    note = ann.next("note")["note"]
    assert (note["kind"], note["seat"], note["level"]) == ("replaced", 1, "beginner")
    # Whenever Bob's seat must decide, the bot does.
    for _ in range(20):
        ann.drain(0.3)
        d = ann.view(0)["decision"]
        if d["seat"] == 0:
            assert ann.act(0, ann.view(0)["legal"][-1])["type"] == "ack"
    assert any(
        step.get("seat") == 1
        for step in api.call("GET", f"/api/games/{gid}/log", created["seats"][0]["token"]).json()[
            "history"
        ]
    )

"""Clocks on the server: a real-time seat runs out and the others let a bot play it;
a turn-based deadline passes and a bot plays the turn; a deadline that passes while
the server is stopped is acted on when it starts again."""

from __future__ import annotations

import time
from datetime import datetime
from pathlib import Path
from typing import Any

from euphrates.server.common.config import Settings
from tests.server.conftest import sqlite_url
from tests.server.harness import Api, running_server


def _wait(api: Api, gid: str, done: Any, token: str | None = None, timeout: float = 60) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        doc: dict[str, Any] = api.call("GET", f"/api/games/{gid}", token).json()
        if done(doc):
            return doc
        assert time.monotonic() < deadline, doc["game"]
        time.sleep(0.05)


def _start(api: Api, clock: dict[str, Any]) -> tuple[str, list[str], str]:
    r = api.http.post(
        "/api/games",
        json={
            "game": "board",
            "players": 2,
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "clock": clock,
        },
    )
    assert r.status_code == 201, r.text
    doc = r.json()
    tokens = [s["token"] for s in doc["seats"]]
    for token in tokens:
        assert api.call("POST", f"/api/games/{doc['id']}/join", token, {}).status_code == 200
    return doc["id"], tokens, doc["host"]["token"]


def _log_doc(api: Api, gid: str, token: str) -> dict[str, Any]:
    doc: dict[str, Any] = api.call("GET", f"/api/games/{gid}/log", token).json()
    return doc


def _log(api: Api, gid: str, token: str) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = api.call("GET", f"/api/games/{gid}/log", token).json()[
        "history"
    ]
    return history


def test_a_real_time_seat_out_of_time_is_played_by_a_bot_the_others_chose(
    tmp_path: Path,
) -> None:
    settings = Settings(db_url=sqlite_url(tmp_path), bot_workers=1, bot_pace=0)
    with running_server(settings) as url:
        api = Api(url)
        gid, tokens, host = _start(api, {"mode": "realtime", "bank": 1, "increment": 0})
        doc = _wait(api, gid, lambda d: d["game"]["clock"]["seat"] is not None)
        clock = doc["game"]["clock"]
        first = clock["seat"]
        other = 1 - first
        assert clock["mode"] == "realtime" and clock["deadline"] is not None
        standin = f"/api/games/{gid}/seats/{first}/standin"
        early = api.call("POST", standin, tokens[other], {"level": "beginner"})
        assert early.status_code == 409 and early.json()["error"]["code"] == "not_out_of_time"
        doc = _wait(api, gid, lambda d: d["game"]["clock"]["out_of_time"][first])
        assert doc["game"]["clock"]["deadline"] is None and doc["version"] == 0
        # The move log tells it: a note after version 0 (notes.py).
        assert [(n["kind"], n["seat"], n["version"]) for n in doc["notes"]] == [
            ("out_of_time", first, 0)
        ]
        own = api.call("POST", standin, tokens[first], {"level": "beginner"})
        assert own.status_code == 403 and own.json()["error"]["code"] == "not_your_seat"
        r = api.call("POST", standin, tokens[other], {"level": "beginner"})
        assert r.status_code == 200, r.text
        assert r.json()["game"]["clock"]["standin"][first] == "beginner"
        _wait(api, gid, lambda d: d["version"] >= 2, tokens[first])
        moves = _log(api, gid, tokens[first])
        assert moves[0]["seat"] == first and moves[0]["bot"] == "beginner"
        back = api.call("POST", f"/api/games/{gid}/seats/{first}/back", tokens[first])
        assert back.status_code == 200 and back.json()["game"]["clock"]["standin"][first] is None
        notes = _log_doc(api, gid, tokens[other])["notes"]
        kinds = [(n["kind"], n["seat"], n.get("level"), n.get("by")) for n in notes]
        assert kinds == [
            ("out_of_time", first, None, None),
            ("standin", first, "beginner", other),
            ("back", first, None, None),
        ]
        assert notes[1]["version"] == 0 and notes[2]["version"] >= 2
        assert api.call("POST", f"/api/games/{gid}/abandon", host).status_code == 200
        record = api.call("GET", f"/api/games/{gid}/record").json()
        assert [(n["kind"], n["after"]) for n in record["notes"]][:2] == [
            ("out_of_time", 0),
            ("standin", 0),
        ]
        assert record["notes"][2]["after"] >= 2
        marked = {int(i) for i in record["bot_moves"]}
        by_bot = [i for i, step in enumerate(moves) if step.get("bot")]
        assert by_bot and set(by_bot) <= marked
        assert set(record["bot_moves"].values()) == {"beginner"}


def test_a_turn_based_deadline_passes_and_a_bot_plays_the_turn(tmp_path: Path) -> None:
    settings = Settings(db_url=sqlite_url(tmp_path), bot_workers=1, bot_pace=0, clock_day=1.0)
    with running_server(settings) as url:
        api = Api(url)
        gid, tokens, _host = _start(api, {"mode": "turn", "days": 1, "level": "beginner"})
        first = _wait(api, gid, lambda d: d["game"]["clock"]["seat"] is not None)["game"]["clock"]
        seat = first["seat"]
        assert first["per_move"] == 1.0 and first["days"] == 1
        doc = _wait(api, gid, lambda d: d["game"]["clock"]["seat"] == 1 - seat)
        assert doc["game"]["clock"]["standin"] == [None, None]
        moves = _log(api, gid, tokens[seat])
        assert moves and all(m["seat"] == seat and m["bot"] == "beginner" for m in moves)
        notes = _log_doc(api, gid, tokens[seat])["notes"]
        assert [(n["kind"], n["seat"], n["level"], n["version"]) for n in notes][:1] == [
            ("late_turn", seat, "beginner", 0)
        ]
        # The player may not take back what the bot played for them.
        body = {"version": doc["version"], "seat": seat}
        undo = api.call("POST", f"/api/games/{gid}/undo", tokens[seat], body)
        assert undo.status_code == 409 and undo.json()["error"]["code"] == "undo_refused"


def test_a_deadline_that_passed_while_the_server_was_stopped_is_acted_on(tmp_path: Path) -> None:
    settings = Settings(db_url=sqlite_url(tmp_path), bot_workers=1, bot_pace=0, clock_day=3.0)
    with running_server(settings) as url:
        api = Api(url)
        gid, tokens, _host = _start(api, {"mode": "turn", "days": 1})
        clock = _wait(api, gid, lambda d: d["game"]["clock"]["seat"] is not None)["game"]["clock"]
        api.http.close()
    # The server is stopped before the deadline: nothing acted on it.
    due = datetime.fromisoformat(clock["deadline"]).timestamp()
    assert time.time() < due
    time.sleep(max(0.0, due - time.time()) + 0.3)
    with running_server(settings) as url:
        api = Api(url)
        doc = _wait(api, gid, lambda d: d["version"] >= 1, tokens[clock["seat"]])
        assert doc["game"]["clock"]["seat"] in (None, 1 - clock["seat"])
        moves = _log(api, gid, tokens[clock["seat"]])
        assert moves[0]["seat"] == clock["seat"] and moves[0]["bot"] == "intermediate"

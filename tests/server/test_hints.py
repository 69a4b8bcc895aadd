"""Hints (server/hints.py): the strong bot's move for a person's seat, in an unrated
game against bots, worked out from that seat's view alone, and noted in the log."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from euphrates.core.history import HISTORY_KEY, replayed
from euphrates.match.records import GameRecord, replay
from euphrates.server.common.config import Settings
from euphrates.server.features.hints.hints import HINT_SPEC
from euphrates.words.advice import in_every_language
from tests.server.conftest import sqlite_url
from tests.server.harness import Api, running_server
from tests.server.people import Person
from tests.server.test_bots import SPY
from tests.server.test_leaks import secret_seed


@pytest.fixture
def spied(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A server whose bot workers write down every request they are sent."""
    log = tmp_path / "requests.jsonl"
    monkeypatch.setenv("EUPHRATES_SPY", str(log))
    settings = Settings(
        db_url=sqlite_url(tmp_path),
        bot_workers=1,
        bot_pace=0,
        bot_command=[sys.executable, "-c", SPY],
    )
    with running_server(settings) as url:
        yield url, log


def code(r: Any) -> str:
    return str(r.json()["error"]["code"])


def wait_for(
    api: Api, gid: str, token: str, seat: int, movers: tuple[int, ...] | None = None
) -> dict[str, Any]:
    """The game once `seat` (or one of `movers`) decides: its player sat down, the bots
    have moved."""
    assert api.call("POST", f"/api/games/{gid}/join", token, {}).is_success
    deadline = time.monotonic() + 120
    while True:
        doc: dict[str, Any] = api.call("GET", f"/api/games/{gid}", token).json()
        decision = doc["views"][str(seat)].get("decision")
        if decision is not None and decision["seat"] in (movers or (seat,)):
            return doc
        assert time.monotonic() < deadline, doc["game"]
        time.sleep(0.05)


@pytest.mark.parametrize("game", ["board", "cards"])
def test_a_hint_is_a_legal_action_from_the_seats_view_only(
    spied: tuple[str, Path], game: str
) -> None:
    url, log = spied
    api = Api(url)
    created = api.create(game, [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    gid, token = created["id"], created["seats"][0]["token"]
    host = created["host"]["token"]
    doc = wait_for(api, gid, token, 0)
    view = doc["views"]["0"]
    r = api.call("POST", f"/api/games/{gid}/seats/0/hint", token)
    assert r.status_code == 200, r.text
    answer = r.json()
    assert set(answer) == {"action", "version", "level", "words"}
    assert answer["level"] == "strong" and answer["version"] == doc["version"]
    assert answer["action"] in view["legal"]
    # said as advice in every language of the book, from the decision's public context
    context = view["decision"]["context"]
    assert answer["words"] == in_every_language(game, answer["action"], context)
    seed = secret_seed(sqlite_url(log.parent), gid)
    assert host not in r.text and token not in r.text and str(seed) not in r.text
    # The worker was asked the strong search with seat 0's view, and nothing else.
    asked = json.loads(log.read_text().splitlines()[-1])
    assert set(asked) == {"id", "game", "bot", "seed", "view"}
    assert asked["bot"] == HINT_SPEC
    public = {k: v for k, v in view.items() if k != "version"}  # the server's count
    seen = asked["view"].pop(HISTORY_KEY, None)
    assert {k: v for k, v in asked["view"].items() if k != "version"} == public
    # The log notes the hint, and the hint is an action the seat may take.
    after = api.call("GET", f"/api/games/{gid}", token).json()
    assert {"version": doc["version"], "kind": "hint", "seat": 0, "level": "strong"}.items() <= (
        after["notes"][-1].items()
    )
    move = {"version": doc["version"], "seat": 0, "action": answer["action"]}
    assert api.call("POST", f"/api/games/{gid}/actions", token, move).is_success
    # The record keeps the hint after the actions before it, and reads back.
    assert api.call("POST", f"/api/games/{gid}/abandon", host, {}).is_success
    record = GameRecord.from_json(api.call("GET", f"/api/games/{gid}/record").json())
    hints = [n for n in record.notes if n["kind"] == "hint"]
    assert hints == [
        {"after": len(record.actions) - 1, "kind": "hint", "seat": 0, "level": "strong"}
    ]
    # In the card game, whose table the hint reads, beside the view went what seat 0
    # saw happen before the hint (G-3), computed here from the record; the board, none.
    if game == "cards":
        assert seen == replayed(replay(record, 0), record.actions[:-1]).seen_by(0)
    else:
        assert seen is None


def test_hints_are_refused_where_they_do_not_belong(spied: tuple[str, Path]) -> None:
    url, _log = spied
    api = Api(url)
    people = api.create("cards")  # two people, no bot
    r = api.call("POST", f"/api/games/{people['id']}/seats/0/hint", people["seats"][0]["token"])
    assert code(r) == "hint_refused" and "against bots" in r.json()["error"]["message"]

    tour = api.http.post("/api/tours", json={"game": "board"}).json()
    r = api.call("POST", f"/api/games/{tour['id']}/seats/0/hint", tour["seats"][0]["token"])
    assert code(r) == "hint_refused" and "tour" in r.json()["error"]["message"]

    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "beginner"}]
    created = api.create("board", seats)
    gid, (t0, t1) = created["id"], [s["token"] for s in created["seats"][:2]]
    assert api.call("POST", f"/api/games/{gid}/join", t1, {}).is_success
    doc = wait_for(api, gid, t0, 0, movers=(0, 1))
    mover = doc["views"]["0"]["decision"]["seat"]
    idle, (mine, theirs) = 1 - mover, (t1, t0) if mover == 0 else (t0, t1)
    r = api.call("POST", f"/api/games/{gid}/seats/{idle}/hint", mine)
    assert code(r) == "wrong_seat" and f"not seat {idle}'s" in r.json()["error"]["message"]
    assert code(api.call("POST", f"/api/games/{gid}/seats/{mover}/hint", mine)) == "not_your_seat"
    assert code(api.call("POST", f"/api/games/{gid}/seats/2/hint", theirs)) == "not_your_seat"
    r = api.call("POST", f"/api/games/{gid}/seats/{mover}/hint", "nonsense")
    assert code(r) == "bad_token"
    assert api.call("GET", f"/api/games/{gid}", t0).json()["version"] == doc["version"]
    host = created["host"]["token"]
    assert api.call("POST", f"/api/games/{gid}/abandon", host, {}).is_success
    assert code(api.call("POST", f"/api/games/{gid}/seats/0/hint", t0)) == "abandoned"

    ann = Person(url)
    assert ann.signup("Ann").status_code == 201
    body = {
        "game": "cards",
        "players": 2,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": "intermediate"}],
        "rated": True,
    }
    rated = ann.post("/api/games", body)
    assert rated.status_code == 201, rated.text
    rid = rated.json()["id"]
    r = ann.post(f"/api/games/{rid}/join", {}, token=rated.json()["seats"][0]["token"])
    assert r.is_success
    r = ann.post(f"/api/games/{rid}/seats/0/hint")
    assert code(r) == "hint_refused" and "rated" in r.json()["error"]["message"]


HELD = f"""
import json, os, sys, time
from euphrates.bots import worker
from euphrates.bots.process import child_setup, serve
log, go = os.environ["EUPHRATES_SPY"], os.environ["EUPHRATES_GO"]
def handle(line):
    if json.loads(line)["bot"] == "{HINT_SPEC}":  # a hint: told, then held until the test says
        with open(log, "ab") as f:
            f.write(line.rstrip(b"\\n") + b"\\n")
        while not os.path.exists(go):
            time.sleep(0.01)
    return worker.handle(line)
requests, replies = child_setup(sys.argv[1:])
sys.exit(serve(requests, replies, handle))
"""


def test_one_hint_at_a_time_per_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log, go = tmp_path / "hints.jsonl", tmp_path / "go"
    monkeypatch.setenv("EUPHRATES_SPY", str(log))
    monkeypatch.setenv("EUPHRATES_GO", str(go))
    settings = Settings(
        db_url=sqlite_url(tmp_path),
        bot_workers=2,
        bot_pace=0,
        bot_command=[sys.executable, "-c", HELD],
    )
    with running_server(settings) as url, ThreadPoolExecutor(1) as pool:
        api = Api(url)
        created = api.create("board", [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
        gid, token = created["id"], created["seats"][0]["token"]
        wait_for(api, gid, token, 0)
        path = f"/api/games/{gid}/seats/0/hint"
        first = pool.submit(Api(url).call, "POST", path, token)
        deadline = time.monotonic() + 60
        while not (log.exists() and log.read_text()):  # the worker has the first hint
            assert time.monotonic() < deadline and not first.done()
            time.sleep(0.02)
        second = api.call("POST", path, token)
        assert code(second) == "hint_busy" and second.status_code == 429
        go.touch()
        assert first.result(timeout=60).status_code == 200
        notes = api.call("GET", f"/api/games/{gid}", token).json()["notes"]
        assert [n["kind"] for n in notes] == ["hint"]  # the refused one is not noted

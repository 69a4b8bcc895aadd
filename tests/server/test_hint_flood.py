"""Hints wait for the tables' bots: one address asking for hints without end in a dozen
games leaves the pace of an unrelated game of bots as it was (it was 25 times slower
when hints queued with the moves), and a caller's hints have a budget."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from euphrates.bench.hintflood import SPEC, measure, server_arguments
from euphrates.games import GAMES
from euphrates.server.common.config import Settings
from euphrates.server.features.hints.hints import HINT_SPEC
from euphrates.server.serve import spawn
from tests.server.conftest import sqlite_url
from tests.server.harness import run_async, running_app, stop_processes
from tests.server.people import Person
from tests.server.test_bots import SPY

FLOODED = 12
MOVES = 12
"""Moves measured a phase: the median of a dozen intervals of a search of fixed work."""
PHASE_LIMIT = 25.0
"""Seconds a phase may last at most: on a busy machine a dozen moves take a few
seconds; behind a queue of hints they took six seconds each."""
SLOWER_AT_MOST = 1.5
ATTEMPTS = 3
"""Measurements at most. What the flood costs the bots shows in every one (it was 25
times the time a move); the machine's other work, which here can double a move's time
for a few seconds, seldom in the same phases of three measurements."""


def test_a_flood_of_hints_leaves_another_games_bots_their_pace(tmp_path: Path) -> None:
    """The bot game's bots search a fixed number of iterations (`--bot-level`), so
    that their time per move measures only their wait for a worker and for the CPU;
    it is measured alone, under the flood and alone again, back to back (both medians
    alone bracket the flood's), on a server of two bot workers whose hint budget is
    lifted: the flood's hints all reach the workers, as those of many accounts each
    within its budget would."""
    game = next(iter(GAMES))
    args = server_arguments(SPEC, hint_budget=False)
    proc, url = spawn(sqlite_url(tmp_path), "--bot-workers", "2", *args)
    measured = []
    try:
        for _ in range(ATTEMPTS):
            figures = run_async(measure(url, game, FLOODED, PHASE_LIMIT, MOVES))
            assert figures["watch_error"] is None, figures
            # Every hint asked was answered (the last of each game after the flood).
            assert figures["hints_answered"] >= FLOODED, figures
            assert not figures["hints_refused"], figures
            measured.append(figures)
            if figures["ratio"] is not None and figures["ratio"] <= SLOWER_AT_MOST:
                break
    finally:
        stop_processes([proc])
    best = min(measured, key=lambda f: f["ratio"] if f["ratio"] is not None else 1e9)
    assert best["ratio"] is not None and best["ratio"] <= SLOWER_AT_MOST, measured
    assert min(best["moves"]) >= MOVES // 2, best


def _hints_asked(log: Path) -> int:
    return sum(json.loads(line).get("bot") == HINT_SPEC for line in log.read_text().splitlines())


def _deciding(person: Person, game: str) -> tuple[str, str]:
    """A game of `person` (seat 0) against a bot, once the person decides: its id and
    the seat's token."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]
    r = person.post("/api/games", {"game": game, "players": 2, "seats": seats})
    assert r.status_code == 201, r.text
    gid, token = r.json()["id"], r.json()["seats"][0]["token"]
    assert person.post(f"/api/games/{gid}/join", {}, token=token).is_success
    deadline = time.monotonic() + 60
    while True:
        decision = person.get(f"/api/games/{gid}", token).json()["views"]["0"].get("decision")
        if decision is not None and decision["seat"] == 0:
            return gid, token
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_a_callers_hints_have_a_budget(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two hints a minute: the third, in another game, is refused (`rate_limited`,
    429) before any worker is asked and is not noted; a signed-in account counts its
    own, wherever it asks from. The budget's clock is held still: on a busy machine the
    two hints answered took over 30 seconds, and the bucket had rightly refilled one."""
    log = tmp_path / "requests.jsonl"
    monkeypatch.setenv("EUPHRATES_SPY", str(log))
    settings = Settings(
        db_url=sqlite_url(tmp_path),
        bot_workers=1,
        bot_pace=0,
        hints_per_minute=2,
        bot_command=[sys.executable, "-c", SPY],
    )
    game = next(iter(GAMES))
    with running_app(settings) as (url, app):
        app.state.services.hints.buckets.clock = lambda: 0.0
        anonymous, ann = Person(url), Person(url)
        assert ann.signup("Ann").status_code == 201
        games = [_deciding(anonymous, game) for _ in range(3)]
        mine = _deciding(ann, game)
        for gid, token in games[:2]:
            r = anonymous.post(f"/api/games/{gid}/seats/0/hint", token=token)
            assert r.status_code == 200, r.text
        asked = _hints_asked(log)
        assert asked == 2
        gid, token = games[2]
        r = anonymous.post(f"/api/games/{gid}/seats/0/hint", token=token)
        assert r.status_code == 429, r.text
        error = r.json()["error"]
        assert error["code"] == "rate_limited" and "2 hints a minute" in error["message"]
        assert _hints_asked(log) == asked  # no worker was asked
        notes = anonymous.get(f"/api/games/{gid}", token).json()["notes"]
        assert [n for n in notes if n["kind"] == "hint"] == []
        # From the same address, the account's budget is its own.
        r = ann.post(f"/api/games/{mine[0]}/seats/0/hint", token=mine[1])
        assert r.status_code == 200, r.text
        assert _hints_asked(log) == asked + 1

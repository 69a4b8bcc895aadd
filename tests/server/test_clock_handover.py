"""Two servers on one PostgreSQL database: the server that drives a turn-based game is
killed at its deadline, and the deadline is acted on exactly once — by the survivor,
or by the one killed if it got there first, never by both."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import IO, Any

import asyncpg
import httpx

from tests.server.harness import run_async, stop_processes

DAY = 3.0
SERVE = ["--bot-workers", "1", "--bot-pace", "0.1", "--rate-limit", "10000"]
SERVE += ["--clock-day", str(DAY), "--log-level", "info"]


def _serve(pg_url: str, log: IO[str]) -> tuple[subprocess.Popen[str], str]:
    """`euphrates serve` with its log written to `log` (to count what it acted on)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "euphrates", "serve", "--port", "0", "--db", pg_url, *SERVE],
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line.startswith("serving on "), line
    return proc, line.split()[2].rstrip("/")


def _bot_log(pg_url: str, game_id: str) -> list[tuple[int, int, str | None]]:
    async def read() -> list[tuple[int, int, str | None]]:
        conn = await asyncpg.connect(pg_url)
        try:
            rows = await conn.fetch(
                "SELECT version, seat, bot FROM log WHERE game_id = $1 ORDER BY version", game_id
            )
            return [(r["version"], r["seat"], r["bot"]) for r in rows]
        finally:
            await conn.close()

    return run_async(read())


def _game(url: str, gid: str) -> dict[str, Any]:
    doc: dict[str, Any] = httpx.get(f"{url}/api/games/{gid}", timeout=10).json()
    return doc


def test_a_deadline_is_acted_on_once_when_its_server_is_killed_at_it(
    pg_url: str, tmp_path: Path
) -> None:
    logs = [tmp_path / "a.log", tmp_path / "b.log"]
    files = [p.open("w") for p in logs]
    procs: list[subprocess.Popen[str]] = []
    try:
        a, url_a = _serve(pg_url, files[0])
        procs.append(a)
        b, url_b = _serve(pg_url, files[1])
        procs.append(b)
        created = httpx.post(
            url_a + "/api/games",
            json={
                "game": "board",
                "players": 2,
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "clock": {"mode": "turn", "days": 1, "level": "beginner"},
            },
            timeout=10,
        ).json()
        gid = created["id"]
        for s in created["seats"]:  # seated on A: A starts the clock and drives the game
            headers = {"authorization": f"Bearer {s['token']}"}
            r = httpx.post(f"{url_a}/api/games/{gid}/join", json={}, headers=headers)
            assert r.status_code == 200
        clock = _game(url_a, gid)["game"]["clock"]
        _game(url_b, gid)  # B holds the game too: moves made on A reach it as notifications
        seat = clock["seat"]
        due = datetime.fromisoformat(clock["deadline"]).timestamp()
        time.sleep(max(0.0, due - time.time()))
        os.kill(a.pid, signal.SIGKILL)  # at the deadline
        a.wait()
        deadline = time.monotonic() + 30
        while _game(url_b, gid)["game"]["clock"]["seat"] != 1 - seat:
            assert time.monotonic() < deadline, _game(url_b, gid)
            time.sleep(0.05)
        entries = _bot_log(pg_url, gid)
        assert entries and all(s == seat and bot == "beginner" for _, s, bot in entries)
        assert [v for v, _, _ in entries] == list(range(1, len(entries) + 1))
        token = created["seats"][seat]["token"]
        shown = httpx.get(
            f"{url_b}/api/games/{gid}/log", headers={"authorization": f"Bearer {token}"}
        ).json()["history"]
        assert [h.get("bot") for h in shown] == ["beginner"] * len(entries)
        for f in files:
            f.flush()
        acted = sum(p.read_text().count(f"game {gid}: seat {seat}: late") for p in logs)
        assert acted == 1, [p.read_text() for p in logs]
    finally:
        # The game would go on timing out forever (a bot plays each late turn): end it,
        # so that it is nothing any later test's servers must act on.
        with contextlib.suppress(Exception):
            host = {"authorization": f"Bearer {created['host']['token']}"}
            httpx.post(f"{url_b}/api/games/{gid}/abandon", headers=host, timeout=10)
        stop_processes(procs)
        for f in files:
            f.close()

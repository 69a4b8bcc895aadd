"""`kill -9` at random moments loses no acknowledged action and doubles none.

A real `euphrates serve` process, clients playing random legal actions over HTTP in
several games at once; the server is killed with SIGKILL at random points and started
again on the same database, several times. Afterwards every version a client got an
answer for is in the log with the action it sent, the log has no gap, and every game
replays to exactly the views the restarted server shows. A game of bots only keeps
moving across the restarts by itself.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from euphrates.games import game_definition
from euphrates.server.serve import spawn

BOT_PACE = 0.05
"""A bot's pause before it moves: a 3-player game of about 190 actions then lasts ten
seconds at least, however fast the machine, so the first kill (within two seconds of the
start) always finds the bots' game under way rather than already over."""


def start_server(db: str, bot_workers: int = 0) -> tuple[subprocess.Popen[str], str]:
    args = ["--bot-workers", str(bot_workers), "--bot-pace", str(BOT_PACE)]
    args += ["--rate-limit", "10000", "--request-limit", "100000"]
    return spawn(db, *args)


def player(
    url: str,
    game: dict[str, Any],
    acked: list[tuple[int, str]],
    stop: threading.Event,
    rng: random.Random,
) -> None:
    """Play random legal actions for both seats of one game until the server dies."""
    tokens = ",".join(s["token"] for s in game["seats"] if s["token"])
    headers = {"authorization": f"Bearer {tokens}"}
    with httpx.Client(base_url=url, timeout=5, headers=headers) as http:
        while not stop.is_set():
            try:
                doc = http.get(f"/api/games/{game['id']}").json()
                if doc["game"]["status"] != "active":
                    return
                views = doc["views"]
                seat = views["0"]["decision"]["seat"]
                action = rng.choice(views[str(seat)]["legal"])
                r = http.post(
                    f"/api/games/{game['id']}/actions",
                    json={"version": doc["version"], "seat": seat, "action": action},
                )
            except (httpx.HTTPError, KeyError, ValueError):
                return  # the server is gone
            if r.status_code == 200:
                acked.append((r.json()["version"], action))


def logged(db_path: Path, game_id: str) -> list[tuple[int, str, str]]:
    with sqlite3.connect(db_path) as conn:
        rows = conn.execute(
            "SELECT version, kind, text FROM log WHERE game_id = ? ORDER BY version", (game_id,)
        ).fetchall()
    return [(int(v), str(k), str(t)) for v, k, t in rows]


def test_kill_9_loses_nothing(tmp_path: Path) -> None:
    db_path = tmp_path / "games.db"
    db = f"sqlite:///{db_path}"
    proc, url = start_server(db, bot_workers=1)
    seats = [{"kind": "human"}, {"kind": "human"}]
    games = []
    with httpx.Client(base_url=url, timeout=10) as http:
        for i in range(4):
            created = http.post(
                "/api/games",
                json={"game": "board" if i % 2 else "cards", "players": 2, "seats": seats},
            ).json()
            for s in created["seats"]:
                http.post(
                    f"/api/games/{created['id']}/join",
                    json={"name": f"P{s['seat']}"},
                    headers={"authorization": f"Bearer {s['token']}"},
                )
            games.append(created)
        bots = http.post(
            "/api/games",
            json={
                "game": "board",
                "players": 3,
                "seats": [{"kind": "bot", "level": "beginner"}] * 3,
            },
        ).json()
    acked: dict[str, list[tuple[int, str]]] = {g["id"]: [] for g in games}
    rng = random.Random(11)
    bot_versions = []
    try:
        for _round in range(5):
            stop = threading.Event()
            threads = [
                threading.Thread(
                    target=player, args=(url, g, acked[g["id"]], stop, random.Random(rng.random()))
                )
                for g in games
            ]
            for t in threads:
                t.start()
            if _round == 0:
                # The bots' game must be under way when the server dies for the first time.
                deadline = time.monotonic() + 30
                while not logged(db_path, bots["id"]) and time.monotonic() < deadline:
                    time.sleep(0.05)
            time.sleep(rng.uniform(0.3, 1.5))
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
            stop.set()
            for t in threads:
                t.join(10)
            bot_versions.append(len(logged(db_path, bots["id"])))
            proc, url = start_server(db, bot_workers=1)
        # After the last restart: every game loads and shows the replayed state.
        with httpx.Client(base_url=url, timeout=10) as http:
            for g in games:
                rows = logged(db_path, g["id"])
                assert [v for v, _, _ in rows] == list(range(1, len(rows) + 1)), "a gap or a double"
                texts = {v: t for v, _, t in rows}
                for version, action in acked[g["id"]]:
                    assert texts.get(version) == action, (g["id"], version, action)
                state = game_definition(g["game"]["game"]).new_game(2, _seed(db_path, g["id"]), {})
                for _, _, text in rows:
                    state.apply(text)
                token = g["seats"][0]["token"]
                doc = http.get(
                    f"/api/games/{g['id']}", headers={"authorization": f"Bearer {token}"}
                ).json()
                want = state.view(0)
                want["version"] = len(rows)
                assert doc["views"]["0"] == want
                assert len(acked[g["id"]]) > 0
            # The bots' game went on by itself across the restarts, to its end.
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                doc = http.get(f"/api/games/{bots['id']}").json()
                if doc["game"]["status"] == "over":
                    break
                time.sleep(0.2)
            assert doc["game"]["status"] == "over"
            rows = logged(db_path, bots["id"])
            assert [v for v, _, _ in rows] == list(range(1, len(rows) + 1))
            assert len(rows) > bot_versions[0] > 0, (bot_versions, len(rows))
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()


def _seed(db_path: Path, game_id: str) -> int:
    with sqlite3.connect(db_path) as conn:
        return int(conn.execute("SELECT seed FROM games WHERE id = ?", (game_id,)).fetchone()[0])

"""The load test's players (loadtest.py): one WebSocket client per seat, as people
playing from different machines would, each sending a uniformly random legal action
of its view when its seat decides, and the turn-based games seated over HTTP and left
to their clocks. What they measure is kept in `Stats`."""

from __future__ import annotations

import asyncio
import json
import random
import time
import traceback
import urllib.request
from dataclasses import dataclass, field
from typing import Any

from euphrates.server.game.patch import patch_in_place

# server options that lift the per-address limits a bench would otherwise meet
UNLIMITED = (
    "--request-limit",
    "1000000",
    "--games-per-hour",
    "1000000",
    "--max-connections",
    "1000000",
    "--max-http-connections",
    "1000000",
)


@dataclass
class Stats:
    actions: int = 0
    errors: int = 0
    games_done: int = 0
    throttled: int = 0
    measuring: bool = False
    """Only moves after the warm-up (games created, clients connected) are counted."""
    welcomed: int = 0
    """Clients that have said hello and been answered (the warm-up waits for all)."""
    connect_s: float = 0.0
    latencies: list[float] = field(default_factory=list)
    turn_based_s: float = 0.0
    deadlines_before: tuple[int, float] = (0, 0.0)
    client_cpu_s: float = 0.0
    """CPU seconds this command's clients spent while measuring: near one core, they
    and not the server set the latency's tail."""
    cpu_s: float | None = None
    """CPU seconds the started servers spent while measuring (None: not known)."""
    error_samples: list[str] = field(default_factory=list)

    def error(self, what: str) -> None:
        self.errors += 1
        if len(self.error_samples) < 5:
            self.error_samples.append(what)


class GameRun:
    """One game's clients and the times its versions were sent and received."""

    def __init__(self, game_id: str, seats: int) -> None:
        self.game_id = game_id
        self.seats = seats
        self.sent: dict[int, float] = {}
        self.received: dict[int, int] = {}
        self.over = asyncio.Event()


async def client(
    url: str,
    run: GameRun,
    seat: int,
    token: str,
    stats: Stats,
    rng: random.Random,
    stop: asyncio.Event,
    think: float = 0.0,
) -> None:
    from websockets.asyncio.client import connect

    ws_url = url.replace("http://", "ws://").rstrip("/") + f"/api/games/{run.game_id}/ws"
    pending: set[asyncio.Task[None]] = set()
    async with connect(ws_url, max_size=1 << 24) as ws:
        await ws.send(json.dumps({"type": "hello", "tokens": [token], "history": False}))
        view: dict[str, Any] | None = None
        status = "waiting"
        key = str(seat)

        async def send(version: int, action: str) -> None:
            if think > 0:
                # A person (or bot) takes a moment: uniform around the mean, so that
                # the games do not move in lockstep.
                await asyncio.sleep(rng.uniform(0.5, 1.5) * think)
            if stop.is_set():
                return
            run.sent.setdefault(version + 1, time.perf_counter())
            message = {"type": "action", "version": version, "seat": seat, "action": action}
            await ws.send(json.dumps(message))

        async def maybe_act() -> None:
            if view is None or stop.is_set() or status != "active":
                return
            decision = view.get("decision")
            legal = view.get("legal") or []
            if decision is None or decision.get("seat") != seat or not legal:
                return
            task = asyncio.create_task(send(view["version"], rng.choice(legal)))
            pending.add(task)
            task.add_done_callback(pending.discard)

        async for raw in ws:
            msg = json.loads(raw)
            kind = msg.get("type")
            if kind == "update" and view is None:
                stats.error("an update came before the welcome")
                return
            if kind == "welcome":
                stats.welcomed += 1
                view = msg["views"][key]
                status = msg["game"]["status"]
                await maybe_act()
            elif kind == "game":
                # The game starts when the last seat is taken.
                status = msg["game"]["status"]
                await maybe_act()
            elif kind == "update":
                part = msg["views"][key]
                view = patch_in_place(view, part["patch"]) if "patch" in part else part["full"]
                v = msg["version"]
                n = run.received.get(v, 0) + 1
                run.received[v] = n
                if n == run.seats:
                    sent = run.sent.pop(v, None)
                    if sent is not None and stats.measuring:
                        stats.latencies.append(time.perf_counter() - sent)
                        stats.actions += 1
                    run.received.pop(v, None)
                status = msg.get("status", status)
                if status == "over":
                    run.over.set()
                    return
                await maybe_act()
            elif kind == "error" and msg.get("code") == "rate_limited":
                # One game alone can outpace the per-connection limit: wait, retry.
                stats.throttled += 1
                run.sent.pop(view["version"] + 1 if view else -1, None)
                await asyncio.sleep(0.2)
                await maybe_act()
            elif kind == "error" and msg.get("code") != "stale_version":
                stats.error(f"{msg.get('code')}: {msg.get('message')}")
            if stop.is_set():
                return


def post(url: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(
        url.rstrip("/") + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        doc: dict[str, Any] = json.loads(resp.read())
        return doc


def get(url: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=30) as resp:
        doc: dict[str, Any] = json.loads(resp.read())
        return doc


async def one_game(
    urls: list[str],
    game: str,
    players: int,
    stats: Stats,
    rng: random.Random,
    stop: asyncio.Event,
    think: float,
    clock: dict[str, Any] | None = None,
) -> None:
    while not stop.is_set():
        body: dict[str, Any] = {
            "game": game,
            "players": players,
            "seats": [{"kind": "human"}] * players,
        }
        if clock is not None:
            body["clock"] = clock
        try:
            created = await asyncio.to_thread(post, urls[0], "/api/games", body)
        except OSError as e:
            stats.error(f"create: {e}")
            await asyncio.sleep(0.5)
            continue
        run = GameRun(created["id"], players)
        tasks = [
            asyncio.create_task(
                client(urls[s % len(urls)], run, s, seat["token"], stats, rng, stop, think)
            )
            for s, seat in enumerate(created["seats"])
        ]
        _done, _pending = await asyncio.wait(
            [asyncio.create_task(run.over.wait()), asyncio.create_task(stop.wait())],
            return_when=asyncio.FIRST_COMPLETED,
        )
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except asyncio.CancelledError:
                pass
            except Exception as e:
                where = traceback.extract_tb(e.__traceback__)[-1]
                stats.error(f"client: {type(e).__name__}: {e} (line {where.lineno})")
        if run.over.is_set():
            stats.games_done += 1


async def turn_based(url: str, count: int, rng: random.Random, stats: Stats, game: str) -> None:
    """Create `count` turn-based games of `game` and take both seats of each over HTTP (their
    clocks start); nobody connects to them."""
    from euphrates.server.common.clock import DAYS

    gate = asyncio.Semaphore(8)

    async def one() -> None:
        clock = {"mode": "turn", "days": rng.choice(DAYS), "level": "beginner"}
        body = {"game": game, "players": 2, "seats": [{"kind": "human"}] * 2, "clock": clock}
        async with gate:
            try:
                created = await asyncio.to_thread(post, url, "/api/games", body)
                for seat in created["seats"]:
                    path = f"/api/games/{created['id']}/join"
                    await asyncio.to_thread(post, url, path, {}, seat["token"])
            except OSError as e:
                stats.error(f"turn-based game: {e}")

    await asyncio.gather(*(one() for _ in range(count)))

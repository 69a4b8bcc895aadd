"""`euphrates loadtest --hint-flood N`: what a flood of hints costs another game's bots.

A game of two bots plays while one client — this command, from its one address — asks
for hints without end in N other games (a person against a bot, the person never
moving: the hint is always due), and the bot game's time per move is measured three
times: alone, during the flood, and alone again once the flood's last hint came back.
Its figure in each phase is the median of the intervals between the game's versions as
a spectator's WebSocket receives them (a game that ends is followed by a new one), and
the ratio is the flood's over both phases alone, which brackets a machine whose other
load drifts.

The bot game's level plays with a fixed number of iterations (`--bot-level`, by default
`search:300i`, a fifth of a second on the first game), so a move is the same work
however busy the machine and its time measures only the wait for a worker and for the
CPU. The started server has no bot pace and the per-address limits lifted, and by
default its hint budget lifted too: the flood's hints then reach the workers, as those
of many accounts each within its budget would (`--hint-budget` keeps the budget, and
most of the flood is refused). The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

from euphrates.bench.players import UNLIMITED
from euphrates.core.errors import ArgumentError

LEVEL = "expert"
"""The level the bot game's seats name; the server plays it with the spec measured."""
SPEC = "search:300i"
REFUSED_PAUSE = 0.05
"""Seconds a flooding client waits after a refusal before it asks again."""
MAX_FLOOD = 200
SETUP_LIMIT = 120.0
HINT_TIMEOUT = 300.0
"""Seconds a flooding client waits for one hint: queued behind a dozen others on a busy
machine, it may take a while."""


@dataclass
class Arrivals:
    """The bot game's versions as they arrive: (time, game number, version)."""

    seen: list[tuple[float, int, int]] = field(default_factory=list)
    error: str | None = None

    def intervals(self, start: float, end: float) -> list[float]:
        """Seconds between consecutive versions of one game, both received in [start, end]."""
        out = []
        for (t0, g0, v0), (t1, g1, v1) in zip(self.seen, self.seen[1:], strict=False):
            if g0 == g1 and v1 == v0 + 1 and start <= t0 and t1 <= end:
                out.append(t1 - t0)
        return out


@dataclass
class Flood:
    answered: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    latencies: list[float] = field(default_factory=list)


async def _call(
    http: httpx.AsyncClient, method: str, path: str, token: str | None = None, body: Any = None
) -> httpx.Response:
    headers = {"authorization": f"Bearer {token}"} if token else {}
    return await http.request(method, path, json=body, headers=headers)


async def _created(http: httpx.AsyncClient, game: str, seats: list[dict[str, Any]]) -> Any:
    body = {"game": game, "players": len(seats), "seats": seats}
    r = await _call(http, "POST", "/api/games", body=body)
    if r.status_code != 201:
        raise RuntimeError(f"could not create a game: {r.text}")
    return r.json()


async def flood_game(http: httpx.AsyncClient, game: str) -> tuple[str, str]:
    """A game of a person (seat 0) against a beginner bot, once the person decides:
    its id and the person's token."""
    created = await _created(http, game, [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    gid, token = created["id"], created["seats"][0]["token"]
    r = await _call(http, "POST", f"/api/games/{gid}/join", token, {})
    if not r.is_success:
        raise RuntimeError(f"could not take the seat: {r.text}")
    deadline = time.monotonic() + SETUP_LIMIT
    while time.monotonic() < deadline:
        doc = (await _call(http, "GET", f"/api/games/{gid}", token)).json()
        decision = doc["views"]["0"].get("decision")
        if decision is not None and decision["seat"] == 0:
            return gid, token
        await asyncio.sleep(0.05)
    raise RuntimeError("the bot of a flooded game did not move")


async def _ask_hints(
    http: httpx.AsyncClient, gid: str, token: str, stop: asyncio.Event, flood: Flood
) -> None:
    """Hints for seat 0 without end: the next as soon as one is answered."""
    path = f"/api/games/{gid}/seats/0/hint"
    while not stop.is_set():
        began = time.perf_counter()
        r = await _call(http, "POST", path, token)
        if r.status_code == 200:
            flood.answered += 1
            flood.latencies.append(time.perf_counter() - began)
            continue
        try:
            flood.refused[str(r.json()["error"]["code"])] += 1
        except (ValueError, KeyError, TypeError):
            flood.refused[str(r.status_code)] += 1
        await asyncio.sleep(REFUSED_PAUSE)


async def _watch(url: str, game: str, http: httpx.AsyncClient, arrivals: Arrivals) -> None:
    """Follow games of two bots of LEVEL, one after the other, as a spectator."""
    from websockets.asyncio.client import connect

    number = 0
    while True:
        created = await _created(http, game, [{"kind": "bot", "level": LEVEL}] * 2)
        number += 1
        ws_url = url.replace("http://", "ws://") + f"/api/games/{created['id']}/ws"
        async with connect(ws_url, max_size=1 << 24) as ws:
            await ws.send(json.dumps({"type": "hello", "tokens": [], "history": False}))
            async for raw in ws:
                msg = json.loads(raw)
                if msg.get("type") == "welcome":
                    arrivals.seen.append((time.perf_counter(), number, msg["version"]))
                elif msg.get("type") == "update":
                    arrivals.seen.append((time.perf_counter(), number, msg["version"]))
                    if msg.get("status", "active") != "active":
                        break
                elif msg.get("type") == "error":
                    arrivals.error = f"{msg.get('code')}: {msg.get('message')}"


async def _phase(arrivals: Arrivals, seconds: float, moves: int | None) -> tuple[float, float]:
    """Wait `seconds`, or until `moves` intervals were measured (at most `seconds`)."""
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        if moves is not None and len(arrivals.intervals(start, time.perf_counter())) >= moves:
            break
        await asyncio.sleep(0.05)
    return start, time.perf_counter()


async def measure(
    url: str, game: str, games: int, seconds: float, moves: int | None = None
) -> dict[str, Any]:
    """The bot game's time per move alone, under a flood of hints in `games` games, and
    alone again. Each phase lasts `seconds`, or `moves` moves if they come sooner."""
    url = url.rstrip("/")
    limits = httpx.Limits(max_connections=games + 8)
    async with httpx.AsyncClient(base_url=url, timeout=HINT_TIMEOUT, limits=limits) as http:
        flooded = await asyncio.gather(*(flood_game(http, game) for _ in range(games)))
        arrivals = Arrivals()
        watcher = asyncio.create_task(_watch(url, game, http, arrivals))
        try:
            while len(arrivals.seen) < 3:  # the bot game is under way
                if watcher.done():
                    watcher.result()
                await asyncio.sleep(0.05)
            windows = [await _phase(arrivals, seconds, moves)]
            stop, flood = asyncio.Event(), Flood()
            asking = [asyncio.create_task(_ask_hints(http, g, t, stop, flood)) for g, t in flooded]
            windows.append(await _phase(arrivals, seconds, moves))
            stop.set()
            await asyncio.gather(*asking)  # the hints asked come back: the flood is over
            windows.append(await _phase(arrivals, seconds, moves))
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await watcher
    alone, flooding, again = (arrivals.intervals(*w) for w in windows)
    base = statistics.median(alone + again) if alone + again else None
    during = statistics.median(flooding) if flooding else None
    return {
        "flood_games": games,
        "alone_ms": _ms(statistics.median(alone) if alone else None),
        "flood_ms": _ms(during),
        "again_ms": _ms(statistics.median(again) if again else None),
        "ratio": round(during / base, 2) if during is not None and base else None,
        "moves": [len(alone), len(flooding), len(again)],
        "phase_s": [round(end - start, 1) for start, end in windows],
        "hints_answered": flood.answered,
        "hints_refused": dict(flood.refused),
        "hint_ms_p50": _ms(statistics.median(flood.latencies) if flood.latencies else None),
        "watch_error": arrivals.error,
    }


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


def server_arguments(spec: str, hint_budget: bool) -> tuple[str, ...]:
    """The started server's options besides the database: no bot pace, LEVEL played by
    `spec`, the per-address limits lifted and, unless `hint_budget`, the hints' too."""
    extra = ("--bot-pace", "0", "--bot-level", f"{LEVEL}={spec}", *UNLIMITED)
    return extra if hint_budget else (*extra, "--hints-per-minute", "1000000")


def run(args: argparse.Namespace) -> int:
    from euphrates.bots.levels import make_bot
    from euphrates.server.serve import spawn

    try:
        make_bot(args.bot_spec, 0)
    except ValueError as e:
        raise ArgumentError(f"--bot-spec: {e}") from None
    if not 1 <= args.hint_flood <= MAX_FLOOD:
        raise ArgumentError(f"--hint-flood must be 1 … {MAX_FLOOD}")
    if not 0 < args.seconds <= 3600:
        raise ArgumentError("--seconds must be more than 0 and at most 3600")
    if args.db is not None and not args.db.startswith(("sqlite:", "postgres")):
        raise ArgumentError("--db must be a sqlite:/// or postgresql:// URL")
    with tempfile.TemporaryDirectory(prefix="euphrates-hints-") as tmp:
        db = args.db or f"sqlite:///{tmp}/hints.db"
        proc, url = spawn(db, *server_arguments(args.bot_spec, args.hint_budget))
        try:
            figures = asyncio.run(measure(url, args.game, args.hint_flood, args.seconds))
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    figures.update(game=args.game, bot=args.bot_spec, hint_budget=args.hint_budget)
    budget = "its hint budget kept" if args.hint_budget else "its hint budget lifted"
    print(
        f"{args.hint_flood} games flooded with hints from one address ({budget}) beside a "
        f"game of two bots ({LEVEL} = {args.bot_spec}), {args.seconds:g} s a phase"
    )
    moves = figures["moves"]
    print(f"  alone        {figures['alone_ms']} ms a move (median of {moves[0]})")
    print(f"  flooded      {figures['flood_ms']} ms a move (median of {moves[1]})")
    print(f"  alone again  {figures['again_ms']} ms a move (median of {moves[2]})")
    print(f"  ratio        {figures['ratio']} (flooded / alone)")
    print(
        f"  hints        {figures['hints_answered']} answered, median "
        f"{figures['hint_ms_p50']} ms; refused {figures['hints_refused'] or 'none'}"
    )
    print(json.dumps(figures))
    return 0

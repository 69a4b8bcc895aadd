"""`euphrates loadtest`: many games of clients over WebSocket against a real server.

Each game has one client per seat, as people playing from different machines would;
a client whose seat's decision is pending sends a uniformly random legal action from
its view after `--think` seconds on average (0: at once, which measures the most the
server can take, with latency growing as games queue). Moves are counted after a
warm-up in which the games are created and connected. Latency is measured from a client's send to the moment the last
client of that game received the new version, so it covers the engine, the durable
append and the fan-out. Games that end are replaced, so `--games` stay in play.

`--turn-based N` adds N turn-based games of two players, seated over HTTP and left
alone, as people who answer in days: their clocks run (1, 2, 3 or 5 "days" a move, a
day being `--clock-day` seconds, 360 by default: seating 5 000 games takes minutes,
so the one-day deadlines of the games seated first fall due while the real-time games
are measured, a few a second), and when a deadline passes the server acts on it — a
beginner bot plays that turn. The `--games` then play on real-time clocks (fast). The report adds the
deadlines the server acted on while measuring and their cost (time spent acting on
them, as the server counts it), the timers it keeps, and its memory.

`--startup --stored N` measures something else: a server starting on a database of N
stored games (startup_bench.py).

Without `--url` the command starts its own server(s) on loopback (SQLite in a
temporary directory unless `--db` says otherwise; `--servers 2` with a PostgreSQL
`--db` starts two processes and connects each game's seats to different ones) and
stops them at the end. The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
import traceback
import urllib.request
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from euphrates.core.errors import ArgumentError
from euphrates.server.game.patch import patch_in_place

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
UNLIMITED = (
    "--request-limit",
    "1000000",
    "--games-per-hour",
    "1000000",
    "--max-connections",
    "1000000",
)
"""Every client of the load test has one address: the per-address limits are lifted
(the per-connection rate limit stays as configured)."""
WARM_UP_LIMIT = 120.0
MAX_GAMES = 2000
"""Games played at once. All are created and connected before the measurement: 200
games take 6–10 s on a two-core machine, so this many take most of WARM_UP_LIMIT, and
at four players hold 8 000 connections (with as many descriptors on each side)."""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=200, help="concurrent games (1 … 2000)")
    p.add_argument("--seconds", type=float, default=20.0, help="how long to play")
    p.add_argument("--players", type=int, default=2, choices=[2, 3, 4])
    p.add_argument("--game", choices=["board", "cards"], default="board")
    p.add_argument("--url", default=None, help="a running server on loopback (else one is started)")
    p.add_argument("--db", default=None, help="database for the started server(s)")
    p.add_argument("--servers", type=int, default=1, help="server processes to start (PostgreSQL)")
    p.add_argument("--seed", type=int, default=None, help="seed of the clients' random choices")
    p.add_argument(
        "--startup",
        action="store_true",
        help="instead: fill a database with --stored games and measure a server's start",
    )
    p.add_argument("--stored", type=int, default=100_000, help="games stored for --startup")
    p.add_argument(
        "--quickmatch",
        type=int,
        default=0,
        help="instead: N players waiting for a quick match, and what a pass over them costs "
        "(--db: a scratch database, its pool is emptied)",
    )
    p.add_argument(
        "--turn-based",
        type=int,
        default=0,
        help="turn-based games alongside, seated and left to their clocks (0 … 20000)",
    )
    p.add_argument(
        "--clock-day",
        type=float,
        default=360.0,
        help="seconds a 'day' of the turn-based clocks lasts (default: %(default)s)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=0.3,
        help="mean seconds a client waits before its move (0: as fast as the server answers)",
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


async def _client(
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


def _post(url: str, path: str, body: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    headers = {"content-type": "application/json"}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    req = urllib.request.Request(
        url.rstrip("/") + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        doc: dict[str, Any] = json.loads(resp.read())
        return doc


def _get(url: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(url.rstrip("/") + path, timeout=30) as resp:
        doc: dict[str, Any] = json.loads(resp.read())
        return doc


async def _one_game(
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
            created = await asyncio.to_thread(_post, urls[0], "/api/games", body)
        except OSError as e:
            stats.error(f"create: {e}")
            await asyncio.sleep(0.5)
            continue
        run = GameRun(created["id"], players)
        tasks = [
            asyncio.create_task(
                _client(urls[s % len(urls)], run, s, seat["token"], stats, rng, stop, think)
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


async def _turn_based(url: str, count: int, rng: random.Random, stats: Stats) -> None:
    """Create `count` turn-based games and take both seats of each over HTTP (their
    clocks start); nobody connects to them."""
    from euphrates.server.common.clock import DAYS

    gate = asyncio.Semaphore(8)

    async def one() -> None:
        clock = {"mode": "turn", "days": rng.choice(DAYS), "level": "beginner"}
        body = {"game": "board", "players": 2, "seats": [{"kind": "human"}] * 2, "clock": clock}
        async with gate:
            try:
                created = await asyncio.to_thread(_post, url, "/api/games", body)
                for seat in created["seats"]:
                    path = f"/api/games/{created['id']}/join"
                    await asyncio.to_thread(_post, url, path, {}, seat["token"])
            except OSError as e:
                stats.error(f"turn-based game: {e}")

    await asyncio.gather(*(one() for _ in range(count)))


def _start_servers(
    db: str, count: int, extra: tuple[str, ...] = ("--bot-workers", "0")
) -> tuple[list[subprocess.Popen[str]], list[str]]:
    from euphrates.server.serve import spawn

    procs, urls = [], []
    for _ in range(count):
        proc, url = spawn(db, *extra, *UNLIMITED)
        procs.append(proc)
        urls.append(url)
    return procs, urls


def _health(urls: list[str]) -> dict[str, Any]:
    """The servers' deadline figures, summed."""
    out: dict[str, Any] = {"deadlines": 0, "deadlines_acted": 0, "deadline_ms": 0.0}
    for u in urls:
        with contextlib.suppress(OSError, ValueError, KeyError):
            doc = _get(u, "/api/health")
            for key in out:
                out[key] += doc[key]
    return out


def cpu_seconds(pids: list[int]) -> float | None:
    """User and system CPU seconds the processes have used (Linux's /proc; None
    elsewhere or for a server this command did not start). Unlike latency, this holds
    still on a machine busy with other work: it is what the server costs per action."""
    if not pids:
        return None
    total = 0
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            return None
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14, 15)
    return total / tick


def _rss(urls: list[str]) -> float:
    total = 0.0
    for u in urls:
        with contextlib.suppress(OSError, ValueError, KeyError):
            total += float(_get(u, "/api/health")["rss_mb"])
    return round(total, 1)


def run(args: argparse.Namespace) -> int:
    if args.quickmatch:
        from euphrates.bench.quickmatch import run as quickmatch

        return quickmatch(args)
    if args.startup:
        if not 1 <= args.stored <= 10_000_000:
            raise ArgumentError("--stored must be 1 … 10000000")
        if args.db is not None and not args.db.startswith(("sqlite:", "postgres")):
            raise ArgumentError("--db must be a sqlite:/// or postgresql:// URL")
        from euphrates.bench.startup import run as startup

        return startup(args)
    if not 1 <= args.games <= MAX_GAMES:
        raise ArgumentError(
            f"--games must be 1 … {MAX_GAMES}: every game is created and its clients "
            "connected before play starts"
        )
    if not 0 < args.seconds <= 3600:  # NaN fails every comparison: refused too
        raise ArgumentError("--seconds must be more than 0 and at most 3600")
    if not 0 <= args.think <= 60:
        raise ArgumentError("--think must be 0 … 60 seconds")
    if not 0 <= args.turn_based <= 20_000:
        raise ArgumentError("--turn-based must be 0 … 20000")
    if not 1 <= args.clock_day <= 86400:
        raise ArgumentError("--clock-day must be 1 … 86400 seconds")
    if not 1 <= args.servers <= 8:
        raise ArgumentError("--servers must be 1 … 8")
    if args.url is not None:
        host = urlsplit(args.url).hostname or ""
        if host not in LOOPBACK:
            raise ArgumentError(
                "--url must name a server on this machine (127.0.0.1, localhost, ::1)"
            )
    if args.servers > 1 and not (args.db or "").startswith("postgres"):
        raise ArgumentError(
            "several servers share games only through PostgreSQL: give --db postgresql://…"
        )
    tmp = None
    procs: list[subprocess.Popen[str]] = []
    if args.url:
        urls = [args.url.rstrip("/")]
    else:
        tmp = tempfile.TemporaryDirectory(prefix="euphrates-load-")
        db = args.db or f"sqlite:///{tmp.name}/load.db"
        extra: tuple[str, ...] = ("--bot-workers", "0")
        if args.turn_based:  # a bot plays the turn of a deadline passed
            extra = ("--bot-workers", "1", "--clock-day", str(args.clock_day))
        procs, urls = _start_servers(db, args.servers, extra)
    try:
        stats = asyncio.run(_drive(urls, args, [p.pid for p in procs]))
        rss = _rss(urls)
        after = _health(urls)
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        if tmp is not None:
            tmp.cleanup()
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    result = {
        "actions_per_s": round(stats.actions / args.seconds, 1),
        "p50_ms": round(p50, 1),
        "p99_ms": round(p99, 1),
        "errors": stats.errors,
        "games": args.games,
        "rss_mb": rss,
        "servers": len(urls),
        "games_finished": stats.games_done,
        "throttled": stats.throttled,
        "seconds": args.seconds,
        "think_s": args.think,
        "connect_s": round(stats.connect_s, 1),
        "server_cpu_ms_per_action": (
            round(stats.cpu_s * 1000 / stats.actions, 2)
            if stats.cpu_s is not None and stats.actions
            else None
        ),
        "client_cpu_share": round(stats.client_cpu_s / args.seconds, 2),
    }
    if args.turn_based:
        acted = after["deadlines_acted"] - stats.deadlines_before[0]
        cost = after["deadline_ms"] - stats.deadlines_before[1]
        result.update(
            turn_based=args.turn_based,
            clock_day_s=args.clock_day,
            turn_based_s=round(stats.turn_based_s, 1),
            deadlines_kept=after["deadlines"],
            deadlines_acted=acted,
            deadlines_per_s=round(acted / args.seconds, 2),
            deadline_ms_each=round(cost / acted, 2) if acted else 0.0,
            deadline_ms_per_s=round(cost / args.seconds, 1),
        )
    where = args.db or ("SQLite" if not args.url else args.url)
    print(
        f"{args.games} games of {args.players} players on {len(urls)} server(s) ({where}), {args.seconds} s"
    )
    print(f"  actions/s        {result['actions_per_s']}")
    print(
        f"  latency p50/p99  {result['p50_ms']} / {result['p99_ms']} ms (send to every client's receipt)"
    )
    print(
        f"  errors           {stats.errors}"
        + (f"  e.g. {stats.error_samples}" if stats.error_samples else "")
    )
    print(f"  games finished   {stats.games_done}")
    print(f"  connecting took  {result['connect_s']} s (not measured)")
    if args.turn_based:
        print(
            f"  turn-based       {args.turn_based} games seated in {result['turn_based_s']} s "
            f"(not measured); {result['deadlines_kept']} deadlines kept at the end"
        )
        print(
            f"  deadlines acted  {result['deadlines_acted']} while measuring "
            f"({result['deadlines_per_s']}/s), {result['deadline_ms_each']} ms each, "
            f"{result['deadline_ms_per_s']} ms of every second"
        )
    if result["server_cpu_ms_per_action"] is not None:
        print(
            f"  server CPU       {result['server_cpu_ms_per_action']} ms an action "
            "(deadlines and clocks included)"
        )
    print(f"  clients' CPU     {result['client_cpu_share']} of a core")
    print(f"  server memory    {rss} MB")
    print(json.dumps(result))
    return 0


async def _drive(urls: list[str], args: argparse.Namespace, pids: list[int]) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    rng = random.Random(args.seed if args.seed is not None else int.from_bytes(os.urandom(8)))
    clock = None
    if args.turn_based:
        began = time.monotonic()
        await _turn_based(urls[0], args.turn_based, rng, stats)
        stats.turn_based_s = time.monotonic() - began
        clock = {"mode": "realtime", "preset": "fast"}
    tasks = [
        asyncio.create_task(
            _one_game(urls, args.game, args.players, stats, rng, stop, args.think, clock)
        )
        for _ in range(args.games)
    ]
    # Creating 200 games and connecting their clients is much more work than playing
    # them: wait until every client has been welcomed, however long that takes on this
    # machine, then a moment more, so that only play is measured.
    clients = args.games * args.players
    start = time.monotonic()
    deadline = start + WARM_UP_LIMIT
    while stats.welcomed < clients and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    stats.connect_s = time.monotonic() - start
    if stats.welcomed < clients:
        stats.error(f"only {stats.welcomed} of {clients} clients connected in {WARM_UP_LIMIT} s")
    await asyncio.sleep(warm_up(args))
    if args.turn_based:
        before = await asyncio.to_thread(_health, urls)
        stats.deadlines_before = (before["deadlines_acted"], before["deadline_ms"])
    cpu_before = cpu_seconds(pids)
    own_before = time.process_time()
    stats.measuring = True
    await asyncio.sleep(args.seconds)
    stats.measuring = False
    stats.client_cpu_s = time.process_time() - own_before
    cpu_after = cpu_seconds(pids)
    if cpu_before is not None and cpu_after is not None:
        stats.cpu_s = cpu_after - cpu_before
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    for t in tasks:
        t.cancel()
    return stats


def warm_up(args: argparse.Namespace) -> float:
    """Seconds of play, once every client is connected, before measuring."""
    return min(5.0, 1.0 + float(args.games) / 100)

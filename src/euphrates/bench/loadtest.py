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
stored games (startup_bench.py); `--hint-flood N`, a bot game's time per move while one
address asks for hints without end in N games (hintflood.py).

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
from typing import Any
from urllib.parse import urlsplit

from euphrates.bench import players
from euphrates.bench.players import UNLIMITED, Stats
from euphrates.core.errors import ArgumentError
from euphrates.games import GAMES

LOOPBACK = {"127.0.0.1", "localhost", "::1", "[::1]"}
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
    p.add_argument("--game", choices=list(GAMES), default=next(iter(GAMES)))
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
        "--quickmatch-pool",
        choices=["mixed", "duels"],
        default="mixed",
        help="with --quickmatch: waits for every kind of table (2–4 players, every clock, "
        "options), or only for duels at the medium clock",
    )
    p.add_argument(
        "--hint-flood",
        type=int,
        default=0,
        help="instead: a game of bots' time per move alone and while one address asks for "
        "hints without end in N games (each phase --seconds long)",
    )
    p.add_argument(
        "--bot-spec",
        default="search:300i",
        help="the bot game's bot for --hint-flood: a fixed number of iterations, so that a "
        "move is the same work however busy the machine (default: %(default)s)",
    )
    p.add_argument(
        "--hint-budget",
        action="store_true",
        help="with --hint-flood: keep the server's hint budget (by default lifted, so that "
        "the flood reaches the bot workers)",
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
        "--tournaments",
        type=int,
        default=0,
        help="tournaments running beside the games, started before the play (0 … 50)",
    )
    p.add_argument(
        "--think",
        type=float,
        default=0.3,
        help="mean seconds a client waits before its move (0: as fast as the server answers)",
    )


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
            doc = players.get(u, "/api/health")
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
            total += float(players.get(u, "/api/health")["rss_mb"])
    return round(total, 1)


def run(args: argparse.Namespace) -> int:
    if args.hint_flood:
        from euphrates.bench.hintflood import run as hint_flood

        return hint_flood(args)
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
    if not 0 <= args.tournaments <= 50:
        raise ArgumentError("--tournaments must be 0 … 50")
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
    seeded = {"tournaments": 0, "games": 0}
    try:
        if args.tournaments:
            from euphrates.bench.tournaments import seed

            seeded = seed(urls[0], args.tournaments)
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
    if args.tournaments:
        result.update(tournaments=seeded["tournaments"], tournament_games=seeded["games"])
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
    if args.tournaments:
        print(
            f"  tournaments      {seeded['tournaments']} running, {seeded['games']} games waiting"
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
        await players.turn_based(urls[0], args.turn_based, rng, stats, args.game)
        stats.turn_based_s = time.monotonic() - began
        clock = {"mode": "realtime", "preset": "fast"}
    tasks = [
        asyncio.create_task(
            players.one_game(urls, args.game, args.players, stats, rng, stop, args.think, clock)
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

"""Every client gets `welcome` first and then every later version once, in order.

Bots play each other with no pause while hundreds of clients connect at once, fresh
or resuming from a version they saw: a client that joins between two versions must
get the one after its welcome's, never one from before it, never one twice.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Iterator
from typing import Any

import pytest
from websockets.asyncio.client import connect

from euphrates.server.common.config import Settings
from tests.server.harness import Api, run_async, running_server

CONNECTIONS = 500
GAMES = 4
UPDATES_WANTED = 15


@pytest.fixture
def bots_base(db_url: str) -> Iterator[str]:
    settings = Settings(
        db_url=db_url,
        bot_workers=2,
        bot_pace=0,
        rate_per_s=5000,
        rate_burst=5000,
        max_connections_per_address=10_000,
        max_http_connections_per_address=10_000,
        games_per_hour=10_000,
    )
    with running_server(settings) as url:
        yield url


async def _watch(
    url: str, gid: str, since: int | None, problems: list[str], counts: list[int]
) -> int | None:
    """Connect, check the order of what arrives; returns the last version seen."""
    ws_url = url.replace("http://", "ws://") + f"/api/games/{gid}/ws"
    async with connect(ws_url, max_size=1 << 24, open_timeout=60) as ws:
        hello: dict[str, Any] = {"type": "hello", "tokens": [], "history": False}
        if since is not None:
            hello["version"] = since
        await ws.send(json.dumps(hello))
        expected: int | None = None
        updates = 0
        deadline = time.monotonic() + 20
        while updates < UPDATES_WANTED and time.monotonic() < deadline:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.01, deadline - time.monotonic()))
            except TimeoutError:
                break
            msg = json.loads(raw)
            kind = msg["type"]
            if expected is None:
                if kind != "welcome":
                    problems.append(f"{kind} v{msg.get('version')} before the welcome")
                    return None
                start = msg.get("resumed_from", msg["version"])
                if since is not None and "resumed_from" in msg and start != since:
                    problems.append(f"resumed from {start}, asked {since}")
                expected = start + 1
                if msg["game"]["status"] != "active" and "resumed_from" not in msg:
                    return int(msg["version"])
            elif kind == "update":
                if msg["version"] != expected:
                    problems.append(f"update v{msg['version']} where v{expected} was due")
                    return None
                expected += 1
                updates += 1
                if msg["status"] != "active":
                    break
        counts.append(updates)
        return None if expected is None else expected - 1


def test_welcome_first_then_every_version_once_in_order(bots_base: str) -> None:
    api = Api(bots_base)
    seats = [{"kind": "bot", "level": "beginner"}] * 4
    games = [api.create("cards", seats)["id"] for _ in range(GAMES)]
    problems: list[str] = []
    counts: list[int] = []  # updates each connection received

    async def resumed(gid: str) -> None:
        seen = await _watch(bots_base, gid, None, problems, counts)
        if seen is not None:
            await _watch(bots_base, gid, seen, problems, counts)

    async def main() -> None:
        tasks: list[Awaitable[object]] = []
        for i in range(CONNECTIONS):
            gid = games[i % GAMES]
            if i % 5 == 0:
                tasks.append(resumed(gid))
            else:
                tasks.append(_watch(bots_base, gid, None, problems, counts))
        await asyncio.gather(*tasks)

    run_async(main())
    assert not problems, f"{len(problems)} connections out of order, e.g. {problems[:5]}"
    moved = [api.call("GET", f"/api/games/{g}").json()["version"] for g in games]
    assert all(v > UPDATES_WANTED for v in moved), moved
    # The games were moving while the clients connected: most saw updates arrive.
    assert sum(1 for n in counts if n > 0) > CONNECTIONS // 2, counts

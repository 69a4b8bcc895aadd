"""Who the bot workers serve first (game/workers.py): a table's move, then a hint, then
a review; with workers of their own for hints and reviews, started at a lower
priority, a move never waits behind either; without, they never take the last idle
worker of several."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from euphrates.server.game.workers import HINT, BotFailure, BotPool
from tests.server.harness import run_async

TOLD = r"""
import json, os, sys, time
from euphrates.bots.process import child_setup, serve
log, go = os.environ["EUPHRATES_SPY"], os.environ["EUPHRATES_GO"]
def handle(line):
    request = json.loads(line)
    what = request.get("bot") or "review"
    with open(log, "a") as f:
        f.write(json.dumps({"what": what, "pid": os.getpid(), "nice": os.nice(0)}) + "\n")
    if what.startswith("held"):  # answered once the test says so
        while not os.path.exists(go):
            time.sleep(0.01)
    if "bot" in request:
        return {"id": request["id"], "action": "pass"}
    return {"id": request["id"], "before": 0.5, "after": 0.5, "best": None, "estimate": "model"}
requests, replies = child_setup(sys.argv[1:])
sys.exit(serve(requests, replies, handle))
"""
"""A worker that writes down what it is asked, by whom (its pid, its niceness), and
holds the requests named `held…` until the test's file `go` exists."""

VIEW: dict[str, Any] = {"game": "board", "legal": ["pass"]}


class Told:
    def __init__(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.log, self.go = tmp_path / "asked.jsonl", tmp_path / "go"
        monkeypatch.setenv("EUPHRATES_SPY", str(self.log))
        monkeypatch.setenv("EUPHRATES_GO", str(self.go))

    def asked(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]

    async def until_asked(self, count: int) -> None:
        async with asyncio.timeout(30):
            while len(self.asked()) < count:
                await asyncio.sleep(0.01)


@pytest.fixture
def told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Told:
    return Told(tmp_path, monkeypatch)


def pool_of(size: int, background: int) -> BotPool:
    return BotPool(size, [sys.executable, "-c", TOLD], background)


async def started(coro: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
    """The request's task, once it is waiting for a worker or has one."""
    task = asyncio.create_task(coro)
    await asyncio.sleep(0)
    return task


def test_a_shared_worker_serves_moves_then_hints_then_reviews(told: Told) -> None:
    async def main() -> list[str]:
        pool = pool_of(1, 0)
        await pool.start()
        try:
            first = await started(pool.choose("board", "held", VIEW))
            await told.until_asked(1)
            # Asked while the only worker thinks, the least urgent first.
            waiting = [
                await started(pool.review("board", VIEW, "pass", 0)),
                await started(pool.choose("board", "hint", VIEW, priority=HINT)),
                await started(pool.choose("board", "move", VIEW)),
            ]
            assert pool.waiting(HINT) == 1
            told.go.touch()
            async with asyncio.timeout(30):
                await asyncio.gather(first, *waiting)
        finally:
            await pool.close()
        return [a["what"] for a in told.asked()]

    assert run_async(main()) == ["held", "move", "hint", "review"]


def test_hints_and_reviews_have_workers_of_their_own_at_a_lower_priority(told: Told) -> None:
    async def main() -> None:
        pool = pool_of(1, 1)
        await pool.start()
        try:
            hint = await started(pool.choose("board", "held hint", VIEW, priority=HINT))
            await told.until_asked(1)
            review = await started(pool.review("board", VIEW, "pass", 0))
            # The hint holds its worker, the review waits for it: moves go on.
            async with asyncio.timeout(30):
                for _ in range(3):
                    assert await pool.choose("board", "move", VIEW) == "pass"
            assert not hint.done() and not review.done()
            told.go.touch()
            async with asyncio.timeout(30):
                await asyncio.gather(hint, review)
        finally:
            await pool.close()

    run_async(main())
    asked = told.asked()
    assert [a["what"] for a in asked] == ["held hint", "move", "move", "move", "review"]
    background = {a["pid"] for a in asked if a["what"] != "move"}
    moves = {a["pid"] for a in asked if a["what"] == "move"}
    assert len(background) == 1 and len(moves) == 1 and background != moves
    lower, normal = asked[0]["nice"], asked[1]["nice"]
    assert lower > normal, asked  # nice 10 more, unless the tests already run at 19


def test_a_shared_hint_leaves_the_last_idle_worker_to_the_moves(told: Told) -> None:
    async def main() -> None:
        pool = pool_of(2, 0)
        await pool.start()
        try:
            held = await started(pool.choose("board", "held move", VIEW))
            await told.until_asked(1)
            hint = await started(pool.choose("board", "hint", VIEW, priority=HINT))
            async with asyncio.timeout(30):
                assert await pool.choose("board", "move", VIEW) == "pass"
            assert not hint.done()  # one worker thinks, the other stays for moves
            told.go.touch()
            async with asyncio.timeout(30):
                await asyncio.gather(held, hint)
        finally:
            await pool.close()

    run_async(main())
    assert [a["what"] for a in told.asked()] == ["held move", "move", "hint"]


def test_a_request_given_up_while_waiting_takes_no_worker(told: Told) -> None:
    """A hint whose asker went (cancelled) leaves the queue; a request still waiting
    when the pool closes fails instead of waiting for ever."""

    async def main() -> None:
        pool = pool_of(1, 0)
        await pool.start()
        try:
            held = await started(pool.choose("board", "held", VIEW))
            await told.until_asked(1)
            hint = await started(pool.choose("board", "hint", VIEW, priority=HINT))
            hint.cancel()
            move = await started(pool.choose("board", "move", VIEW))
            told.go.touch()
            async with asyncio.timeout(30):
                assert await move == "pass" and await held == "pass"
            assert hint.cancelled() and pool.waiting(HINT) == 0
            told.go.unlink()
            last = await started(pool.choose("board", "held again", VIEW))
            await told.until_asked(3)
            late = await started(pool.choose("board", "late", VIEW))
        finally:
            await pool.close()
        with pytest.raises(BotFailure):
            await late
        with pytest.raises(BotFailure):
            await last

    run_async(main())
    assert [a["what"] for a in told.asked()] == ["held", "move", "held again"]


def test_a_games_next_hint_goes_to_the_worker_that_read_it(told: Told) -> None:
    """Three hint workers: each game's hints go to the worker that served it last,
    whose reading of the table is warm, while that worker is idle; none waits for it."""

    async def main() -> None:
        pool = pool_of(1, 3)
        await pool.start()
        try:
            # three games' hints at once: a worker each
            first = [
                await started(pool.choose("cards", f"held {g}", VIEW, HINT, game_id=g))
                for g in ("g1", "g2", "g3")
            ]
            await told.until_asked(3)
            told.go.touch()
            async with asyncio.timeout(30):
                await asyncio.gather(*first)
                for g in ("g2", "g3", "g1", "g2", "g1", "g3"):
                    await pool.choose("cards", f"hint {g}", VIEW, HINT, game_id=g)
            # the worker that read g1 is busy: g1's next hint takes another, at once
            told.go.unlink()
            busy = await started(pool.choose("cards", "held g1", VIEW, HINT, game_id="g1"))
            await told.until_asked(10)
            async with asyncio.timeout(30):
                await pool.choose("cards", "hint g1", VIEW, HINT, game_id="g1")
            told.go.touch()
            async with asyncio.timeout(30):
                await busy
        finally:
            await pool.close()

    run_async(main())
    asked = told.asked()
    worker = {a["what"].split()[-1]: a["pid"] for a in asked[:3]}
    assert len(set(worker.values())) == 3
    for a in asked[3:10]:
        assert a["pid"] == worker[a["what"].split()[-1]], (a, worker)
    assert asked[10]["what"] == "hint g1" and asked[10]["pid"] != worker["g1"]

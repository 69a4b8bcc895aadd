"""The server's one client of the bot workers' protocol checks every answer: a worker
that answers anything but what was asked is a `BotFailure` (never an AttributeError
that a route turns into `server_error`), it is replaced, and a hint asked of it is
refused as `bot_unavailable`."""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.server.common.config import Settings
from euphrates.server.game.workers import BotFailure, BotPool
from tests.server.harness import Api, run_async, running_server

ANSWERING = r"""
import os, sys
reply = os.environ["EUPHRATES_REPLY"]
for _line in sys.stdin:
    sys.stdout.write(reply + "\n")
    sys.stdout.flush()
"""
"""A worker that answers every request with the same line."""

MALFORMED = {
    "a list": "[]",
    "null": "null",
    "a number": "3",
    "a string": '"pass"',
    "another id": '{"id": 999, "action": "pass"}',
    "no id": '{"action": "pass"}',
    "an action that is no text": '{"id": 1, "action": 5}',
    "not JSON": "pass",
}

VIEW: dict[str, Any] = {"game": "board", "legal": ["pass"]}


@pytest.mark.parametrize("reply", list(MALFORMED.values()), ids=list(MALFORMED))
def test_a_malformed_answer_is_a_bot_failure_and_the_worker_is_replaced(
    reply: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EUPHRATES_REPLY", reply)

    async def main() -> list[str]:
        pool = BotPool(1, [sys.executable, "-c", ANSWERING])
        await pool.start()
        failures = []
        try:
            for _ in range(2):  # the replaced worker is asked again: no hang, no crash
                with pytest.raises(BotFailure) as e:
                    await asyncio.wait_for(pool.choose("board", "beginner", VIEW), 20)
                failures.append(str(e.value))
            with pytest.raises(BotFailure):
                await asyncio.wait_for(pool.review("board", VIEW, "pass", 0), 20)
        finally:
            await pool.close()
        return failures

    failures = run_async(main())
    assert all(f for f in failures), failures


def test_a_well_formed_answer_is_the_action(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same fake worker answering in protocol is heard: the test above fails for
    the answers, not for the worker."""
    monkeypatch.setenv("EUPHRATES_REPLY", '{"id": 1, "action": "pass"}')

    async def main() -> str:
        pool = BotPool(1, [sys.executable, "-c", ANSWERING])
        await pool.start()
        try:
            return await asyncio.wait_for(pool.choose("board", "beginner", VIEW), 20)
        finally:
            await pool.close()

    assert run_async(main()) == "pass"


@pytest.fixture(params=["[]", "null", "3", '{"id": 999, "action": "pass"}'])
def broken_workers(
    request: pytest.FixtureRequest, db_url: str, monkeypatch: pytest.MonkeyPatch
) -> Iterator[str]:
    """A server whose bot workers all answer out of protocol."""
    monkeypatch.setenv("EUPHRATES_REPLY", request.param)
    settings = Settings(
        db_url=db_url,
        bot_workers=1,
        bot_pace=0,
        bot_command=[sys.executable, "-c", ANSWERING],
    )
    with running_server(settings) as url:
        yield url


def test_a_hint_from_a_malformed_worker_is_bot_unavailable(broken_workers: str) -> None:
    api = Api(broken_workers)
    created = api.create("cards", [{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    gid, token = created["id"], created["seats"][0]["token"]
    assert api.call("POST", f"/api/games/{gid}/join", token, {}).is_success
    # Wherever the decision is, the hint is asked of the human seat while it decides;
    # the bot's own moves fall back to a random legal one after three failures.
    deadline = time.monotonic() + 60
    while True:
        doc = api.call("GET", f"/api/games/{gid}", token).json()
        decision = doc["views"]["0"].get("decision")
        if decision is not None and decision["seat"] == 0:
            break
        assert time.monotonic() < deadline, doc["game"]
        time.sleep(0.1)
    r = api.call("POST", f"/api/games/{gid}/seats/0/hint", token)
    assert r.status_code == 503, r.text
    assert r.json()["error"]["code"] == "bot_unavailable"
    assert "protocol" in r.json()["error"]["message"]
    assert api.call("GET", f"/api/games/{gid}", token).status_code == 200

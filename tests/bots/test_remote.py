"""RemoteBot: a bot in a worker of its own; answers are checked against the view's legal
actions, a broken or silent worker is a BotError, and seeded play replays exactly."""

from __future__ import annotations

import re
import sys
import time
from typing import Any

import pytest

from euphrates.bots.levels import make_bot
from euphrates.bots.remote import BotError, RemoteBot, WorkerProcess, spawn_bot
from euphrates.core.errors import EuphratesError
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.match.play import UnfinishedGame, play_game
from tests.bots.procs import gone, wait_gone

# A stand-in for the worker that misbehaves in the way its first argument names.
FAKE = """
import json, sys, time
mode = sys.argv[1]
for line in sys.stdin:
    request = json.loads(line)
    legal = request["view"]["legal"]
    if mode == "illegal":
        print(json.dumps({"id": request["id"], "action": "not-an-action"}), flush=True)
    elif mode == "garbage":
        print("hello", flush=True)
    elif mode == "list":
        print("[1, 2]", flush=True)
    elif mode == "exit":
        sys.stderr.write("the worker broke down\\n")
        sys.exit(3)
    elif mode == "sleep":
        time.sleep(60)
    elif mode == "wrong-id":
        print(json.dumps({"id": 999, "action": legal[0]}), flush=True)
    elif mode == "error":
        print(json.dumps({"id": request["id"], "error": "no idea"}), flush=True)
"""


def _state(name: str = "board") -> Any:
    definition = game_definition(name)
    state = definition.new_game(2, 5)
    rng = Rng(5)
    for _ in range(9):
        state.apply(state.random_action(rng))
    return definition, state


def _fake(mode: str, timeout: float | None = None) -> RemoteBot:
    return RemoteBot("fake", 1, command=[sys.executable, "-c", FAKE, mode], timeout=timeout)


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("illegal", "not one of the"),
        ("garbage", "not JSON"),
        ("list", "not an object"),
        ("exit", "exited without answering (code 3): the worker broke down"),
        ("wrong-id", "answered request 999"),
        ("error", "could not decide: no idea"),
    ],
)
def test_a_worker_that_misbehaves_is_a_bot_error(mode: str, words: str) -> None:
    definition, state = _state()
    with _fake(mode) as bot:
        with pytest.raises(BotError, match=re.escape(words)) as caught:
            bot.choose(definition, state.view(state.decision().seat))
        assert isinstance(caught.value, EuphratesError)


def test_a_silent_worker_times_out_and_is_killed() -> None:
    definition, state = _state()
    bot = _fake("sleep", timeout=0.5)
    start = time.monotonic()
    with pytest.raises(BotError, match=r"no answer within 0\.5 s"):
        bot.choose(definition, state.view(state.decision().seat))
    assert time.monotonic() - start < 5
    assert wait_gone([bot.worker.pid], 2.0) == []
    with pytest.raises(BotError):  # a dead worker stays an error, never a hang
        bot.choose(definition, state.view(state.decision().seat))
    bot.close()


def test_close_and_with_end_the_worker() -> None:
    with spawn_bot("random", 3) as bot:
        pid = bot.worker.pid
        assert not gone(pid)
    assert wait_gone([pid], 2.0) == []
    other = spawn_bot("greedy", 3)
    other.close()
    other.close()  # twice is harmless
    assert wait_gone([other.worker.pid], 2.0) == []


def test_a_bad_name_is_refused_before_a_process_starts() -> None:
    for bad in ("wizard", "mcts:0i", "mcts:-1s"):
        with pytest.raises(ValueError):
            spawn_bot(bad, 1)
    with pytest.raises(ValueError, match="seed"):
        spawn_bot("random", -1)


def test_remote_bots_describe_themselves_as_their_local_twins() -> None:
    worker = WorkerProcess()
    try:
        for spec in ("random", "greedy", "strong", "mcts:250ms", "mcts:40i"):
            assert RemoteBot(spec, 1, worker=worker).describe() == make_bot(spec).describe()
    finally:
        worker.close()


def test_a_remote_bot_refuses_a_view_without_its_decision() -> None:
    definition, state = _state()
    idle = 1 - state.decision().seat
    with spawn_bot("random", 1) as bot, pytest.raises(ValueError):
        bot.choose(definition, state.view(idle))


@pytest.mark.parametrize(("name", "decisions"), [("board", 12), ("cards", 24)])
def test_seeded_remote_play_replays_exactly(name: str, decisions: int) -> None:
    """Every decision is a fresh bot in the worker, seeded from the bot's seed and the
    decision's number, so an iteration budget replays move for move (the first
    decisions of a game here, to keep the test quick)."""
    games = []
    for _ in range(2):
        with spawn_bot("mcts:8i", 7) as a, spawn_bot("greedy", 8) as b:
            with pytest.raises(UnfinishedGame) as stopped:
                play_game(name, [a, b], seed=31, max_decisions=decisions)
            games.append(stopped.value.record.actions)
            assert a.total_iterations > 0 and a.decisions > 0
    assert games[0] == games[1] and len(games[0]) == decisions

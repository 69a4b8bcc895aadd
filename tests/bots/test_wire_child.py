"""The worker protocol's checks (bots/wire.py) at work on real child processes: a worker
that answers garbage of any shape is killed and reported cleanly, at once, never with
an AttributeError and never by waiting; one that refuses stays alive and in step."""

from __future__ import annotations

import re
import sys
import time
from typing import Any

import pytest

from euphrates.bots.process import Child, ChildError
from euphrates.bots.remote import BotError, RemoteBot, WorkerProcess
from euphrates.bots.wire import RefusedError, WireError
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from tests.bots.procs import wait_gone

# A stand-in for the worker: it answers every request with the line of its first
# argument, `ID` replaced by the request's id, then waits for the next request.
ECHO = """
import json, sys
template = sys.argv[1].encode("latin-1")
for line in sys.stdin.buffer:
    rid = str(json.loads(line)["id"]).encode()
    sys.stdout.buffer.write(template.replace(b"ID", rid) + b"\\n")
    sys.stdout.buffer.flush()
"""

# Writes a reply that never ends (no newline) and then waits.
FLOOD = """
import sys, time
sys.stdin.buffer.readline()
sys.stdout.buffer.write(b'{"id": 1, "action": "' + b"a" * (3 << 20))
sys.stdout.buffer.flush()
time.sleep(60)
"""

# Generous: a loaded machine starts interpreters slowly. A failure is expected long
# before it; it only turns a hang into a failing test.
TIMEOUT = 30.0

BAD_LINES = [
    ("[]", "not an object but a list"),
    ("null", "not an object but null"),
    ("3", "not an object but a number"),
    ('"x"', "not an object but a string"),
    ("{}", "no 'id'"),
    ('{"id": 999, "action": "rF4"}', "answered request 999, not 1"),
    ('{"id": "ID", "action": "rF4"}', "'id' is not an integer but '1'"),
    ("not json", "not JSON"),
    ('{"id": ID, "action": "\xff"}', "not UTF-8"),
]


def _child(template: str, script: str = ECHO) -> Child:
    return Child("unused", "the echo", command=[sys.executable, "-c", script, template])


@pytest.mark.parametrize(("template", "words"), BAD_LINES)
def test_a_child_that_answers_garbage_is_killed_with_a_clean_error(
    template: str, words: str
) -> None:
    child = _child(template)
    try:
        start = time.monotonic()
        with pytest.raises(ChildError) as caught:
            child.ask({"game": "board"}, TIMEOUT)
        assert time.monotonic() - start < TIMEOUT / 2
        assert str(caught.value).startswith("the echo: ")
        assert words in str(caught.value)
        assert isinstance(caught.value.__cause__, WireError)
        assert wait_gone([child.pid], 5.0) == []
        with pytest.raises(ChildError):  # a killed child stays an error, never a hang
            child.ask({"game": "board"}, TIMEOUT)
    finally:
        child.close(grace=0)


def test_a_refusal_leaves_the_child_alive_and_in_step() -> None:
    child = _child('{"id": ID, "error": "no idea"}')
    try:
        for _ in range(3):  # ids 1, 2, 3: each refusal answered the request it was for
            with pytest.raises(RefusedError) as caught:
                child.ask({"game": "board"}, TIMEOUT)
            assert caught.value.reason == "no idea"
            assert child.alive
    finally:
        child.close(grace=0)


def test_a_child_that_writes_without_end_is_killed_not_held_in_memory() -> None:
    child = _child("", FLOOD)
    try:
        with pytest.raises(ChildError, match=r"the echo: the reply is longer than the \d+ bytes"):
            child.ask({"game": "board"}, TIMEOUT)
        assert wait_gone([child.pid], 5.0) == []
    finally:
        child.close(grace=0)


def _decision() -> tuple[Any, Any]:
    definition = game_definition("board")
    state = definition.new_game(2, 5)
    rng = Rng(5)
    for _ in range(3):
        state.apply(state.random_action(rng))
    return definition, state.view(state.decision().seat)


@pytest.mark.parametrize(
    ("template", "words"),
    [
        *BAD_LINES[:6],
        ('{"id": ID, "action": 5}', "'action' is not text but 5"),
        ('{"id": ID, "action": null}', "'action' is not text but None"),
        ('{"id": ID, "error": "no idea"}', "bot fake could not decide: no idea"),
    ],
)
def test_a_remote_bot_on_a_worker_that_answers_garbage_raises_a_bot_error(
    template: str, words: str
) -> None:
    definition, view = _decision()
    command = [sys.executable, "-c", ECHO, template]
    with RemoteBot("fake", 1, command=command, timeout=TIMEOUT) as bot:
        start = time.monotonic()
        with pytest.raises(BotError, match=re.escape(words)):
            bot.choose(definition, view)
        assert time.monotonic() - start < TIMEOUT / 2


def test_a_shared_worker_numbers_its_requests_whichever_bot_asks() -> None:
    """Ids belong to the worker's pipe, not to a bot: two bots seated on one worker in
    turn (a tournament's seat, reused from game to game) never reuse an id. The echo
    answers each request's id as its action, which is never legal."""
    definition, view = _decision()
    worker = WorkerProcess(command=[sys.executable, "-c", ECHO, '{"id": ID, "action": "ID"}'])
    try:
        first = RemoteBot("random", 1, worker=worker, timeout=TIMEOUT)
        second = RemoteBot("random", 2, worker=worker, timeout=TIMEOUT)
        for rid, bot in enumerate((first, second, first, second), start=1):
            with pytest.raises(BotError, match=re.escape(f"answered '{rid}', which is not one")):
                bot.choose(definition, view)
        assert worker.alive  # an illegal action is the bot's fault, not the pipe's
    finally:
        worker.close(grace=0)

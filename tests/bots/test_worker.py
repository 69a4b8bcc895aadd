"""The bot worker: its JSON-lines protocol (good and bad requests), stateless answers,
its end at the end of its input, and its death with its parent."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from typing import Any

import pytest

from euphrates.bots.remote import RemoteBot
from euphrates.bots.worker import handle
from euphrates.core.rng import Rng
from euphrates.games import GAMES, game_definition
from tests.bots.procs import cpu_ticks, gone, ignores_sigint, wait_gone, wait_until

WORKER = [sys.executable, "-m", "euphrates.bots.worker"]


def _view(name: str, steps: int = 7, seed: int = 3) -> dict[str, Any]:
    state = game_definition(name).new_game(3, seed)
    rng = Rng(seed)
    for _ in range(steps):
        state.apply(state.random_action(rng))
    decision = state.decision()
    assert decision is not None
    view: dict[str, Any] = json.loads(json.dumps(state.view(decision.seat)))
    return view


def _request(rid: Any, name: str = "board", bot: Any = "greedy", **extra: Any) -> dict[str, Any]:
    doc = {"id": rid, "game": name, "bot": bot, "seed": 11, "view": _view(name)}
    doc.update(extra)
    return doc


def _ask(lines: list[bytes], timeout: float = 60) -> tuple[list[dict[str, Any]], int]:
    """Replies to `lines` from a real worker, and its exit code once its input ends."""
    proc = subprocess.run(WORKER, input=b"".join(lines), capture_output=True, timeout=timeout)
    replies = [json.loads(line) for line in proc.stdout.splitlines()]
    return replies, proc.returncode


def _line(doc: Any) -> bytes:
    return json.dumps(doc).encode() + b"\n"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_worker_answers_good_requests_and_exits_at_the_end_of_its_input(name: str) -> None:
    view = _view(name)
    lines = [
        _line(_request(i, name, bot)) for i, bot in enumerate(["random", "greedy", "mcts:20i"])
    ]
    replies, code = _ask([*lines, lines[1]])
    assert code == 0
    assert [r["id"] for r in replies] == [0, 1, 2, 1]
    for r in replies:
        assert r["action"] in view["legal"], r
    assert replies[2]["iterations"] >= 1
    assert replies[1] == replies[3]  # stateless: the same request, the same answer


BAD = [
    (b"not json\n", None, "not JSON"),
    (b"[1, 2]\n", None, "JSON object"),
    (_line({"id": True}), None, "'id' must be"),
    (_line({"id": [1]}), None, "'id' must be"),
    (_line({"id": 1}), 1, "has no 'game'"),
    (_line({**_request(2), "colour": "red"}), 2, "unknown request field"),
    (_line({**_request(3), "game": "chess"}), 3, "unknown game 'chess'"),
    (_line(_request(4, bot="wizard")), 4, "unknown bot 'wizard'"),
    (_line(_request(5, bot=7)), 5, "'bot' must name a bot"),
    (_line(_request(6, bot="mcts:0i")), 6, "iterations must be"),
    (_line(_request(7, bot="mcts:0s")), 7, "more than 0"),
    (_line(_request(8, seed=-1)), 8, "seed"),
    (_line(_request(9, seed=2**64)), 9, "seed"),
    (_line(_request(10, seed="1")), 10, "seed"),
    (_line(_request(11, view=[])), 11, "'view' must be a JSON object"),
    (_line(_request(12, view={**_view("board"), "viewer": "0"})), 12, "'viewer'"),
    (_line(_request(13, view={**_view("board"), "legal": []})), 13, "'legal'"),
    (_line(_request(14, view={**_view("board"), "game": "cards"})), 14, "of game 'cards'"),
    (
        _line(_request(15, view={"viewer": 0, "decision": {"seat": 0}, "legal": ["a", "b"]})),
        15,
        "failed",
    ),
]


def test_a_worker_answers_bad_requests_with_errors_and_keeps_going() -> None:
    idle = _view("board")
    idle["decision"] = {**idle["decision"], "seat": (idle["viewer"] + 1) % 3}
    bad = [*BAD, (_line(_request(16, view=idle)), 16, "no decision for its viewer")]
    good = _line(_request(99, bot="random"))
    replies, code = _ask([line for line, _, _ in bad] + [good])
    assert code == 0
    assert len(replies) == len(bad) + 1
    for (line, rid, words), reply in zip(bad, replies, strict=False):
        assert reply["id"] == rid and "action" not in reply, line
        assert words in reply["error"], (line, reply)
    assert replies[-1]["id"] == 99 and replies[-1]["action"] in _view("board")["legal"]


def test_handle_never_raises_on_odd_input() -> None:
    odd = [b"", b"\xff\xfe", b"{", b"null", b'"x"', b"1e999", b'{"id": 1e999}', b"[" * 100_000]
    odd.append(
        b'{"id": 1, "game": "board", "bot": "random", "seed": 1, "view": %s}'
        % (b"[" * 50_000 + b"]" * 50_000)
    )
    for line in odd:
        reply = handle(line)
        assert "error" in reply


def test_a_worker_ignores_ctrl_c_and_exits_at_the_end_of_its_input() -> None:
    proc = subprocess.Popen(WORKER, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(_line(_request(1, bot="random")))
    proc.stdin.flush()
    assert "action" in json.loads(proc.stdout.readline())
    proc.send_signal(signal.SIGINT)
    proc.stdin.write(_line(_request(2, bot="random")))
    proc.stdin.flush()
    assert json.loads(proc.stdout.readline())["id"] == 2
    proc.stdin.close()
    assert proc.wait(timeout=10) == 0


def test_a_worker_whose_parent_is_already_gone_exits_at_once() -> None:
    # `--parent` names the process that started it; a mismatch means the parent died
    # before the worker could ask to die with it.
    proc = subprocess.run([*WORKER, "--parent", "1"], input=b"", timeout=30)
    assert proc.returncode == 1


HOST = """
import sys
from euphrates.bots.remote import spawn_bot
from euphrates.games import game_definition
definition = game_definition("board")
state = definition.new_game(2, 1)
bot = spawn_bot("mcts:60s", 1)
print(bot.worker.pid, flush=True)
bot.choose(definition, state.view(state.decision().seat))
"""


def test_a_worker_dies_with_its_host_even_while_it_thinks() -> None:
    host = subprocess.Popen([sys.executable, "-c", HOST], stdout=subprocess.PIPE, text=True)
    assert host.stdout is not None
    worker = int(host.stdout.readline())
    # The worker is set up (its parent-death signal armed before it ignores Ctrl-C),
    # then spends CPU time: it has its request and thinks (for a minute).
    wait_until(lambda: ignores_sigint(worker), "the worker set up")
    ready = cpu_ticks(worker)
    wait_until(lambda: cpu_ticks(worker) > ready + 1, "the worker thinking")
    assert not gone(worker)
    os.kill(host.pid, signal.SIGKILL)
    host.wait(timeout=10)
    assert wait_gone([worker], 10.0) == []


NOISY = """
import sys
from euphrates.bots.base import RandomBot
from euphrates.bots.worker import main, register_bot

class Noisy(RandomBot):
    def choose(self, game, view):
        print("thinking out loud", flush=True)
        return super().choose(game, view)

register_bot("noisy", Noisy)
sys.exit(main(sys.argv[1:]))
"""


def test_a_bot_that_prints_cannot_corrupt_its_replies() -> None:
    definition = game_definition("cards")
    state = definition.new_game(2, 4)
    with RemoteBot("noisy", 1, command=[sys.executable, "-c", NOISY]) as bot:
        for _ in range(20):  # the bot plays every seat
            decision = state.decision()
            assert decision is not None
            text = bot.choose(definition, state.view(decision.seat))
            state.apply(text, seat=decision.seat)
    assert state.version == 20


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_review_request_judges_one_move_from_its_movers_view(name: str) -> None:
    state = game_definition(name).new_game(2, 12)
    rng = Rng(12)
    for _ in range(20):
        state.apply(state.random_action(rng))
    seat = state.to_move()
    view = state.view(seat)
    move = view["legal"][0]
    request = {"id": 3, "game": name, "seed": 5, "view": view, "action": move}
    reply = handle(json.dumps(request).encode())
    assert set(reply) == {"id", "kind", "forced", "before", "after", "best", "why", "estimate"}
    assert 0 <= reply["before"] <= 1 and 0 <= reply["after"] <= 1
    assert handle(json.dumps(request).encode()) == reply  # seeded
    for bad, why in [
        ({**request, "action": "nonsense"}, "not one of the view's legal actions"),
        ({**request, "record": {}}, "unknown request field"),
        ({k: v for k, v in request.items() if k != "seed"}, "no 'seed'"),
    ]:
        assert why in handle(json.dumps(bad).encode())["error"]

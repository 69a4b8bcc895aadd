"""examples/history_inference.py, the particle filter over the other player's decisions
since the deal: its imagined games keep showing the watching seat exactly what the real
one shows it, a face-down bridge's colour is never read from the real action, and a
run ends with well-formed readings."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

FOLLOW = """
import math, sys
sys.path.insert(0, "examples")
import history_inference as hi
from euphrates.bots import GreedyBot
from euphrates.core.rng import Rng
from euphrates.match.play import play_game
seed = 4107
actions = list(play_game("cards", [GreedyBot(1), GreedyBot(2)], seed).record.actions)
states = hi.replay_states(seed, actions)
repaired = []
flt = hi.Filter(states[0], 1, 6, 0.03, Rng(5))
original = flt._repair
flt._repair = lambda state, action: (repaired.append(action), original(state, action))
mismatched = 0
for t, action in enumerate(actions):
    flt.step(action, states[t + 1])
    for w, state in zip(flt.logw, flt.states):
        if w > -math.inf and state.view(1) != states[t + 1].view(1):
            mismatched += 1
leaked = [a for a in repaired if hi.public(a) != a]
alive = sum(w > -math.inf for w in flt.logw)
print(mismatched, len(leaked), alive > 0, len(repaired) > 0)
"""


def test_the_imagined_games_show_the_seat_what_the_real_one_shows() -> None:
    done = subprocess.run(
        [sys.executable, "-c", FOLLOW], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "0", "True", "True"]


def test_one_game_reads_uniform_and_history() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "examples/history_inference.py",
            *("--games", "1", "--every", "8"),
            *("--particles", "4"),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["readings"] >= 2
    for name in ("uniform", "history"):
        assert 0 <= summary[name]["red"] <= 8
        assert 0 <= summary[name]["colours"] <= 16
        assert 0 < summary[name]["l1"] <= 16

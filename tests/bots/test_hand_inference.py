"""examples/hand_inference.py, the measuring stick for how close imagined hands come
to the true ones: its readings are well formed, and the state it rebuilds keeps every
card and the hand it was told."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

KEEP = """
import sys
sys.path.insert(0, "examples")
from hand_inference import CARDS, keep_hand
from euphrates.core.rng import Rng
state = CARDS.new_game(2, 12)
before = sorted(state.deck + state.removed + [c for h in state.hands for c in range(4) for _ in range(h[c])])
want = [3, 2, 2, 1]
ok = keep_hand(state, 0, want, Rng(3))
after = sorted(state.deck + state.removed + [c for h in state.hands for c in range(4) for _ in range(h[c])])
print(ok, state.hands[0] == want, before == after, len(state.removed))
# Where the deck and the removed cards hold no black card, no hand can take one.
state.deck, state.removed, state.hands[0] = [0] * len(state.deck), [0] * 30, [0, 4, 4, 0]
print(keep_hand(state, 0, [0, 4, 3, 1], Rng(4)), keep_hand(state, 0, [1, 4, 3, 0], Rng(4)))
"""


def test_the_hand_kept_true_keeps_every_card() -> None:
    done = subprocess.run(
        [sys.executable, "-c", KEEP], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    first, second = done.stdout.splitlines()
    assert first.split() == ["True", "True", "True", "30"]
    assert second.split() == ["False", "True"]


def test_one_game_reads_four_ways() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "examples/hand_inference.py",
            "--games",
            "1",
            "--every",
            "6",
            "--particles",
            "4",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout.splitlines()[-1])
    assert summary["readings"] > 3
    for name in ("uniform", "declines", "commits", "last_turn"):
        # Two hands of eight differ in at most 16 cards, and a guess is never exact
        # every time.
        assert 0 < summary[name]["l1"] <= 16
        assert 0 <= summary[name]["red"] <= 8

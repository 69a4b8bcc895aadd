"""examples/known_hands.py, the measuring stick for what hidden cards cost the rollout
search: while it is on, the search is handed the true state (the other hand and the
deck's order) and re-dealing it changes nothing; while off, search imagines as always.
Run in subprocesses, since the example replaces the card state's `redeal` for its
process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
sys.path.insert(0, "examples")
from known_hands import KnownHands
from euphrates.core.rng import Rng
known = KnownHands(sys.argv[1])
d = known.definition
state = d.new_game(2, 5)
seat = state.to_move()
view = state.view(seat)
known.state = state
honest = d.sample_from_view(view, Rng(1))
honest.redeal(seat, Rng(2))
known.on = True
told = d.sample_from_view(view, Rng(1))
told.redeal(seat, Rng(2))
other = 1 - seat
print(told.hands[other] == state.hands[other], list(told.deck) == list(state.deck),
      sorted(told.deck + told.removed) == sorted(state.deck + state.removed),
      list(honest.deck) == list(state.deck))
"""


@pytest.mark.parametrize(
    ("know", "deck_as_dealt"), [("all", "True"), ("hands", "False")], ids=["all", "hands"]
)
def test_it_hands_the_true_state_only_while_on(know: str, deck_as_dealt: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHECK, know], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", deck_as_dealt, "True", "False"]

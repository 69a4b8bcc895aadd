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


RED = """
import sys
sys.path.insert(0, "examples")
from known_hands import KnownHands
from euphrates.core.rng import Rng
known = KnownHands("red")
d = known.definition
state = d.new_game(2, 8)
seat = state.to_move()
other = 1 - seat
known.state, known.on = state, True
hands = set()
for i in range(40):
    told = d.sample_from_view(state.view(seat), Rng(i))
    told.redeal(seat, Rng(100 + i))
    h = told.hands[other]
    assert h[0] == state.hands[other][0] and sum(h) == sum(state.hands[other]), h
    assert told.hands[seat] == state.hands[seat]
    pool = sorted(told.deck + told.removed + [c for c in range(4) for _ in range(h[c])])
    want = sorted(state.deck + state.removed + [c for c in range(4) for _ in range(state.hands[other][c])])
    assert pool == want
    hands.add(tuple(h))
print(len(hands))
"""


def test_told_the_red_count_it_keeps_only_that_of_the_other_hand() -> None:
    """`--know red`: every imagined other hand holds the true number of red cards and
    the hand's size; its other cards, the deck and the removed cards are re-dealt from
    the same unseen cards, so the hands imagined differ."""
    done = subprocess.run(
        [sys.executable, "-c", RED], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert int(done.stdout) > 3


BOARD = """
import sys
sys.path.insert(0, "examples")
from known_hands import KnownHands
from euphrates.core.rng import Rng
known = KnownHands("hands", "board")
d = known.definition
state = d.new_game(2, 5)
seat = state.to_move()
other = 1 - seat
honest = d.sample_from_view(state.view(seat), Rng(1))
known.state, known.on = state, True
told = d.sample_from_view(state.view(seat), Rng(1))
told.redeal(seat, Rng(2))
print(told.hands[other] == state.hands[other], list(told.bag) == list(state.bag),
      sorted(told.bag) == sorted(state.bag), honest.hands[other] == state.hands[other])
"""


def test_on_the_board_it_tells_the_tiles_and_shuffles_the_bag() -> None:
    done = subprocess.run(
        [sys.executable, "-c", BOARD], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "False", "True", "False"]

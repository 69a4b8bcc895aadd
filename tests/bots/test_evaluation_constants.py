"""examples/evaluation_constants.py, which measured the card game's evaluation
constants (docs/bots.md): a bot judging with other constants changes its choices
while it decides and leaves the module as it was, so the other seat judges as the
package ships. Run in a subprocess, since the example sets constants on the module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

CHECK = """
import sys
sys.path.insert(0, "examples")
from evaluation_constants import Judging, constants
import euphrates.bots.cards_eval as cards_eval
from euphrates.bots import GreedyBot
from euphrates.games import game_definition
d = game_definition("cards")
changed = constants(["SUPPORT_CARD=0", "RANK_WEIGHTS=1,1,1,1"])
assert changed == {"SUPPORT_CARD": 0.0, "RANK_WEIGHTS": (1.0, 1.0, 1.0, 1.0)}
differ = 0
for seed in range(6):
    state = d.new_game(2, seed)
    for _ in range(12):
        view = state.view(state.to_move())
        mine = Judging(GreedyBot(1), changed).choose(d, view)
        assert cards_eval.SUPPORT_CARD == 0.03 and cards_eval.RANK_WEIGHTS[1] == 0.5
        shipped = GreedyBot(1).choose(d, view)
        differ += mine != shipped
        state.apply(shipped)
assert differ, "the constants changed no choice"
print("ok", differ)
"""


def test_a_changed_bot_judges_otherwise_and_leaves_the_module_alone() -> None:
    out = subprocess.run(
        [sys.executable, "-c", CHECK], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("ok")


def test_an_unknown_constant_is_named() -> None:
    out = subprocess.run(
        [sys.executable, "examples/evaluation_constants.py", "SHIP_HOPES=1"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode != 0
    assert "SHIP_HOPES=1: not NAME=value of a constant" in out.stderr

"""`legal_texts` lists exactly `legal_actions` as notation, in the same order."""

from __future__ import annotations

from euphrates.board import BOARD
from euphrates.core.rng import Rng


def test_legal_texts_equal_the_actions_printed() -> None:
    rng = Rng(17)
    decisions = 0
    for seed in range(12):
        state = BOARD.new_game(2 + seed % 3, seed, {"advanced": seed % 2 == 1})
        while not state.is_over():
            assert state.legal_texts() == [str(a) for a in state.legal_actions()]
            state.apply(state.random_action(rng))
            decisions += 1
    assert decisions > 1000

"""Thousands of seeded complete random games on both boards without an error, plus a
lighter-checked sample; the long soak runs behind --soak."""

from __future__ import annotations

import pytest

from euphrates.board import BOARD
from euphrates.core.rng import Rng
from tests.board.invariants import check_conservation, play_checked


def _play(players: int, seed: int, advanced: bool) -> int:
    game = BOARD.new_game(players, seed, {"advanced": advanced})
    rng = Rng(seed * 7919 + players)
    decisions = 0
    while not game.is_over():
        game.apply(game.random_action(rng))
        decisions += 1
    check_conservation(game)
    outcome = game.outcome()
    assert outcome is not None and sorted(outcome.places)[0] == 1
    return decisions


@pytest.mark.parametrize("advanced", [False, True], ids=["standard", "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_100_random_games(players: int, advanced: bool) -> None:
    """A hundred games a player count and board side here (600 in all); the soak plays
    5 000 more of each."""
    for seed in range(100):
        assert _play(players, seed, advanced) > 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_fully_checked(players: int) -> None:
    for seed in range(3):
        play_checked(BOARD.new_game(players, 10_000 + seed), Rng(seed), full=False)


@pytest.mark.soak
@pytest.mark.parametrize("advanced", [False, True], ids=["standard", "advanced"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_soak_random_games(players: int, advanced: bool) -> None:
    for seed in range(5000):
        _play(players, 100_000 + seed, advanced)


@pytest.mark.soak
@pytest.mark.parametrize("players", [2, 3, 4])
def test_soak_fully_checked(players: int) -> None:
    for seed in range(60):
        play_checked(BOARD.new_game(players, 20_000 + seed, {"advanced": seed % 2 == 1}), Rng(seed))

"""Property tests over random games: invariants after every action (issue: B-1, B-8,
B-10, B-33, G-3 and the notes for tests in RULINGS.md)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from euphrates.board import BOARD
from euphrates.board.position import to_position
from euphrates.board.state import BoardState
from euphrates.core.rng import Rng
from euphrates.match.records import GameRecord, replay
from tests.board.invariants import check_conservation, play_checked


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(2, 4),
    advanced=st.booleans(),
    open_scores=st.booleans(),
)
def test_random_games_keep_every_invariant(
    seed: int, players: int, advanced: bool, open_scores: bool
) -> None:
    options = {"advanced": advanced, "open_scores": open_scores}
    game = BOARD.new_game(players, seed, options)
    texts = play_checked(game, Rng(seed + 1))
    # G-determinism: options + seed + actions replay to the identical state.
    record = GameRecord("board", players, seed, options, actions=texts)
    replayed = replay(record)
    assert isinstance(replayed, BoardState)
    assert to_position(replayed) == to_position(game)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4), steps=st.integers(0, 150))
def test_redeal_changes_only_what_the_view_hides(seed: int, players: int, steps: int) -> None:
    game = BOARD.new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if game.is_over():
            break
        game.apply(game.random_action(rng))
    for seat in [*range(players), None]:
        twin = game.copy()
        twin.redeal(seat, Rng(seed + 5))
        assert twin.view(seat) == game.view(seat)
        check_conservation(twin)

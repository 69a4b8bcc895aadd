"""Bad input: a clear error naming what is wrong and the ruling; the state unchanged."""

from __future__ import annotations

import pytest

from euphrates.board import BOARD
from euphrates.board.position import to_position
from euphrates.board.state import BoardState
from euphrates.core.errors import (
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    StaleActionError,
    WrongSeatError,
)
from euphrates.core.rng import Rng
from tests.board.scenario import play, scenario


def _refused(st: BoardState, text: str, ruling: str) -> str:
    before = to_position(st)
    with pytest.raises(IllegalActionError) as err:
        st.apply(text)
    assert f"({ruling})" in str(err.value) or ruling in str(err.value)
    assert err.value.ruling is not None and ruling in err.value.ruling
    assert to_position(st) == before
    return str(err.value)


def test_tile_rules_are_explained() -> None:
    st = scenario(tiles="r: F5", leaders="0K: F6", hands={0: "rbgk"})
    assert "river" in _refused(st, "bF4", "B-12")  # blue on land
    assert "river" in _refused(st, "rA4", "B-12")  # red on the river
    assert "not empty" in _refused(st, "rF5", "B-12")
    st2 = scenario(tiles="r: F5", leaders="0K: F6", hands={0: "bbb"})
    assert "no red tile" in _refused(st2, "rG5", "B-7")


def test_leader_rules_are_explained() -> None:
    st = scenario(tiles="r: F5", hands={0: "rr"})
    assert "temple" in _refused(st, "KA1", "B-8")
    assert "river" in _refused(st, "KA4", "B-8")
    assert "not on the board" in _refused(st, "K-", "B-8")


def test_catastrophe_rules_are_explained() -> None:
    st = scenario(
        tiles="r: F5 K1",
        leaders="0K: F6",
        treasures="K1",
        catastrophes="A11 B11",
        catastrophes_left={0: 0},
    )
    _refused(st, "xG7", "B-15")
    st = scenario(tiles="r: F5 K1", leaders="0K: F6", treasures="K1")
    assert "leader" in _refused(st, "xF6", "B-15")
    assert "treasure" in _refused(st, "xK1", "B-15")


def test_decision_kinds_are_enforced() -> None:
    st = scenario(tiles="r: F5", hands={0: "rr"})
    _refused(st, "commit 1", "B-7")
    _refused(st, "decline", "B-7")


def test_swap_needs_the_tiles() -> None:
    st = scenario(hands={0: "rb"})
    assert "hold 0" in _refused(st, "swap gg", "B-16")


def test_wrong_seat_and_stale_version_are_refused() -> None:
    game = BOARD.new_game(3, 5)
    before = to_position(game)
    other = (game.active + 1) % 3
    action = game.legal_actions()[0]
    with pytest.raises(WrongSeatError):
        game.apply(action, seat=other)
    with pytest.raises(StaleActionError):
        game.apply(action, version=game.version + 1)
    assert to_position(game) == before
    game.apply(action, seat=game.active, version=0)
    assert game.version == 1


def test_malformed_text_leaves_the_game_unchanged() -> None:
    game = BOARD.new_game(2, 5)
    before = to_position(game)
    with pytest.raises(InvalidActionError):
        game.apply("place a tile somewhere")
    assert to_position(game) == before


def test_finished_game_refuses_actions() -> None:
    game = BOARD.new_game(2, 9)
    rng = Rng(1)
    while not game.is_over():
        game.apply(game.random_action(rng))
    with pytest.raises(GameOverError):
        game.apply("pass")
    assert game.legal_actions() == [] and game.decision() is None


def test_conflict_commit_cannot_exceed_hand() -> None:
    # Seat 1's priest moves next to seat 0's priest: a revolt (B-20).
    st = scenario(tiles="r: F5 H5", leaders="0P: F6", hands={0: "rr", 1: "r"}, active=1)
    play(st, "PG5")
    d = st.decision()
    assert d is not None and d.kind == "commit"
    assert "holds 1" in _refused(st, "commit 2", "B-20")

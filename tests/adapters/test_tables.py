"""The fixed numbering of every action (adapters/tables.py) and the returns by place.

A policy trained on one numbering is wrong on another, so the tables are pinned: their
sizes, a digest of every text in order, and landmarks from each block. The legal
numbers a state gives must be exactly its legal actions, in both games, also through
the board's shortcut over its bitboards.
"""

from __future__ import annotations

from typing import Any

import pytest

from euphrates.adapters.tables import (
    BOARD_TABLE,
    CARDS_TABLE,
    SWAP_COUNTS,
    place_returns,
    table_for,
)
from euphrates.board import BOARD
from euphrates.board import parse_action as board_action
from euphrates.cards import CARDS
from euphrates.cards import parse_action as cards_action
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import GameState
from euphrates.core.rng import Rng

BOARD_DIGEST = "77961a2fda86d99a59689a20ba46a0f4c5e4100676a0eb7bee09b4a23a0e00b6"
CARDS_DIGEST = "ace3d983cf07f228c88d25b442578a3b3259c56db996b540c26fa1792c88df33"

BOARD_LANDMARKS = {
    "rA1": 0,
    "rF4": 53,
    "KG5": 1302,
    "T-": 1410,
    "xH7": 1515,
    "swap r": 1588,
    "swap kkkkkk": 1796,
    "pass": 1797,
    "commit 0": 1798,
    "commit 6": 1804,
    "war g": 1807,
    "monument rb A1": 1809,
    "monument gk O10": 2708,
    "decline": 2709,
    "treasure A1": 2710,
    "treasure P11": 2885,
}
CARDS_LANDMARKS = {
    "P1.0": 0,
    "K8.8": 308,
    "K7-8": 315,
    "r1": 316,
    "k7-8": 375,
    "x1.0": 376,
    "x7-8": 454,
    "pass": 455,
    "commit 0": 456,
    "commit 8": 464,
    "war k": 468,
    "point r": 469,
    "point none": 473,
    "exchange 1": 474,
    "exchange none": 482,
    "ship br": 483,
    "ship bk": 485,
    "decline": 486,
}


def test_the_board_numbering_is_pinned() -> None:
    assert len(BOARD_TABLE) == 2886
    assert len(SWAP_COUNTS) == 209
    assert BOARD_TABLE.digest() == BOARD_DIGEST
    for text, number in BOARD_LANDMARKS.items():
        assert BOARD_TABLE.number(board_action(text)) == number, text
        assert BOARD_TABLE.texts[number] == text


def test_the_card_numbering_is_pinned() -> None:
    assert len(CARDS_TABLE) == 487
    assert CARDS_TABLE.digest() == CARDS_DIGEST
    for text, number in CARDS_LANDMARKS.items():
        assert CARDS_TABLE.number(cards_action(text)) == number, text
        assert CARDS_TABLE.texts[number] == text


def test_every_text_reads_back_as_its_action() -> None:
    for table, parse in ((BOARD_TABLE, board_action), (CARDS_TABLE, cards_action)):
        for number, text in enumerate(table.texts):
            assert table.number(parse(text)) == number


def _games(game: str) -> list[tuple[int, dict[str, bool]]]:
    if game == "board":
        return [(2, {}), (3, {"advanced": True}), (4, {"open_scores": True})]
    return [(2, {}), (3, {"open_piles": True}), (4, {})]


@pytest.mark.parametrize("game", ["board", "cards"])
def test_legal_numbers_are_exactly_the_legal_actions(game: str) -> None:
    """Through whole random games: the numbers are ascending, unique, and name exactly
    the engine's legal actions (the board's bitboard shortcut included)."""
    definition: Any = BOARD if game == "board" else CARDS
    table = table_for(game)
    decisions = 0
    for seed, (players, options) in enumerate(_games(game)):
        state: GameState[Any] = definition.new_game(players, seed, options)
        rng = Rng(seed + 100)
        limit = 400 if game == "board" else 1500
        for _ in range(limit):
            if state.is_over():
                break
            numbers = table.legal_ids(state)
            assert numbers == sorted(set(numbers))
            assert {table.texts[n] for n in numbers} == set(state.legal_texts())
            assert len(numbers) == state.legal_action_count()
            bits = table.legal_bits(state)
            assert bits == sum(1 << n for n in numbers)
            decisions += 1
            state.apply(table.action(numbers[rng.below(len(numbers))]))
    assert decisions > 500


def test_an_action_number_out_of_range_is_refused() -> None:
    for bad in (-1, 2886, 1.5, 1797.0, True, "3", None):
        with pytest.raises(ArgumentError):
            BOARD_TABLE.action(bad)
    assert BOARD_TABLE.action(1797) == board_action("pass")
    with pytest.raises(ArgumentError, match="unknown game"):
        table_for("chess")


def test_returns_by_place_share_ties_and_sum_to_zero() -> None:
    assert place_returns([1, 2]) == (1.0, -1.0)
    assert place_returns([1, 1]) == (0.0, 0.0)
    assert place_returns([2, 1, 3]) == (0.0, 1.0, -1.0)
    assert place_returns([1, 1, 3]) == (0.5, 0.5, -1.0)
    assert place_returns([1, 2, 2]) == (1.0, -0.5, -0.5)
    assert place_returns([3, 1, 2, 4]) == pytest.approx((-1 / 3, 1.0, 1 / 3, -1.0))
    assert place_returns([1, 1, 1, 1]) == (0.0, 0.0, 0.0, 0.0)
    for places in ([1, 2, 2, 4], [1, 1, 3, 3], [2, 2, 1, 4]):
        assert sum(place_returns(places)) == pytest.approx(0.0)
    with pytest.raises(ArgumentError):
        place_returns([1])

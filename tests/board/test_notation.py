"""Notation: every action's text parses back to the same action (python-chess style),
the issue's examples read as documented, and bad text is refused clearly."""

from __future__ import annotations

import pytest

from euphrates.board import BOARD
from euphrates.board.actions import (
    DECLINE,
    PASS,
    BoardAction,
    BuildMonument,
    ChooseWar,
    Commit,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakeTreasure,
    WithdrawLeader,
    parse_action,
)
from euphrates.board.geometry import parse_square, square_name
from euphrates.core.colours import BLACK, BLUE, GREEN, RED
from euphrates.core.errors import InvalidActionError
from euphrates.core.rng import Rng

SQ = parse_square


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("rF4", PlaceTile(RED, SQ("F4"))),  # placing a red tile on F4
        ("KG5", PlaceLeader(BLACK, SQ("G5"))),  # moving the king to G5
        ("T-", WithdrawLeader(GREEN)),  # withdrawing the trader
        ("xH7", PlaceCatastrophe(SQ("H7"))),  # a catastrophe on H7
        ("swap rb", Swap((1, 1, 0, 0))),  # swapping two tiles
        ("pass", PASS),
        ("commit 2", Commit(2)),  # committing 2 tiles
        ("war g", ChooseWar(GREEN)),  # choosing the green war first
        ("monument rb F3", BuildMonument(0, SQ("F3"))),  # the red-blue monument at F3
        ("decline", DECLINE),
        ("treasure B2", TakeTreasure(SQ("B2"))),  # taking the treasure at B2
    ],
)
def test_issue_examples_parse_and_format(text: str, action: object) -> None:
    assert parse_action(text) == action
    assert str(action) == text


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("red F4", "rF4"),
        ("red tile on f4", "rF4"),
        ("b e2", "bE2"),
        ("king G5", "KG5"),
        ("king to g5", "KG5"),
        ("trader -", "T-"),
        ("withdraw trader", "T-"),
        ("catastrophe h7", "xH7"),
        ("x h7", "xH7"),
        ("swap r b k", "swap rbk"),
        ("  PASS ", "pass"),
        ("war green", "war g"),
        ("monument red-blue F3", "monument rb F3"),
        ("monument br F3", "monument rb F3"),
        ("none", "decline"),
        ("treasure b2", "treasure B2"),
        ("kF4", "kF4"),  # a black tile: lowercase k
        ("KF4", "KF4"),  # the king: uppercase K
    ],
)
def test_words_and_cases_are_accepted(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "F4",
        "rZ4",
        "rF12",
        "rF0",
        "QF4",
        "commit",
        "commit x",
        "war q",
        "monument rr F3",
        "monument rb",
        "treasure",
        "swap",
        "swap rq",
        "hello world",
        "x",
        "K",
    ],
)
def test_malformed_text_is_invalid(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


def test_every_square_name_round_trips() -> None:
    for sq in range(176):
        assert parse_square(square_name(sq)) == sq
    assert square_name(0) == "A1" and square_name(175) == "P11"


def test_every_legal_action_of_random_games_round_trips() -> None:
    for players in (2, 3, 4):
        game = BOARD.new_game(players, 31 + players)
        rng = Rng(players)
        while not game.is_over():
            for action in game.legal_actions():
                assert parse_action(str(action)) == action
            game.apply(game.random_action(rng))


def test_blue_b_is_not_a_leader() -> None:
    assert parse_action("bA4") == PlaceTile(BLUE, SQ("A4"))


def test_is_legal_agrees_with_the_legal_list() -> None:
    from euphrates.board.actions import PASS as P

    for players in (2, 4):
        game = BOARD.new_game(players, 90 + players)
        rng = Rng(players + 3)
        probes: list[BoardAction] = [
            P,
            DECLINE,
            Commit(1),
            Swap((1, 0, 0, 0)),
            Swap((0, 0, 0, 7)),
        ]
        while not game.is_over():
            legal = set(game.legal_actions())
            extra: list[BoardAction] = [
                PlaceTile(c, sq) for c in range(4) for sq in range(0, 176, 7)
            ]
            extra += [PlaceLeader(c, sq) for c in range(4) for sq in range(3, 176, 11)]
            extra += [PlaceCatastrophe(sq) for sq in range(0, 176, 13)]
            extra += [WithdrawLeader(c) for c in range(4)]
            for action in [*legal, *probes, *extra]:
                assert game.is_legal(action) == (action in legal), action
            game.apply(game.random_action(rng))

"""The notation: canonical text, words accepted, round trips and malformed input."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from euphrates.cards import CARDS, parse_action
from euphrates.cards.actions import (
    CARD_ACTIONS,
    CATASTROPHES,
    COMMITS,
    DECLINE,
    EXCHANGE_NONE,
    EXCHANGES,
    LEADER_ACTIONS,
    PASS,
    POINT_NONE,
    POINTS,
    SHIP_ACTIONS,
    WARS,
)
from euphrates.core.errors import InvalidActionError

from .helpers import state

ALL = [
    *(a for t in LEADER_ACTIONS for a in t.values()),
    *(a for t in CARD_ACTIONS for a in t.values()),
    *CATASTROPHES.values(),
    *COMMITS,
    *WARS,
    *POINTS,
    POINT_NONE,
    *EXCHANGES,
    EXCHANGE_NONE,
    *SHIP_ACTIONS.values(),
    PASS,
    DECLINE,
]


@given(st.sampled_from(ALL))
def test_every_action_round_trips_through_its_text(a: object) -> None:
    assert parse_action(str(a)) == a


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("r3", "r3"),
        ("red 3", "r3"),
        ("Red3", "r3"),
        ("g3-4", "g3-4"),
        ("green 3 - 4", "g3-4"),
        ("k3-4", "k3-4"),
        ("black 3-4", "k3-4"),
        ("K3-4", "K3-4"),
        ("king 3-4", "K3-4"),
        ("K3", "k3"),
        ("k3.0", "K3.0"),
        ("t3.2", "T3.2"),
        ("trader 3.2", "T3.2"),
        ("priest 1.0", "P1.0"),
        ("x3.2", "x3.2"),
        ("catastrophe 3-4", "x3-4"),
        ("PASS", "pass"),
        ("commit 2", "commit 2"),
        ("war green", "war g"),
        ("war trader", "war g"),
        ("point g", "point g"),
        ("point none", "point none"),
        ("exchange 5", "exchange 5"),
        ("exchange none", "exchange none"),
        ("ship bk", "ship bk"),
        ("ship blue-black", "ship bk"),
        ("ship black", "ship bk"),
        ("decline", "decline"),
    ],
)
def test_words_and_cases_read_as_the_canonical_form(text: str, canonical: str) -> None:
    assert str(parse_action(text)) == canonical


@pytest.mark.parametrize(
    "text",
    [
        "",
        "hello",
        "r9",
        "r0",
        "g3-5",
        "T9.0",
        "T3.9",
        "x3",
        "commit x",
        "war purple",
        "ship bb",
        "exchange 9",
        "r3.2",
        "T-",
        "point purple",
        "q3",
    ],
)
def test_malformed_text_raises_invalid_action(text: str) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(text)


@pytest.mark.parametrize(
    "text",
    [
        "commit ²",
        "exchange ³",
        "r³",
        "T3.²",
        "r٣",
        "T٣.٢",
        "x٣-٤",
        "g3-٤",
        "exchange ５",
        "commit ¹⁰",
        "commit 9",
        "commit 0002",
        "commit " + "9" * 5000,
        "exchange " + "9" * 5000,
        "r" + "3" * 5000,
        "commit",
        "commit 1 2",
        "x" * 10_000,
        " " * 100 + "pass",
    ],
)
def test_non_ascii_digits_and_huge_numbers_raise_invalid_action(text: str) -> None:
    """Notation reads ASCII digits only, a few at most; never a bare ValueError."""
    with pytest.raises(InvalidActionError):
        parse_action(text)
    s = CARDS.new_game(3, 4)
    before = CARDS.to_position(s)
    with pytest.raises(InvalidActionError):
        s.apply(text)
    assert CARDS.to_position(s) == before


@pytest.mark.parametrize("thing", [None, 3, 3.5, b"r3", ["r3"]])
def test_an_action_text_must_be_a_string(thing: object) -> None:
    with pytest.raises(InvalidActionError):
        parse_action(thing)  # type: ignore[arg-type]


def test_bare_none_answers_the_pending_decision() -> None:
    s = state(leaders={(1, "T"): "1.0"}, hands=["g", "", ""])
    s.apply("g1")
    assert s.parse_action("none") == POINT_NONE
    s.apply("none")
    assert s.decision() is not None


def test_malformed_text_leaves_the_state_unchanged() -> None:
    s = CARDS.new_game(3, 1)
    before = CARDS.to_position(s)
    with pytest.raises(InvalidActionError):
        s.apply("r 3 4 5")
    assert CARDS.to_position(s) == before


def test_render_shows_the_layout_without_secrets() -> None:
    s = state(
        columns=["rgb", "kkb"],
        leaders={(1, "T"): "1.0", (2, "T"): "2.2"},
        hands=["g", "rrk", ""],
    )
    s.apply("g1-2")  # a war: the bridge stays face down
    text = CARDS.render(s, 2)
    assert "T1" in text and "T2" in text and "-?-" in text
    assert "rrk" not in text
    assert "-g-" in CARDS.render(s, 0)

"""Action objects built in code, not read from text: each field of each action class with
a value of the wrong type or out of range is refused as InvalidActionError naming the
field, by `apply` and `is_legal` alike, at every kind of decision, and the state is
left exactly as it was (as the board game refuses them, tests/board/test_hostile.py)."""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

import pytest

from euphrates.cards import CardsState
from euphrates.cards.actions import (
    BuildShip,
    Catastrophe,
    ChooseWar,
    Commit,
    Exchange,
    PayPoint,
    PlaceLeader,
    PlayCard,
    check_action,
)
from euphrates.cards.layout import GAP_BASE, SHIP_BASE, spot
from euphrates.cards.position import to_position
from euphrates.core.errors import InvalidActionError

from .test_fuzz import sources

# One valid action per class with fields; each case below breaks one field of it.
VALID: list[Any] = [
    PlaceLeader(0, spot(0, 0)),
    PlayCard(0, 0),
    Catastrophe(spot(0, 1)),
    Commit(0),
    ChooseWar(0),
    PayPoint(0),
    Exchange(0),
    BuildShip(SHIP_BASE + 3),
]
WRONG_TYPES: list[Any] = [
    1.0, 0.0, 0.5, float("nan"), True, False, "1", "", None, [1], (0,), 2**64, 2**70,
    -(2**70), 10**30,
]  # fmt: skip
# Integers of the right type that are still no value of the field.
WRONG_VALUES: dict[tuple[type, str], list[int]] = {
    (PlaceLeader, "colour"): [-1, 4, 5, 255],
    (PlaceLeader, "pos"): [-1, 9, 15, 127, GAP_BASE - 1, GAP_BASE + 7, 10**6],
    (PlayCard, "colour"): [-1, 4, 7],
    (PlayCard, "target"): [-1, 8, spot(1, 0), spot(2, 3), GAP_BASE + 7, 1000],
    (Catastrophe, "pos"): [-1, 9, 15, 127, GAP_BASE + 7, -GAP_BASE, 10**6],
    (Commit, "count"): [-1, 9, 10, 1000],
    (ChooseWar, "colour"): [-1, 4, 8],
    (PayPoint, "colour"): [-2, 4, 5],
    (Exchange, "column"): [-2, 8, 9, 100],
    (BuildShip, "ship"): [-1, 0, 3, SHIP_BASE + 1, SHIP_BASE + 4, 100],
}


def _cases() -> list[tuple[Any, str]]:
    out = []
    for base in VALID:
        for f in fields(base):
            for value in [*WRONG_TYPES, *WRONG_VALUES[(type(base), f.name)]]:
                out.append((replace(base, **{f.name: value}), f.name))
    return out


CASES = _cases()
STATES = sources()


def test_every_class_and_field_is_covered() -> None:
    assert {(type(a), name) for a, name in CASES} == set(WRONG_VALUES)
    assert len(CASES) >= 150


@pytest.mark.parametrize(("action", "name"), CASES, ids=[repr(a) for a, _ in CASES])
def test_a_bad_field_is_refused_by_apply_and_is_legal(action: Any, name: str) -> None:
    with pytest.raises(InvalidActionError) as err:
        check_action(action)
    assert f"{type(action).__name__}.{name}" in str(err.value)
    for state in STATES:
        if state.is_over():
            continue
        s: CardsState = state.copy()
        before = to_position(s)
        with pytest.raises(InvalidActionError):
            s.is_legal(action)
        with pytest.raises(InvalidActionError) as err:
            s.apply(action)
        assert name in str(err.value)
        assert to_position(s) == before


def _unset() -> PlayCard:
    """A PlayCard whose fields were never set (`object.__new__` skips `__init__`)."""
    return object.__new__(PlayCard)


class _MyCard(PlayCard):
    __slots__ = ()


@pytest.mark.parametrize(
    "thing",
    [42, None, b"r3", object(), 1.5, ["r3"], _MyCard(0, 0), _unset()],
    ids=["42", "None", "bytes", "object", "float", "list", "subclass", "unset"],
)
def test_what_is_no_card_action_is_refused(thing: Any) -> None:
    for state in STATES[:4]:
        s = state.copy()
        before = to_position(s)
        with pytest.raises(InvalidActionError):
            s.apply(thing)
        with pytest.raises(InvalidActionError):
            s.is_legal(thing)
        assert to_position(s) == before


def test_the_engine_s_own_actions_pass_the_check() -> None:
    from .test_random_games import EVERY_ACTION

    for a in EVERY_ACTION:
        check_action(a)

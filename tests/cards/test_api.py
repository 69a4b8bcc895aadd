"""The card game's API refuses arguments and documents of the wrong type or range with the
project's own errors (ArgumentError, RecordError), and no view tells anything hidden."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from euphrates.board import BOARD
from euphrates.cards import CARDS, CardsState
from euphrates.core.errors import ArgumentError, RecordError
from euphrates.core.rng import Rng

from .helpers import find, kind_is

WRONG_VALUES: list[Any] = [None, True, 1.5, "x", "0", -1, 2**70, [], {}, [1, 2]]


@cache
def _states() -> tuple[CardsState, ...]:
    return (
        CARDS.new_game(2, 5),
        CARDS.new_game(4, 8, {"open_piles": True}),
        find(kind_is("commit", conflict_type="revolt")),
        find(kind_is("commit", conflict_type="war")),
        find(kind_is("war_order")),
        find(kind_is("exchange")),
        find(kind_is("ship_point")),
        find(kind_is("over")),
    )


def states() -> list[CardsState]:
    """States of several decision kinds and player counts, for views to come from."""
    return [s.copy() for s in _states()]


# --- view(seat) ------------------------------------------------------------------------------
@pytest.mark.parametrize("seat", [True, False, 1.0, "0", 7, -1, 2**64, [0]])
def test_view_takes_a_seat_number_or_none_only(seat: Any) -> None:
    s = CARDS.new_game(3, 1)
    with pytest.raises(ArgumentError):
        s.view(seat)
    with pytest.raises(ArgumentError):
        CARDS.render(s, seat)


def test_view_of_every_seat_and_a_spectator() -> None:
    s = CARDS.new_game(3, 1)
    assert s.view(None)["hand"] is None
    assert [len(s.view(p)["hand"]) for p in range(3)] == [8, 8, 8]


# --- new_game ---------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", ["abc", 1.5, None, 2**64 + 5, -1, True, 2**64])
def test_new_game_refuses_bad_seeds(seed: Any) -> None:
    with pytest.raises(ArgumentError, match="seed"):
        CARDS.new_game(3, seed)


@pytest.mark.parametrize("players", [3.0, "3", True, 1, 5, None])
def test_new_game_refuses_bad_player_counts(players: Any) -> None:
    with pytest.raises(ArgumentError, match="players"):
        CARDS.new_game(players, 1)


@pytest.mark.parametrize(
    "options",
    [["open_piles"], "open_piles", {"open_piles": "no"}, {"open_piles": 1}, {"closed": True}],
)
def test_new_game_refuses_bad_options(options: Any) -> None:
    with pytest.raises(ArgumentError, match="option"):
        CARDS.new_game(3, 1, options)


def test_new_game_accepts_the_edges() -> None:
    assert CARDS.new_game(2, 0).players == 2
    assert CARDS.new_game(4, 2**64 - 1, {"open_piles": True}).open_piles


# --- hidden information -------------------------------------------------------------------------
def _keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _keys(v)
    elif isinstance(value, list):
        for v in value:
            yield from _keys(v)


def test_no_view_holds_the_generator_or_anything_the_deal_follows_from() -> None:
    """A view never holds the generator state or the seed, and it is the same whatever
    the hidden cards and the generator are: nothing in it depends on them (C-19, G-3)."""
    for s in states():
        for seat in [*range(s.players), None]:
            v = s.view(seat)
            assert not {"rng", "seed", "deck", "removed", "hands"} & set(_keys(v))
            assert str(s.rng) not in json.dumps(v)
            other = s.copy()
            other.rng = (s.rng * 6364136223846793005 + 1) % 2**64
            other.redeal(seat, Rng(99))
            assert other.view(seat) == v
            if seat is not None and s.players > 2:
                assert other.hands != s.hands or other.deck != s.deck


# --- sample_from_view and render_view with malformed views --------------------------------------
def _same(a: Any, b: Any) -> bool:
    return bool(a == b and type(a) is type(b))


def _mutations(v: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The view broken in many ways: each key deleted or given a wrong value, nested
    fields too, counts that do not add up, and documents that are no view at all."""
    for key in v:
        w = copy.deepcopy(v)
        del w[key]
        yield f"without {key}", w
        for bad in WRONG_VALUES:
            if not _same(bad, v[key]):
                w = copy.deepcopy(v)
                w[key] = bad
                yield f"{key}={bad!r}", w
    for part in ("layout", "pending"):
        for key in v[part]:
            for bad in WRONG_VALUES:
                if not _same(bad, v[part][key]):
                    w = copy.deepcopy(v)
                    w[part][key] = bad
                    yield f"{part}.{key}={bad!r}", w
    for field in ("deck_count", "removed_count"):
        for delta in (-1, 1, 200):
            w = copy.deepcopy(v)
            w[field] = v[field] + delta
            yield f"{field}{delta:+}", w
    for p in range(v["players"]):
        for delta in (-1, 1):
            w = copy.deepcopy(v)
            w["hand_counts"][p] += delta
            yield f"hand_counts[{p}]{delta:+}", w
    w = copy.deepcopy(v)
    w["discard"] += "r" * 70
    yield "more red cards than exist", w
    w = copy.deepcopy(v)
    w["layout"]["bridges"] = ["?"] * 7
    yield "every bridge hidden", w
    w = copy.deepcopy(v)
    w["layout"]["columns"][0] = ["r"] * 9
    yield "a column of 9", w
    yield "a list", [v]
    yield "a string", json.dumps(v)
    yield "None", None
    yield "a board-game view", BOARD.new_game(3, 1).view(0)


@pytest.mark.parametrize("which", range(8))
def test_sample_from_view_refuses_malformed_views_with_record_errors(which: int) -> None:
    """Every mutation of a real view (the mover's and a spectator's) is refused with a
    RecordError: never a KeyError, TypeError or another traceback, never a sample."""
    s = states()[which]
    for seat in [max(s.seat, 0), None]:
        v = s.view(seat)
        assert CARDS.sample_from_view(copy.deepcopy(v), Rng(1)).view(seat) == v
        for what, w in _mutations(v):
            with pytest.raises(RecordError):
                CARDS.sample_from_view(w, Rng(1))
                pytest.fail(f"{what} was accepted")


def test_render_view_refuses_what_sampling_refuses() -> None:
    s = find(kind_is("commit", conflict_type="war"))
    v = s.view(s.seat)
    assert "commit" in CARDS.render_view(v)
    for what, w in _mutations(v):
        try:
            text = CARDS.render_view(w)
        except RecordError:
            continue
        assert isinstance(text, str), what


def test_sample_from_view_names_the_field() -> None:
    s = CARDS.new_game(3, 2)
    v = s.view(s.seat)
    cases = [
        ("hand_counts", [8, 8], "view.hand_counts must list 3 entries"),
        ("deck_count", "137", "view.deck_count must be an integer"),
        ("viewer", True, "view.viewer must be an integer"),
        ("hand", "rrrrrrrrr", "view.hand"),
        ("removed_count", 30, "view does not account for every card (C-1)"),
        ("legal", [], "view.legal does not match"),
        ("piles", [], "view.piles does not match"),
    ]
    for key, value, needle in cases:
        w = copy.deepcopy(v)
        w[key] = value
        with pytest.raises(RecordError, match=needle.replace("(", r"\(").replace(")", r"\)")):
            CARDS.sample_from_view(w, Rng(0))
    w = copy.deepcopy(v)
    del w["scored"]
    with pytest.raises(RecordError, match="view: the field 'scored' is missing"):
        CARDS.sample_from_view(w, Rng(0))

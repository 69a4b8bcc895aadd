"""Hostile views: a view handed back to the engine (by a bot, by a client) that is
malformed, of another game, or whose counts do not add up is refused with the project's
own error (RecordError), never a traceback or a state no seat could see."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from euphrates.board import BOARD
from euphrates.core.errors import (
    ArgumentError,
    EuphratesError,
    RecordError,
)
from euphrates.core.rng import Rng
from tests.board.pending import PENDING

Doc = dict[str, Any]


# ---------------------------------------------------------------------- views
def _views() -> list[dict[str, Any]]:
    """Real views of several decisions, seats and options (a spectator's too)."""
    out: list[dict[str, Any]] = [
        PENDING["revolt"]().view(1),
        PENDING["war"]().view(None),
        PENDING["treasure"]().view(0),
    ]
    game = BOARD.new_game(4, 5, {"open_scores": True, "advanced": True})
    rng = Rng(5)
    for _ in range(40):
        game.apply(game.random_action(rng))
    out.append(game.view(3))
    return out


_DELETE = object()
_BAD_VALUES: list[Any] = [None, True, 1.5, "x", -1, 2**70, [], {"count": -1}]


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            out.append((*prefix, k))
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value[:3]):
            out.append((*prefix, i))
            out.extend(_paths(v, (*prefix, i)))
    return out


def _mutated(view: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    out = copy.deepcopy(view)
    target: Any = out
    for key in path[:-1]:
        target = target[key]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return out


def test_sample_from_view_refuses_every_malformed_view_cleanly() -> None:
    """Every key of real views deleted or replaced by a wrong type, None, a huge or
    negative number or a string: only RecordError comes out, and whatever is accepted
    is a state that shows the seat exactly that view."""
    tried = refused = accepted = 0
    rng = Rng(3)
    for view in _views():
        viewer = view["viewer"]
        for path in _paths(view):
            for value in [_DELETE, *_BAD_VALUES]:
                if isinstance(path[-1], int) and value is _DELETE:
                    continue
                bad = _mutated(view, path, value)
                tried += 1
                try:
                    st = BOARD.sample_from_view(bad, rng)
                except RecordError:
                    refused += 1
                    if refused % 7 == 0:
                        with pytest.raises(RecordError):
                            BOARD.render_view(bad)
                    continue
                accepted += 1
                assert json.dumps(st.view(viewer), sort_keys=True) == json.dumps(
                    bad, sort_keys=True
                ), path
    assert refused > 0.95 * tried, (tried, refused, accepted)
    for view in [*_views(), PENDING["monument"]().view(0)]:
        assert BOARD.sample_from_view(view, rng).view(view["viewer"]) == view
        assert BOARD.render_view(view).startswith("    A B C")


@pytest.mark.parametrize(
    "bad",
    [None, [], "view", 3, {"game": "cards"}, {}],
)
def test_what_is_not_a_board_view_is_refused(bad: Any) -> None:
    with pytest.raises(RecordError):
        BOARD.sample_from_view(bad, Rng(1))
    with pytest.raises(RecordError):
        BOARD.render_view(bad)


def test_a_card_game_view_is_not_a_board_view() -> None:
    from euphrates.cards import CARDS

    view = CARDS.new_game(3, 1).view(0)
    with pytest.raises(RecordError) as err:
        BOARD.sample_from_view(view, Rng(1))
    assert "board" in str(err.value)


def test_view_counts_that_do_not_add_up_are_refused() -> None:
    view = BOARD.new_game(3, 7).view(0)
    changes: list[Callable[[dict[str, Any]], object]] = [
        lambda v: v["bag"].update(count=v["bag"]["count"] + 1),
        lambda v: v["seats"][1]["hand"].update(count=7),
        lambda v: v["seats"][1]["discarded"].update(count=200),
        lambda v: v["seats"][0]["hand"].update(red=6),
        lambda v: v["removed"].update(red=60),
        lambda v: v["seats"][1].update(hand={"red": 6, "blue": 0, "green": 0, "black": 0}),
        lambda v: v["seats"][1].update(points={"red": 1, "blue": 0, "green": 0, "black": 0}),
        lambda v: v.update(version=3),
        lambda v: v.update(legal=["pass"]),
        lambda v: v.update(viewer=True),
        lambda v: v.update(seed=4),
    ]
    for change in changes:
        bad = copy.deepcopy(view)
        change(bad)
        with pytest.raises(RecordError):
            BOARD.sample_from_view(bad, Rng(2))


def test_errors_are_project_errors() -> None:
    assert issubclass(RecordError, EuphratesError) and issubclass(ArgumentError, EuphratesError)

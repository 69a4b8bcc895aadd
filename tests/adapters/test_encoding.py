"""Tensors and strings from a seat's view (adapters/*_encoding.py).

The one property that matters most: what a seat is shown depends only on what it may
see. Two states that differ only in what the seat cannot see (other hands, the bag's
order, a face-down bridge; made by the engine's `redeal` and by `sample_from_view`)
must give the seat the very same tensors and strings, in both games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.adapters.extras import need

np = need("numpy", "pettingzoo")

from euphrates.adapters.board_encoding import GAME as BOARD_GAME  # noqa: E402
from euphrates.adapters.board_encoding import SEAT as BOARD_SEAT  # noqa: E402
from euphrates.adapters.board_encoding import BoardEncoding  # noqa: E402
from euphrates.adapters.cards_encoding import GAME as CARDS_GAME  # noqa: E402
from euphrates.adapters.cards_encoding import SEAT as CARDS_SEAT  # noqa: E402
from euphrates.adapters.cards_encoding import CardsEncoding  # noqa: E402
from euphrates.adapters.encoding import Encoding, split  # noqa: E402
from euphrates.board import BOARD  # noqa: E402
from euphrates.cards import CARDS  # noqa: E402
from euphrates.core.protocol import GameState  # noqa: E402
from euphrates.core.rng import Rng  # noqa: E402

DOCS = Path(__file__).resolve().parents[2] / "docs" / "adapters.md"
ENCODINGS: dict[str, Encoding] = {"board": BoardEncoding(), "cards": CardsEncoding()}
DEFINITIONS: dict[str, Any] = {"board": BOARD, "cards": CARDS}
CASES = [
    ("board", 2, {}),
    ("board", 3, {"advanced": True}),
    ("board", 4, {"open_scores": True}),
    ("cards", 2, {}),
    ("cards", 3, {"open_piles": True}),
    ("cards", 4, {}),
]


def _states(game: str, players: int, options: dict[str, bool], seed: int) -> list[Any]:
    """States along one random game, every few decisions, and its end."""
    state: GameState[Any] = DEFINITIONS[game].new_game(players, seed, options)
    rng = Rng(seed)
    every = 7 if game == "board" else 37
    out = []
    n = 0
    while not state.is_over():
        if n % every == 0:
            out.append(state.copy())
        state.apply(state.random_action(rng))
        n += 1
    out.append(state)
    return out


def _shown(encoding: Encoding, state: Any, seat: int | None) -> tuple[Any, ...]:
    view = state.view(seat)
    return (
        encoding.tensor(view, recall=False),
        encoding.tensor(view, recall=True),
        encoding.observation_string(view),
        encoding.information_string(view),
    )


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return all(
        np.array_equal(x, y) if isinstance(x, np.ndarray) else x == y
        for x, y in zip(a, b, strict=True)
    )


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_a_seat_is_shown_nothing_it_may_not_see(
    game: str, players: int, options: dict[str, bool]
) -> None:
    """For each seat: a redeal and a sample from its view change what the seat cannot
    see and leave everything it is shown as it was. The other seats' tensors do change
    between such twins, so the twins really differ where the seat cannot look."""
    encoding = ENCODINGS[game]
    definition = DEFINITIONS[game]
    rng = Rng(players)
    others_changed = 0
    compared = 0
    for state in _states(game, players, options, seed=players):
        for seat in range(players):
            shown = _shown(encoding, state, seat)
            redealt = state.copy()
            redealt.redeal(seat, rng)
            sampled = definition.sample_from_view(state.view(seat), rng)
            for twin in (redealt, sampled):
                assert _same(_shown(encoding, twin, seat), shown)
                other = (seat + 1) % players
                others_changed += not _same(
                    _shown(encoding, twin, other), _shown(encoding, state, other)
                )
                compared += 1
    assert others_changed > compared // 4


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_every_entry_lies_within_its_bounds(
    game: str, players: int, options: dict[str, bool]
) -> None:
    encoding = ENCODINGS[game]
    for recall in (False, True):
        high = encoding.high(recall)
        assert high.shape == (encoding.size(recall),)
        assert (high > 0).all()
    for state in _states(game, players, options, seed=10 + players)[::3]:
        for seat in (*range(players), None):
            for recall in (False, True):
                tensor = encoding.tensor(state.view(seat), recall)
                assert tensor.dtype == np.float32
                assert np.isfinite(tensor).all()
                assert (tensor >= 0).all() and (tensor <= encoding.high(recall)).all()


def test_the_layouts_are_pinned() -> None:
    """A network is built for a layout: its sizes change only on purpose."""
    board, cards = ENCODINGS["board"], ENCODINGS["cards"]
    assert (board.size(False), board.size(True)) == (5632, 5648)
    assert (cards.size(False), cards.size(True)) == (2257, 2277)
    assert [(p.name, p.shape) for p in board.pieces(True)] == [
        ("board", (31, 11, 16)),
        ("seats", (4, 31)),
        ("game", (52,)),
        ("record", (4, 4)),
    ]
    assert [(p.name, p.shape) for p in cards.pieces(True)] == [
        ("columns", (26, 8, 9)),
        ("bridges", (7, 23)),
        ("seats", (4, 32)),
        ("game", (96,)),
        ("record", (4, 5)),
    ]


@pytest.mark.parametrize("game", ["board", "cards"])
def test_seats_are_seen_from_the_viewer_s_side(game: str) -> None:
    """Slot 0 is the viewer with its own hand; the information state's record holds
    every seat's points (the board's totals, the card game's piles) where the table
    hides them, slot by slot from the viewer."""
    encoding = ENCODINGS[game]
    fields = BOARD_SEAT if game == "board" else CARDS_SEAT
    state = _states(game, 3, {}, seed=21)[-2]
    for seat in range(3):
        parts = split(encoding.tensor(state.view(seat), True), encoding.pieces(True))
        seats, record = parts["seats"], parts["record"]
        assert seats[0, fields.start("me")] == 1
        assert list(seats[0, fields["hand"]]) == state.hands[seat]
        assert seats[3, fields.start("present")] == 0
        for k in range(3):
            other = (seat + k) % 3
            if game == "board":
                assert list(record[k]) == state.points[other]
                shown = seats[k, fields.start("points_shown")]
                assert shown == (k == 0)
            else:
                pile = state.piles[other]
                assert list(record[k]) == [pile.count(c) for c in range(5)]


def test_the_docs_name_every_field() -> None:
    """docs/adapters.md describes the layouts field by field; a field added or renamed
    without the page fails here."""
    text = DOCS.read_text()
    for fields in (BOARD_SEAT, BOARD_GAME, CARDS_SEAT, CARDS_GAME):
        missing = [name for name in fields.slices if f"`{name}`" not in text]
        assert not missing

"""The board game as a host sees it (`core.GameDefinition`)."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

import euphrates.board.position as position
import euphrates.board.views as views
from euphrates.board.geometry import HEIGHT, WIDTH, square_name, squares_of
from euphrates.board.maps import ADVANCED, STANDARD, BoardMap
from euphrates.board.render import render_view
from euphrates.board.state import BoardState
from euphrates.board.writing import view_of
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import Json, View, check_options, check_players, check_seed
from euphrates.core.rng import Rng

OPTIONS = {"advanced": False, "open_scores": False}
PLAYERS = (2, 3, 4)


def read_options(options: object) -> dict[str, bool]:
    """Options are {"advanced": bool, "open_scores": bool} (B-33, B-34)."""
    return check_options(options, OPTIONS, "board-game")


class BoardGame:
    name = "board"
    title = "Tigris & Euphrates"
    options = MappingProxyType(OPTIONS)
    players = PLAYERS
    words_prefix = ""
    scoring_ruling = "B-32"
    stats_words = MappingProxyType({"monuments": "stats.monuments", "placed": "stats.placed_tiles"})

    def describe(self) -> Json:
        """A seat is its dynasty, whose symbol tells whose leader is whose: the lobby
        marks the seat with it, as the table marks that seat's leaders."""
        return {
            "title": self.title,
            "options": dict(OPTIONS),
            "players": list(PLAYERS),
            "seats": "dynasty",
        }

    def read_options(self, options: object) -> dict[str, bool]:
        return read_options(options)

    def assets(self) -> Json:
        """Both sides of the board (board-map.md), so that a client draws exactly the
        engine's board: its river, temple and bordered-treasure squares."""
        return {"maps": {m.name: _map_json(m) for m in (STANDARD, ADVANCED)}}

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BoardState:
        players = check_players(players, PLAYERS)
        seed = check_seed(seed)
        opts = read_options(options)
        return BoardState.new_game(
            players, seed, advanced=opts["advanced"], open_scores=opts["open_scores"]
        )

    def from_position(self, doc: Mapping[str, Any]) -> BoardState:
        return position.from_position(doc)

    def to_position(self, state: BoardState) -> Json:
        return position.to_position(_board_state(state))

    def render(self, state: BoardState, seat: int | None) -> str:
        return render_view(_board_state(state).view(seat))

    def render_view(self, view: View) -> str:
        """The rendering of a view from outside: checked first (RecordError), as
        `sample_from_view` checks it, so a malformed view is refused, not half drawn."""
        views.sample_from_view(view, Rng(0))
        return render_view(view)

    def search_view(self, state: BoardState, seat: int) -> View:
        return view_of(_board_state(state), seat, {"viewer": seat})

    def sample_from_view(self, view: View, rng: Rng) -> BoardState:
        if not isinstance(rng, Rng):
            raise ArgumentError(f"rng must be an Rng, not {type(rng).__name__}")
        return views.sample_from_view(view, rng)


def _map_json(m: BoardMap) -> Json:
    def names(mask: int) -> list[str]:
        return [square_name(q) for q in squares_of(mask)]

    return {
        "columns": WIDTH,
        "rows": HEIGHT,
        "river": names(m.river),
        "temples": names(m.temples),
        "bordered": names(m.bordered),
    }


def _board_state(state: object) -> BoardState:
    if not isinstance(state, BoardState):
        raise ArgumentError(f"not a Tigris & Euphrates state: {type(state).__name__}")
    return state


BOARD = BoardGame()

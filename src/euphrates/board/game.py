"""The board game as a host sees it (`core.GameDefinition`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from euphrates.board import position
from euphrates.board.render import render_view
from euphrates.board.state import BoardState
from euphrates.core.protocol import Json, View, check_options, check_players, check_seed
from euphrates.core.rng import Rng

OPTIONS = {"advanced": False, "open_scores": False}


def read_options(options: object) -> dict[str, bool]:
    """Options are {"advanced": bool, "open_scores": bool} (B-33, B-34)."""
    return check_options(options, OPTIONS, "board-game")


class BoardGame:
    name = "board"
    title = "Tigris & Euphrates"

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> BoardState:
        players = check_players(players)
        seed = check_seed(seed)
        opts = read_options(options)
        return BoardState.new_game(
            players, seed, advanced=opts["advanced"], open_scores=opts["open_scores"]
        )

    def from_position(self, doc: Mapping[str, Any]) -> BoardState:
        return position.from_position(doc)

    def to_position(self, state: BoardState) -> Json:
        return position.to_position(state)

    def render(self, state: BoardState, seat: int | None) -> str:
        return render_view(state.view(seat))

    def render_view(self, view: View) -> str:
        return render_view(view)

    def sample_from_view(self, view: View, rng: Rng) -> BoardState:
        return position.sample_from_view(view, rng)


BOARD = BoardGame()

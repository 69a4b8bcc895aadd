"""The card game as a host sees it: set-up from options and a seed, documents, rendering.

A game is exactly its options, its seed and its actions: the seed shuffles the deck and
picks the first player, and nothing after the deal uses chance, so replaying a record's
action texts on ``new_game(players, seed, options)`` rebuilds the identical state.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from euphrates.cards.actions import CardsAction
from euphrates.cards.layout import CARD_TOTALS, HAND_SIZE, REMOVED_TWO_PLAYERS
from euphrates.cards.position import from_position, to_position
from euphrates.cards.render import render
from euphrates.cards.state import CardsState
from euphrates.cards.views import check_view, sample_from_view
from euphrates.cards.writing import view_json
from euphrates.core.errors import RecordError
from euphrates.core.protocol import (
    GameState,
    Json,
    View,
    check_options,
    check_players,
    check_seed,
)
from euphrates.core.rng import Rng

OPTIONS: dict[str, bool] = {"open_piles": False}
PLAYERS = (2, 3, 4)


def read_options(options: object) -> dict[str, bool]:
    """The game's options with defaults (C-9); unknown keys are refused."""
    return check_options(options, OPTIONS, "card-game")


def new_game(players: int, seed: int, options: Mapping[str, Any] | None = None) -> CardsState:
    """C-3: shuffle the 185 cards, pick the first player, deal 8 to each seat from the
    first player on, and with two players remove 30 more unseen."""
    players = check_players(players, PLAYERS)
    seed = check_seed(seed)
    opts = read_options(options)
    rng = Rng(seed)
    deck = [c for c, n in enumerate(CARD_TOTALS) for _ in range(n)]
    rng.shuffle(deck)
    first = rng.below(players)
    s = CardsState(players, opts["open_piles"])
    for i in range(players):
        p = (first + i) % players
        for _ in range(HAND_SIZE):
            s.hands[p][deck.pop()] += 1
    if players == 2:
        s.removed = deck[-REMOVED_TWO_PLAYERS:]
        del deck[-REMOVED_TWO_PLAYERS:]
    s.deck = deck
    s.rng = rng.state
    s.first = first
    s.active = first
    s.seat = first
    return s


class CardsGame:
    """Contest of Kings (Euphrat & Tigris: Wettstreit der Könige, 2005)."""

    name = "cards"
    title = "Contest of Kings"
    options = MappingProxyType(OPTIONS)
    players = PLAYERS
    words_prefix = "cards."
    scoring_ruling = "C-18"
    stats_words = MappingProxyType({"monuments": "stats.ships", "placed": "stats.placed_cards"})

    def describe(self) -> Json:
        """Seats hold no dynasty here: the lobby marks each with its number."""
        return {
            "title": self.title,
            "options": dict(OPTIONS),
            "players": list(PLAYERS),
            "seats": "number",
        }

    def read_options(self, options: object) -> dict[str, bool]:
        return read_options(options)

    def assets(self) -> Json:
        """Nothing beyond the views: every card a client draws is named in them."""
        return {}

    def new_game(
        self, players: int, seed: int, options: Mapping[str, Any] | None = None
    ) -> CardsState:
        return new_game(players, seed, options)

    def from_position(self, doc: Mapping[str, Any]) -> CardsState:
        return from_position(doc)

    def to_position(self, state: GameState[CardsAction]) -> Json:
        if not isinstance(state, CardsState):
            raise RecordError("not a card-game state")
        return to_position(state)

    def render(self, state: GameState[CardsAction], seat: int | None) -> str:
        if not isinstance(state, CardsState):
            raise RecordError("not a card-game state")
        return render(state.view(seat))

    def search_view(self, state: GameState[CardsAction], seat: int) -> View:
        if not isinstance(state, CardsState):
            raise RecordError("not a card-game state")
        return view_json(state, seat, {"viewer": seat})

    def sample_from_view(self, view: View, rng: Rng) -> CardsState:
        return sample_from_view(view, rng)

    def render_view(self, view: View) -> str:
        """Draw a view handed in from outside, after checking that some state of the game
        shows exactly this view (RecordError otherwise), so drawing it cannot fail."""
        check_view(view)
        return render(view)


CARDS = CardsGame()

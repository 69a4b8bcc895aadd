"""The public count of pieces not yet seen in the open (`not_seen` of both games'
views): the same for every audience, made of public facts only, and exactly the
hidden places' total (bag, hands, swapped away; deck, hands, removed unseen)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from euphrates.core.rng import Rng
from euphrates.games import game_definition

COLOURS = ("red", "blue", "green", "black")


def _states(game: str, seed: int, every: int) -> Any:
    """Every `every`-th state of a random game, to its end."""
    state = game_definition(game).new_game(3, seed, {})
    pick = random.Random(seed)
    n = 0
    while state.outcome() is None:
        if n % every == 0:
            yield state
        state.apply(pick.choice(state.legal_actions()))
        n += 1
    yield state


def _hidden_total(game: str, spectator: dict[str, Any]) -> int:
    if game == "board":
        hands: int = sum(s["hand"]["count"] + s["discarded"]["count"] for s in spectator["seats"])
        return int(spectator["bag"]["count"]) + hands
    down = 1 if spectator["layout"]["face_down"] is not None else 0
    held: int = sum(spectator["hand_counts"])
    return int(spectator["deck_count"]) + held + int(spectator["removed_count"]) + down


@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_same_for_everyone_and_the_total_of_the_hidden_places(game: str) -> None:
    for state in _states(game, 4, 7):
        spectator = state.view(None)
        figure = spectator["not_seen"]
        assert set(figure) == set(COLOURS) and all(n >= 0 for n in figure.values())
        for seat in range(3):
            assert state.view(seat)["not_seen"] == figure
        assert sum(figure.values()) == _hidden_total(game, spectator)


@pytest.mark.parametrize("game", ["board", "cards"])
def test_no_hidden_fact_moves_it(game: str) -> None:
    """Deal the hidden pieces again (other hands, bag or deck, a face-down bridge): the
    figure stays, so nothing hidden enters it."""
    definition = game_definition(game)
    for state in _states(game, 9, 11):
        view = state.view(0)
        for k in range(3):
            other = definition.sample_from_view(view, Rng(k))
            for seat in (None, 1, 2):
                assert other.view(seat)["not_seen"] == view["not_seen"]

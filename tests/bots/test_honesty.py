"""Bots play honestly: they are handed a view, and nothing in a view reaches another
hand, the bag or the deck; sampling changes only what the view hides (G-3, B-33, C-19)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from euphrates.bots.base import Bot
from euphrates.bots.levels import make_bot
from euphrates.core.protocol import GameDefinition, View
from euphrates.core.rng import Rng
from euphrates.games import GAMES, game_definition
from euphrates.match.play import play_game

GAME_NAMES = sorted(GAMES)


class Spy(Bot):
    """Records every view it is handed and plays randomly."""

    name = "spy"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.views: list[View] = []

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        self.views.append(json.loads(json.dumps(view)))
        legal = view["legal"]
        return str(legal[self.rng.below(len(legal))])


def _advance(name: str, players: int, seed: int, steps: int) -> Any:
    state = game_definition(name).new_game(players, seed)
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_over():
            break
        state.apply(state.random_action(rng))
    return state


@pytest.mark.parametrize("name", GAME_NAMES)
def test_bots_are_handed_only_their_own_view(name: str) -> None:
    spies = [Spy(1), Spy(2), Spy(3)]
    played = play_game(name, spies, seed=5)
    assert played.state.is_over()
    for seat, spy in enumerate(spies):
        assert spy.views, "every seat decided something"
        for view in spy.views:
            assert view["viewer"] == seat
            assert "seed" not in view and "rng" not in view
            assert view["decision"]["seat"] == seat
            _nothing_hidden(name, view, seat)


def _nothing_hidden(name: str, view: View, seat: int) -> None:
    if name == "board":  # B-33: the bag and other hands as counts only
        assert set(view["bag"]) == {"count"}
        for other, entry in enumerate(view["seats"]):
            if other != seat:
                assert set(entry["hand"]) == {"count"}
                assert set(entry["discarded"]) == {"count"}
    else:  # C-19: own hand only, the deck and the removed cards as counts
        assert "deck" not in view and "removed" not in view and "hands" not in view
        assert isinstance(view["deck_count"], int) and isinstance(view["hand"], str)
        assert all(isinstance(n, int) for n in view["hand_counts"])


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("steps", [0, 40, 120])
def test_sampling_changes_only_what_the_view_hides(name: str, steps: int) -> None:
    definition = game_definition(name)
    state = _advance(name, 3, 11 + steps, steps)
    for seat in range(3):
        view = state.view(seat)
        for k in range(3):
            sample = definition.sample_from_view(view, Rng(k))
            assert sample.view(seat) == view
            twin = state.copy()
            twin.redeal(seat, Rng(100 + k))
            assert twin.view(seat) == view


@pytest.mark.parametrize("name", GAME_NAMES)
def test_a_view_is_a_copy_not_a_window(name: str) -> None:
    state = _advance(name, 2, 3, 30)
    before = json.dumps(game_definition(name).to_position(state), sort_keys=True)
    view = state.view(0)
    if name == "board":
        view["seats"][1]["hand"] = {"red": 99}
        view["board"]["tiles"]["red"].append("A1")
    else:
        view["hand_counts"][1] = 99
        view["layout"]["columns"][0].append("r")
    assert json.dumps(game_definition(name).to_position(state), sort_keys=True) == before


@pytest.mark.parametrize("name", GAME_NAMES)
@pytest.mark.parametrize("spec", ["greedy", "mcts:60i", "rollout:8i"])
def test_a_bot_decides_from_the_view_alone(name: str, spec: str) -> None:
    """Two true states that differ only in what seat s cannot see give s the same view,
    and a seeded bot then makes the same choice in both."""
    state = _advance(name, 2, 21, 25)
    while state.is_over() or state.decision().kind != "action":  # pragma: no cover - seed-dependent
        state = _advance(name, 2, 22, 20)
    seat = state.decision().seat
    other = state.copy()
    other.redeal(seat, Rng(77))
    assert other.view(seat) == state.view(seat)
    definition = game_definition(name)
    a = make_bot(spec, seed=9).choose(definition, state.view(seat))
    b = make_bot(spec, seed=9).choose(definition, other.view(seat))
    assert a == b
    assert a in state.view(seat)["legal"]

"""The beginner plays reasonable moves with mistakes: it picks much better actions than
uniformly random play (by the greedy evaluation) without always picking the best."""

from __future__ import annotations

from typing import Any

import pytest

from euphrates.bots import GreedyBot, RandomBot, make_bot
from euphrates.bots.beginner import softmax_pick
from euphrates.core.protocol import View
from euphrates.core.rng import Rng
from euphrates.games import GAMES, game_definition


def _positions(name: str, count: int) -> list[View]:
    """Views with a real choice, from seeded random play."""
    views: list[View] = []
    rng = Rng(11)
    game = 0
    while len(views) < count:
        state = game_definition(name).new_game(2, 50 + game)
        game += 1
        for step in range(200):
            if state.is_over():
                break
            seat = state.to_move()
            assert seat is not None
            if step % 13 == 5 and state.legal_action_count() >= 4:
                views.append(state.view(seat))
            state.apply(state.random_action(rng))
    return views[:count]


def _regret(name: str, bot_spec: str, views: list[View]) -> tuple[float, int]:
    """The mean regret of the bot's choices by the greedy bot's evaluation (the best
    action's value minus the chosen one's), and how often it was not a best one."""
    definition = game_definition(name)
    regrets: list[float] = []
    for i, view in enumerate(views):
        values: dict[Any, float] = {a: v for v, a in GreedyBot(7).ranked(definition, view)}
        choice = make_bot(bot_spec, seed=100 + i).choose(definition, view)
        regrets.append(max(values.values()) - values[choice])
    return sum(regrets) / len(regrets), sum(1 for r in regrets if r > 1e-9)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_beginner_plays_better_than_random_and_worse_than_greedy(name: str) -> None:
    views = _positions(name, 12)
    beginner, beginner_misses = _regret(name, "beginner", views)
    random, _ = _regret(name, "random", views)
    assert beginner * 1.6 < random
    assert beginner_misses >= 2  # mistakes: not the greedy bot under another name
    assert isinstance(make_bot("random"), RandomBot)


def test_softmax_pick_follows_the_temperature() -> None:
    values = [1.0, 0.0, -5.0]
    assert softmax_pick(values, 0.01, 0.999) == 0  # cold: the best almost always
    assert softmax_pick(values, 1.0, 0.0) == 0
    assert softmax_pick(values, 1.0, 0.8) == 1  # e / (e + 1) ≈ 0.73 below the draw
    hot = [softmax_pick(values, 1000.0, d / 10) for d in range(10)]
    assert set(hot) == {0, 1, 2}  # very hot: close to uniform

"""Benchmarks, on one core.

`run_bench`: complete games, a uniformly random legal action at every decision. It
measures the engine as search bots use it (legal-action counting, random choice, apply).

`run_search_bench`: a bot thinking about the same positions every time (taken from a
seeded game between greedy bots), so a change to the search or the engine shows up as
a change in iterations per second and nothing else."""

from __future__ import annotations

import time
from typing import Any

from euphrates.bots import GreedyBot, make_bot
from euphrates.core.protocol import View
from euphrates.core.rng import Rng
from euphrates.games import game_definition


def run_bench(
    game: str, players: int, games: int, seed: int, options: dict[str, Any] | None = None
) -> dict[str, Any]:
    definition = game_definition(game)
    decisions = 0
    legal_total = 0
    start = time.perf_counter()
    for g in range(games):
        state = definition.new_game(players, seed + g, options)
        rng = Rng((seed + g) * 0x9E3779B1 + 1)
        while not state.is_over():
            legal_total += state.legal_action_count()
            decisions += 1
            state.apply(state.random_action(rng))
    elapsed = time.perf_counter() - start
    return {
        "game": game,
        "games": games,
        "players": players,
        "seconds": round(elapsed, 3),
        "games_per_s": round(games / elapsed, 1),
        "decisions_per_s": round(decisions / elapsed),
        "mean_legal_actions": round(legal_total / max(decisions, 1), 1),
        "decisions_per_game": round(decisions / max(games, 1), 1),
    }


def search_views(game: str, players: int, positions: int, seed: int, every: int = 7) -> list[View]:
    """The positions `run_search_bench` thinks about: every `every`-th decision with a
    real choice in a seeded greedy game (more games if one ends). Apart, so that a
    count of instructions can subtract what making them costs."""
    definition = game_definition(game)
    views: list[View] = []
    g = 0
    while len(views) < positions:
        state = definition.new_game(players, seed + g, None)
        movers = [GreedyBot(seed + g * players + i) for i in range(players)]
        k = 0
        while not state.is_over() and len(views) < positions:
            decision = state.decision()
            assert decision is not None
            view = state.view(decision.seat)
            if len(view["legal"]) > 1:
                k += 1
                if k % every == 0:
                    views.append(view)
            state.apply(movers[decision.seat].choose(definition, view), seat=decision.seat)
        g += 1
    return views


def run_search_bench(
    game: str, players: int, spec: str, positions: int, seed: int, every: int = 7
) -> dict[str, Any]:
    """`spec` (e.g. `mcts:600i`) chooses at the positions `search_views` makes."""
    definition = game_definition(game)
    bot = make_bot(spec, seed)
    views = search_views(game, players, positions, seed, every)
    iterations = 0
    start = time.perf_counter()
    for view in views:
        bot.choose(definition, view)
        # Tree iterations, or rollouts for the rollout search.
        iterations += int(getattr(bot, "last_iterations", 0))
    elapsed = time.perf_counter() - start
    return {
        "game": game,
        "players": players,
        "bot": bot.describe(),
        "positions": len(views),
        "seconds": round(elapsed, 3),
        "seconds_per_decision": round(elapsed / len(views), 4),
        "iterations_per_s": round(iterations / elapsed) if iterations else None,
    }

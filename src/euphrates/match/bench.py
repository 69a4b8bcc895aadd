"""The random-play benchmark: complete games, a uniformly random legal action at every
decision. It measures the engine as search bots use it (legal-action counting, random
choice, apply), on one core."""

from __future__ import annotations

import time
from typing import Any

from euphrates.core.rng import Rng
from euphrates.match.games import game_definition


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

"""How fast the adapters play, against the bare engine: decisions per second.

    python -m euphrates.adapters.bench [--games 5] [--players 3] [--seed 1] [--game board]

Every path plays whole games with uniformly random legal actions and counts the
seats' decisions (chance nodes are not counted):

* `engine`: the engine's own `random_action`, which picks by index without listing;
* `engine_listed`: `legal_actions()` listed, one chosen, applied: what any wrapper
  has to do at least;
* `chance`: the explicit-chance game of `adapters.chance` (legal numbers, chance
  nodes sampled by their probabilities), without a framework;
* `openspiel`: a `pyspiel` state through OpenSpiel's API (`legal_actions`,
  `chance_outcomes`, `apply_action`);
* `openspiel_observed`: the same, reading the mover's information-state tensor
  before each decision, as a learning agent does;
* `pettingzoo`: the AEC environment, an observation and its mask for every step.

Rates are decisions per second of the process's CPU time. The last line printed is
JSON: {game: {path: decisions per second}}; a path whose extra is not installed reads
null.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from typing import Any

from euphrates.adapters.chance import CHANCE, TERMINAL, Deal
from euphrates.core.protocol import check_players
from euphrates.core.rng import Rng
from euphrates.games import game_definition

Path = Callable[[str, int, int], int]
"""A way to play: (game, players, seed) -> decisions played in one whole game."""


def engine(game: str, players: int, seed: int) -> int:
    state = game_definition(game).new_game(players, seed)
    rng = Rng(seed)
    n = 0
    while not state.is_over():
        state.apply(state.random_action(rng))
        n += 1
    return n


def engine_listed(game: str, players: int, seed: int) -> int:
    state = game_definition(game).new_game(players, seed)
    rng = Rng(seed)
    n = 0
    while not state.is_over():
        actions = state.legal_actions()
        state.apply(actions[rng.below(len(actions))])
        n += 1
    return n


def chance(game: str, players: int, seed: int) -> int:
    deal = Deal.start(game, players, {}, 1_000_000)
    rng = random.Random(seed)
    n = 0
    while (who := deal.current()) != TERMINAL:
        if who == CHANCE:
            outcomes = deal.chance_outcomes()
            deal.apply(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            deal.apply(rng.choice(deal.legal_ids()))
            n += 1
    return n


def spiel_random_game(game: Any, seed: int, observed: bool = False) -> int:
    """One whole game of any OpenSpiel game (ours or OpenSpiel's own) at random through
    pyspiel's API, chance by its odds, reading the mover's information-state tensor
    each decision if `observed`: the decisions played."""
    state = game.new_initial_state()
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            if observed:
                state.information_state_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            n += 1
    return n


def zoo_random_game(env: Any, seed: int) -> int:
    """One whole game of any PettingZoo AEC environment, each step an observation and
    a random action its mask allows: the decisions played."""
    import numpy as np

    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    n = 0
    for _agent in env.agent_iter():
        obs, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        n += 1
    return n


def _openspiel(observed: bool) -> Path:
    import pyspiel

    import euphrates.adapters.openspiel as adapter

    def play(game: str, players: int, seed: int) -> int:
        name = adapter.SPIEL_GAMES[game].SHORT_NAME
        return spiel_random_game(pyspiel.load_game(name, {"players": players}), seed, observed)

    return play


def _pettingzoo() -> Path:
    from euphrates.adapters.pettingzoo import raw_env

    def play(game: str, players: int, seed: int) -> int:
        return zoo_random_game(raw_env(game=game, players=players), seed)

    return play


def paths() -> dict[str, Path | None]:
    """Every path, or None where its extra is missing."""
    out: dict[str, Path | None] = {
        "engine": engine,
        "engine_listed": engine_listed,
        "chance": chance,
    }
    try:
        out["openspiel"] = _openspiel(observed=False)
        out["openspiel_observed"] = _openspiel(observed=True)
    except ImportError:
        out["openspiel"] = out["openspiel_observed"] = None
    try:
        out["pettingzoo"] = _pettingzoo()
    except ImportError:
        out["pettingzoo"] = None
    return out


def measure(path: Path, game: str, players: int, games: int, seed: int) -> float:
    """Decisions per second of this process's CPU time, not of the wall clock, so that
    other work on a shared machine slows the figures less."""
    decisions = 0
    start = time.process_time()
    for i in range(games):
        decisions += path(game, players, seed + i)
    return decisions / max(time.process_time() - start, 1e-9)


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(
        prog="python -m euphrates.adapters.bench",
        description="Decisions per second through the adapters and the bare engine.",
    )
    parser.add_argument("--game", choices=["board", "cards", "both"], default="both")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--games", type=int, default=5, help="whole games per path")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    players = check_players(args.players)
    if args.games < 1:
        parser.error("--games must be at least 1")
    games = ["board", "cards"] if args.game == "both" else [args.game]
    result: dict[str, Any] = {}
    for game in games:
        result[game] = {}
        for name, path in paths().items():
            rate = (
                None if path is None else round(measure(path, game, players, args.games, args.seed))
            )
            result[game][name] = rate
            shown = "not installed" if rate is None else f"{rate} decisions/s"
            print(f"{game} {players} players, {name}: {shown}", flush=True)
    print(json.dumps(result, sort_keys=True))
    return result


if __name__ == "__main__":
    main()

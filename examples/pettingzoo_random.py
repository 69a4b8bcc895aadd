"""Random agents in a PettingZoo environment of either game, choosing by the mask.

    python examples/pettingzoo_random.py --game cards --players 3 --seed 7

Each agent is shown its seat's observation (a float32 vector) and the mask of its legal
actions, and picks one of those at random; the game's seed makes the run repeatable.
Prints the final table as the engine draws it for a spectator, the rewards by place
and, last, a line of JSON.
"""

from __future__ import annotations

import argparse
import json

import numpy as np

from euphrates.adapters.pettingzoo import env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["board", "cards"], default="board")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--max-moves", type=int, default=None, help="truncate the game here")
    args = parser.parse_args()

    e = env(game=args.game, players=args.players, render_mode="ansi", max_moves=args.max_moves)
    e.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    rewards: dict[str, float] = {}
    steps = 0
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            rewards[agent] = float(reward)
            if len(rewards) == len(e.possible_agents):
                print(e.render())
            e.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(legal)))
        steps += 1
    print(f"rewards: {rewards} after {steps} decisions")
    print(json.dumps({"game": args.game, "rewards": rewards, "decisions": steps}))
    e.close()


if __name__ == "__main__":
    main()

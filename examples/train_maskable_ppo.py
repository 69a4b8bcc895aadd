"""Train sb3-contrib's MaskablePPO in the PettingZoo environment, against random then greedy.

    python examples/train_maskable_ppo.py --game board --seconds 60 --games 20

Seat 0 is the learner; the other seats are played inside the environment by random
play for the first half of the time budget, then by the greedy bot (`bots.greedy`,
from each seat's own view). Observations are the environment's scaled ones (in [0, 1]),
actions are masked by the legal ones, and a game cut off at the default limit is paid
by the places the rules give it then (adapters/pettingzoo.py), so stalling earns
nothing. Prints the learner's win rate against each opponent (greedy play, no
exploration) and, last, a line of JSON. Needs ``pip install sb3-contrib`` (which needs
PyTorch); without it the example says so and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

import numpy as np

try:
    import gymnasium
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.logger import Logger
except ImportError as missing:  # pragma: no cover - depends on what is installed
    print(
        f"this example needs sb3-contrib and PyTorch ({missing.name} is missing): "
        "pip install sb3-contrib",
        file=sys.stderr,
    )
    sys.exit(2)

from euphrates.adapters.pettingzoo import raw_env
from euphrates.bots.levels import make_bot
from euphrates.games import game_definition


class Versus(gymnasium.Env):  # type: ignore[misc]
    """One seat of the PettingZoo game as a single-agent Gymnasium environment: the other
    seats move by `opponent` ("random" or "greedy") until the learner's turn comes."""

    def __init__(self, game: str, players: int, opponent: str, seed: int) -> None:
        self.aec = raw_env(game=game, players=players)
        self.definition = game_definition(game)
        self.opponent = opponent
        self.bots = [make_bot(opponent, seed + s) for s in range(players)]
        self.observation_space = self.aec.observation_space("player_0")["observation"]
        self.action_space = self.aec.action_space("player_0")
        self.rng = np.random.default_rng(seed)
        self._mask = np.zeros(self.action_space.n, dtype=bool)

    def _others(self) -> None:
        """Let the other seats move until seat 0 decides or the game ends."""
        aec = self.aec
        while not (any(aec.terminations.values()) or any(aec.truncations.values())):
            seat = int(aec.agent_selection.split("_")[1])
            if seat == 0:
                return
            state = aec.state_of_game
            text = self.bots[seat].choose(self.definition, state.view(seat))
            aec.step(aec._table.number(state.parse_action(text)))

    def _observe(self) -> Any:
        obs = self.aec.observe("player_0")
        self._mask = obs["action_mask"].astype(bool)
        return obs["observation"]

    def _over(self) -> bool:
        return any(self.aec.terminations.values()) or any(self.aec.truncations.values())

    def reset(self, seed: int | None = None, options: Any = None) -> tuple[Any, dict[str, Any]]:
        super().reset(seed=seed)
        self.aec.reset(seed=int(self.rng.integers(2**31)) if seed is None else seed)
        self._others()
        return self._observe(), {}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        self.aec.step(int(action))
        self._others()
        done = self._over()
        reward = float(self.aec._cumulative_rewards["player_0"]) if done else 0.0
        truncated = any(self.aec.truncations.values())
        return self._observe(), reward, done and not truncated, truncated, {}

    def action_masks(self) -> Any:
        """What MaskablePPO asks for: the learner's legal actions."""
        return self._mask


class Deadline(BaseCallback):  # type: ignore[misc]
    """Stops learning at a wall-clock deadline: the budget is time, not steps."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.until = time.monotonic() + seconds

    def _on_step(self) -> bool:
        return time.monotonic() < self.until


def win_rate(model: Any, env: Versus, games: int) -> float:
    """The share of games the learner finishes first (alone or shared)."""
    wins = 0
    for g in range(games):
        obs, _ = env.reset(seed=10_000 + g)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
        wins += env.aec._cumulative_rewards["player_0"] >= max(env.aec._cumulative_rewards.values())
    return wins / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=["board", "cards"], default="board")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=60.0, help="training time in all")
    parser.add_argument("--games", type=int, default=20, help="games per win rate")
    parser.add_argument("--steps", type=int, default=256, help="PPO's rollout length")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    envs = {o: Versus(args.game, args.players, o, args.seed) for o in ("random", "greedy")}
    model = MaskablePPO(
        "MlpPolicy", envs["random"], n_steps=args.steps, batch_size=64, seed=args.seed, verbose=0
    )
    # A logger of our own that writes nowhere: the default one makes an empty folder in
    # the temporary directory at each run, even when it prints nothing.
    model.set_logger(Logger(folder=None, output_formats=[]))
    rates: dict[str, float] = {}
    for opponent, env in envs.items():
        model.set_env(env)
        model.learn(total_timesteps=10**9, callback=Deadline(args.seconds / 2))
        rates[opponent] = win_rate(model, env, args.games)
        print(f"against {opponent}: won {rates[opponent]:.0%} of {args.games} games")
    print(json.dumps({"game": args.game, "players": args.players, "win_rates": rates}))


if __name__ == "__main__":
    main()

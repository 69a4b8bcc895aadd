"""Both games as PettingZoo AEC environments (``pip install 'euphrates[pettingzoo]'``).

>>> from euphrates.adapters.pettingzoo import env
>>> e = env(game="cards", players=3)
>>> e.reset(seed=7)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
...     e.step(action)

Agents are ``player_0`` .. ``player_{n-1}``, by seat. The agent to act is the seat whose
decision is pending, which is not always the active player (a defender commits, a
trader's owner picks a treasure), and may act several times in a row. Each observation
is ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector is the
seat's information-state tensor (its view with the public record,
`euphrates.adapters.encoding`), the mask marks the seat's legal actions in the fixed
numbering of `euphrates.adapters.tables` (all zero when the decision is another
seat's). An illegal action raises the engine's error and changes nothing.

Rewards come at the end, by place, as in OpenSpiel (`tables.place_returns`). The game
is drawn from the engine's seed, which `reset(seed=...)` fixes: the same seed and the
same actions give the same game. After `max_moves` decisions (by default OpenSpiel's,
`chance.MAX_MOVES`) a game is cut off: every agent is truncated and paid by the places
the final scoring gives on the points so far (B-32, C-18), as OpenSpiel scores it, so
that stalling pays no better than the position it holds. `max_moves=None` never cuts
a game off. Observations are scaled into [0, 1] (`scaled=False` keeps the raw counts).
`render_mode="ansi"` returns the engine's drawing of a spectator's view (or of
`render_seat`'s), "human" prints it.
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from euphrates.adapters.board_encoding import BoardEncoding
from euphrates.adapters.cards_encoding import CardsEncoding
from euphrates.adapters.chance import MATERIALS, MAX_MOVES
from euphrates.adapters.encoding import Array, Encoding
from euphrates.adapters.tables import place_returns, table_for
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import GameState, check_players
from euphrates.games import game_definition

ENCODINGS: Final[dict[str, Encoding]] = {"board": BoardEncoding(), "cards": CardsEncoding()}
RENDER_MODES: Final = ("ansi", "human")
UNBOUNDED: Final = 1e5
"""Entries whose bound (`Encoding.high`) is above this are counts the rules do not
bound (points, the version): scaling squashes them rather than divides."""
SQUASH: Final = 16.0
"""A count n the rules do not bound is scaled to n / (n + SQUASH): 0 stays 0, 16 is
0.5, and it never reaches 1, so an agent tells 20 points from 40 where n / 10**6
would not."""


class Scaler:
    """Scales a raw observation into [0, 1] in place: a bounded entry divided by its
    bound, an unbounded one squashed (`SQUASH`)."""

    def __init__(self, high: Array) -> None:
        free = high > UNBOUNDED
        # The few unbounded entries by number: indexing by a mask of every entry cost
        # more than the rest of the scaling.
        self.free = np.flatnonzero(free)
        bounded = np.where(free, 1.0, np.maximum(high, 1.0))
        self.inverse = (1.0 / bounded).astype(np.float32)

    def __call__(self, raw: Array) -> Array:
        raw *= self.inverse
        free = raw[self.free]
        raw[self.free] = free / (free + SQUASH)
        return raw


class EuphratesEnv(AECEnv):  # type: ignore[misc]
    """One game at a time of Tigris & Euphrates (`game="board"`) or Contest of Kings
    (`game="cards"`), for 2 to 4 players, with the game's options."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo reads it from the class
        "render_modes": list(RENDER_MODES),
        "name": "euphrates_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str = "board",
        players: int = 2,
        options: dict[str, bool] | None = None,
        render_mode: str | None = None,
        max_moves: int | str | None = "rules",
        render_seat: int | None = None,
        scaled: bool = True,
    ) -> None:
        super().__init__()
        self._definition = game_definition(game)
        self._game = game
        self._players = check_players(players)
        self._options = self._definition.read_options(options)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ArgumentError(
                f"render_mode is one of {', '.join(RENDER_MODES)}, not {render_mode!r}"
            )
        if max_moves == "rules":
            max_moves = MAX_MOVES[game]
        if max_moves is not None and (type(max_moves) is not int or max_moves < 1):
            raise ArgumentError(f"max_moves must be a positive integer or None, not {max_moves!r}")
        if type(scaled) is not bool:
            raise ArgumentError(f"scaled must be true or false, not {scaled!r}")
        if render_seat is not None and render_seat not in range(self._players):
            raise ArgumentError(f"render_seat must be a seat 0..{self._players - 1} or None")
        self.render_mode = render_mode
        self._max_moves = max_moves
        self._render_seat = render_seat
        self._table = table_for(game)
        self._mask_bytes = (len(self._table) + 7) // 8
        self._encoding = ENCODINGS[game]
        self.possible_agents = [f"player_{seat}" for seat in range(self._players)]
        self.agents = self.possible_agents[:]
        raw_high = self._encoding.high(recall=True)
        self._scale = Scaler(raw_high) if scaled else None
        high = np.ones_like(raw_high) if scaled else raw_high
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0.0, high=high, shape=high.shape, dtype=np.float32
                    ),
                    "action_mask": spaces.Box(
                        low=0, high=1, shape=(len(self._table),), dtype=np.int8
                    ),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(len(self._table)) for agent in self.possible_agents
        }
        self._seeds = np.random.default_rng()
        self._state: GameState[Any] | None = None
        self._moves = 0
        self.metadata = {**type(self).metadata, "name": f"euphrates_{game}_v0"}

    # --- spaces ---------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- the game -------------------------------------------------------------------------
    @property
    def state_of_game(self) -> GameState[Any]:
        """The engine's state of the game in progress (everything, hidden parts too:
        for the host of an experiment, never for an agent)."""
        if self._state is None:
            raise ArgumentError("reset() starts a game first")
        return self._state

    def _agent_of(self, seat: int) -> str:
        return self.possible_agents[seat]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. `seed` fixes it (and every game after it until the next seed);
        without one the games come from fresh entropy. `options` is PettingZoo's
        per-reset dict and is not read: a game's options are fixed at construction."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        game_seed = int(self._seeds.integers(0, 2**64, dtype=np.uint64))
        self._state = self._definition.new_game(self._players, game_seed, self._options)
        self._moves = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        seat = self._state.to_move()
        assert seat is not None
        self.agent_selection = self._agent_of(seat)

    def observe(self, agent: str) -> dict[str, Any]:
        state = self.state_of_game
        seat = self.possible_agents.index(agent)
        # The mask numbers the legal actions: the view's legal texts are not needed.
        observation = self._encoding.tensor(state.view(seat, legal=False), recall=True)
        if self._scale is not None:
            self._scale(observation)
        if state.to_move() == seat:
            # The legal numbers' bits, one byte each (`legal_bits`: no list of numbers).
            bits = self._table.legal_bits(state).to_bytes(self._mask_bytes, "little")
            mask = np.unpackbits(
                np.frombuffer(bits, dtype=np.uint8), count=len(self._table), bitorder="little"
            ).view(np.int8)
        else:
            mask = np.zeros(len(self._table), dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self.state_of_game
        seat = self.possible_agents.index(agent)
        state.apply(self._table.action(action), seat=seat)
        self._moves += 1
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        outcome = state.outcome()
        if outcome is not None:
            for s, value in enumerate(place_returns(outcome.places)):
                self.rewards[self._agent_of(s)] = value
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._max_moves is not None and self._moves >= self._max_moves:
            places = MATERIALS[self._game].places_now(state)
            for s, value in enumerate(place_returns(places)):
                self.rewards[self._agent_of(s)] = value
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            mover = state.to_move()
            assert mover is not None
            self.agent_selection = self._agent_of(mover)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # --- showing it -------------------------------------------------------------------------
    def render(self) -> str | None:
        if self.render_mode is None:
            gymnasium.logger.warn("render() needs a render_mode: 'ansi' or 'human'")
            return None
        text = self._encoding.observation_string(self.state_of_game.view(self._render_seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game lives in this process's memory."""


def raw_env(**kwargs: Any) -> EuphratesEnv:
    """The environment without PettingZoo's wrappers."""
    return EuphratesEnv(**kwargs)


def env(**kwargs: Any) -> Any:
    """The environment wrapped as PettingZoo's classic games are: actions checked to lie
    in the action space, and calls checked to come in a valid order."""
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**kwargs)))


__all__ = ["EuphratesEnv", "env", "raw_env"]

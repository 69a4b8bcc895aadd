"""Both games as OpenSpiel Python games (``pip install 'euphrates[openspiel]'``).

Importing this module registers them, as open_spiel/python/games/*.py do:

>>> import pyspiel
>>> import euphrates.adapters.openspiel
>>> game = pyspiel.load_game("python_euphrates_board", {"players": 3})

Parameters: `players` (2-4), the game's options (`advanced`, `open_scores` for the
board game; `open_piles` for the card game) and `max_moves`, the number of decisions
after which a game is cut off and scored as it stands (see below). Draws from the bag
or the deck are explicit chance nodes (`euphrates.adapters.chance`); actions are
numbered by `euphrates.adapters.tables`; the tensors and strings of a seat are written
from that seat's view only (`euphrates.adapters.board_encoding`, `cards_encoding`).

The game is zero-sum with returns by place (B-32, C-18): +1 for first alone, -1 for
last alone, evenly spaced between, tied seats sharing the values of the places they
cover (`tables.place_returns`). A game never needs to end by the rules if every seat
passes for ever (G-2), but OpenSpiel needs a bound on a game's length: at `max_moves`
decisions the game ends and is scored by the final scoring on the points so far.
The default is far above any game seen in random play (docs/adapters.md).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final

import numpy as np
import pyspiel

from euphrates.adapters.board_encoding import BoardEncoding
from euphrates.adapters.cards_encoding import CardsEncoding
from euphrates.adapters.chance import CHANCE, MATERIALS, MAX_MOVES, TERMINAL, Deal
from euphrates.adapters.encoding import Array, Encoding, split
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import View
from euphrates.games import GAMES

BOARD_NAME: Final = "python_euphrates_board"
CARDS_NAME: Final = "python_euphrates_cards"
OPTIONS: Final = {name: dict(definition.options) for name, definition in GAMES.items()}


def _game_type(game: str, short_name: str) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Python {GAMES[game].title} (euphrates)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": 2, **OPTIONS[game], "max_moves": MAX_MOVES[game]},
    )


def _parameters(game: str, params: dict[str, Any] | None) -> tuple[int, dict[str, bool], int]:
    """The parameters read exactly: 3.0 players or an option 1 are refused, not coerced."""
    given = dict(params or {})
    known = {"players", "max_moves", *OPTIONS[game]}
    unknown = sorted(set(given) - known)
    if unknown:
        raise ArgumentError(
            f"unknown {game} parameter {unknown[0]!r}; parameters are {', '.join(sorted(known))}"
        )
    players = given.get("players", 2)
    if type(players) is not int or not 2 <= players <= 4:
        raise ArgumentError(f"players must be an integer from 2 to 4, not {players!r}")
    options: dict[str, bool] = {}
    for name, default in OPTIONS[game].items():
        value = given.get(name, default)
        if type(value) is not bool:
            raise ArgumentError(f"{name} must be true or false, not {value!r}")
        options[name] = value
    max_moves = given.get("max_moves", MAX_MOVES[game])
    if type(max_moves) is not int or max_moves < 1:
        raise ArgumentError(f"max_moves must be a positive integer, not {max_moves!r}")
    return players, options, max_moves


class Observer:
    """OpenSpiel's Python observer (open_spiel/python/observation.py): writes a seat's
    view into `tensor` (whose named parts are `dict`) or into a string.

    Perfect recall asks for the information state (the view with its public record,
    `encoding.Encoding`), otherwise the observation. Private information of a single
    player is that seat's view; none is a spectator's view (`view(None)`); every
    player's private information at once is no view any seat has, so it is refused."""

    def __init__(self, encoding: Encoding, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ArgumentError(f"observation parameters are not supported: {params!r}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ArgumentError("no observation shows every seat's hidden tiles or cards (G-3)")
        if not iig_obs_type.public_info:
            raise ArgumentError("an observation without the public information is not supported")
        self._encoding = encoding
        self._recall = bool(iig_obs_type.perfect_recall)
        self._spectator = private == pyspiel.PrivateInfoType.NONE
        self.tensor: Array = np.zeros(encoding.size(self._recall), dtype=np.float32)
        self.dict = split(self.tensor, encoding.pieces(self._recall))

    def _view(self, state: EuphratesState, player: int) -> View:
        return state.view_of(None if self._spectator else player, legal=False)

    def set_from(self, state: EuphratesState, player: int) -> None:
        self._encoding.encode(self._view(state, player), self.tensor, self._recall)

    def string_from(self, state: EuphratesState, player: int) -> str:
        view = self._view(state, player)
        if self._recall:
            return self._encoding.information_string(view)
        return self._encoding.observation_string(view)


class EuphratesGame(pyspiel.Game):  # type: ignore[misc]
    """One of the two games with its parameters; `new_initial_state` starts at the
    chance node that picks the first player."""

    NAME: ClassVar[str]
    SHORT_NAME: ClassVar[str]
    ENCODING: ClassVar[Encoding]
    GAME_TYPE: ClassVar[Any]

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        players, options, max_moves = _parameters(self.NAME, params)
        material = MATERIALS[self.NAME]
        info = pyspiel.GameInfo(
            num_distinct_actions=len(material.table),
            max_chance_outcomes=4,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_moves,
        )
        super().__init__(self.GAME_TYPE, info, dict(params or {}))
        self.material = material
        self.start = Deal.start(self.NAME, players, options, max_moves)
        self._chance_nodes = 1 + len(material.undealt(players, options)[1])

    def new_initial_state(self) -> EuphratesState:
        return EuphratesState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(
            self.ENCODING, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )

    def max_chance_nodes_in_history(self) -> int:
        """The first player, then every tile or card of the bag or deck once."""
        return self._chance_nodes


class BoardGame(EuphratesGame):
    NAME = "board"
    SHORT_NAME = BOARD_NAME
    ENCODING = BoardEncoding()
    GAME_TYPE = _game_type("board", BOARD_NAME)


class CardsGame(EuphratesGame):
    NAME = "cards"
    SHORT_NAME = CARDS_NAME
    ENCODING = CardsEncoding()
    GAME_TYPE = _game_type("cards", CARDS_NAME)


class EuphratesState(pyspiel.State):  # type: ignore[misc]
    """A game in progress. Everything lives in one `Deal` (`_deal`), which copies
    itself cheaply: OpenSpiel clones a Python state by deep-copying its attributes."""

    def __init__(self, game: EuphratesGame) -> None:
        super().__init__(game)
        self._deal = game.start.copy()

    def view_of(self, seat: int | None, *, legal: bool = True) -> View:
        """The engine's view of `seat`: all the observers ever read (without the legal
        texts, which OpenSpiel numbers instead)."""
        return self._deal.view(seat, legal=legal)

    def current_player(self) -> int:
        return self._deal.current()

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._deal.current():
            return []
        return self._deal.legal_ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._deal.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._deal.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return self._deal.chance_text(int(action))
        table = self._deal.material.table
        table.action(action)  # an ArgumentError for a number outside the table
        return str(table.texts[int(action)])

    def is_terminal(self) -> bool:
        return self._deal.is_terminal()

    def returns(self) -> list[float]:
        return self._deal.returns()

    def rewards(self) -> list[float]:
        """All of a game's reward comes at its end (RewardModel.TERMINAL)."""
        return self._deal.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> EuphratesState:
        """A state `player_id` cannot tell from this one: everything the seat cannot see
        dealt anew (`Deal.resample`), drawn with `probability_sampler` (a callable
        giving floats in [0, 1), as `pyspiel.UniformProbabilitySampler`). Information-set
        search (`open_spiel.python.algorithms.ismcts`) calls this."""
        seed = 0
        for _ in range(4):
            seed = seed << 16 | int(probability_sampler() * 65536) & 0xFFFF
        state: EuphratesState = self.clone()
        state._deal = self._deal.resample(player_id, seed)
        return state

    def __str__(self) -> str:
        return str(self._deal)


SPIEL_GAMES: Final[dict[str, type[EuphratesGame]]] = {
    cls.NAME: cls for cls in (BoardGame, CardsGame)
}
"""The OpenSpiel game of each of ours, by our name (its `SHORT_NAME` is OpenSpiel's)."""


def _register() -> None:
    names = {game.short_name for game in pyspiel.registered_games()}
    for cls in SPIEL_GAMES.values():
        if cls.SHORT_NAME not in names:
            pyspiel.register_game(cls.GAME_TYPE, cls)


_register()

__all__ = [
    "BOARD_NAME",
    "CARDS_NAME",
    "SPIEL_GAMES",
    "TERMINAL",
    "BoardGame",
    "CardsGame",
    "EuphratesGame",
    "EuphratesState",
    "Observer",
]

"""Both games as OpenSpiel Python games (adapters/openspiel.py), checked by OpenSpiel's
own tests for Python games (`pyspiel.random_sim_test`, serialization and pickling as
open_spiel/python/games/*_test.py do) and by one of its algorithms, ISMCTS, played to
the end of a game."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

from tests.adapters.extras import need

pyspiel = need("pyspiel", "openspiel")
need("numpy", "openspiel")

import numpy as np  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import euphrates.adapters.openspiel as adapter  # noqa: E402
from euphrates.adapters.chance import MAX_MOVES  # noqa: E402
from euphrates.adapters.tables import BOARD_TABLE, CARDS_TABLE, place_returns  # noqa: E402
from euphrates.board import BOARD  # noqa: E402
from euphrates.cards import CARDS  # noqa: E402
from euphrates.core.errors import ArgumentError  # noqa: E402
from euphrates.core.rng import Rng  # noqa: E402

BOARD_NAME, CARDS_NAME = adapter.BOARD_NAME, adapter.CARDS_NAME


def _play(state: Any, rng: np.random.RandomState, decisions: int) -> Any:
    """Play chance by its probabilities and seats uniformly for `decisions` decisions,
    then on to the next decision (or the end)."""
    done = 0
    while not state.is_terminal():
        if state.is_chance_node():
            numbers, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(numbers, p=probs)))
        elif done < decisions:
            state.apply_action(int(rng.choice(state.legal_actions())))
            done += 1
        else:
            break
    return state


@pytest.mark.parametrize(
    ("name", "params"),
    [
        (BOARD_NAME, {"players": 2, "advanced": True}),
        (BOARD_NAME, {"players": 4, "open_scores": True}),
        (CARDS_NAME, {"players": 2, "max_moves": 600}),
        (CARDS_NAME, {"players": 3, "open_piles": True}),
    ],
)
def test_openspiel_random_simulation(name: str, params: dict[str, Any]) -> None:
    """OpenSpiel's standard check of a game's API, with serialization: legal actions
    sorted and unique in text, chance outcomes, clones, observations and information
    states of every seat at every decision, returns within bounds and zero-sum."""
    game = pyspiel.load_game(name, params)
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_games_are_registered_with_their_parameters() -> None:
    game = pyspiel.load_game(BOARD_NAME, {"players": 3, "advanced": True})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == len(BOARD_TABLE)
    assert game.max_chance_outcomes() == 4
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert game.max_game_length() == MAX_MOVES["board"]
    assert game.information_state_tensor_size() == 5648
    assert game.observation_tensor_size() == 5632
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.utility == pyspiel.GameType.Utility.ZERO_SUM
    cards = pyspiel.load_game(CARDS_NAME, {"players": 4, "open_piles": True, "max_moves": 99})
    assert cards.num_distinct_actions() == len(CARDS_TABLE)
    assert cards.max_game_length() == 99
    assert cards.information_state_tensor_size() == 2277


@pytest.mark.parametrize(
    "params",
    [{"players": 5}, {"players": 2.0}, {"advanced": 1}, {"max_moves": 0}, {"colour": "red"}],
)
def test_bad_parameters_are_refused_by_name(params: dict[str, Any]) -> None:
    name = next(iter(params))
    with pytest.raises((ArgumentError, pyspiel.SpielError, RuntimeError, TypeError), match=name):
        adapter.BoardGame(params)


def test_pickling_and_serialization_round_trip() -> None:
    """As open_spiel/python/games/tic_tac_toe_test.py checks its own game."""
    for name in (BOARD_NAME, CARDS_NAME):
        game = pyspiel.load_game(name, {"players": 3})
        assert str(pickle.loads(pickle.dumps(game))) == str(game)
        assert pickle.loads(pickle.dumps(game.get_type())) == game.get_type()
        state = _play(game.new_initial_state(), np.random.RandomState(1), 25)
        new_game, new_state = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, state)
        )
        assert str(new_game) == str(game)
        assert str(new_state) == str(state)
        assert new_state.history() == state.history()
        unpickled = pickle.loads(pickle.dumps(state))
        assert str(unpickled) == str(state)
        clone = state.clone()
        _play(clone, np.random.RandomState(2), 5)
        assert str(unpickled) == str(state) != str(clone)
        twin = state.resample_from_infostate(state.current_player(), _sampler())
        _, new_twin = pyspiel.deserialize_game_and_state(
            pyspiel.serialize_game_and_state(game, twin)
        )
        assert str(new_twin) == str(twin) != str(state)


def test_chance_nodes_list_the_unseen_colours() -> None:
    game = pyspiel.load_game(BOARD_NAME, {"players": 2})
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "first player: seat 1"
    state.apply_action(1)
    outcomes = dict(state.chance_outcomes())
    assert outcomes == pytest.approx({0: 47 / 143, 1: 36 / 143, 2: 30 / 143, 3: 30 / 143})
    assert state.legal_actions() == [0, 1, 2, 3]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "next tile: red"
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 1
    assert state.action_to_string(1, 1797) == "pass"


def test_a_game_cut_off_is_terminal_and_scored_by_place() -> None:
    game = pyspiel.load_game(CARDS_NAME, {"players": 3, "max_moves": 30})
    state = _play(game.new_initial_state(), np.random.RandomState(3), 10_000)
    assert state.is_terminal()
    assert len([a for a in state.full_history() if a.player >= 0]) == 30
    assert state.returns() == pytest.approx(list(place_returns(state._deal.places())))
    assert state.rewards() == state.returns()
    assert state.legal_actions() == []


def _sampler() -> Any:
    return pyspiel.UniformProbabilitySampler(0.0, 1.0)


@pytest.mark.parametrize(("name", "players"), [(BOARD_NAME, 3), (CARDS_NAME, 2)])
def test_a_seat_observes_nothing_it_may_not_see(name: str, players: int) -> None:
    """A state resampled from a seat's information state (everything the seat cannot
    see dealt anew) and one sampled by the engine from the seat's view show that seat
    the same observation and information state, tensors and strings; other seats
    are shown something else, so the twins do differ where the seat cannot look."""
    game = pyspiel.load_game(name, {"players": players})
    definition: Any = BOARD if name == BOARD_NAME else CARDS
    rng = np.random.RandomState(7)
    state = game.new_initial_state()
    differed = checked = 0
    for _ in range(12):
        _play(state, rng, 9 if name == BOARD_NAME else 40)
        if state.is_terminal():
            break
        for seat in range(players):
            sampled = state.clone()
            sampled._deal.engine = definition.sample_from_view(state.view_of(seat), Rng(seat))
            for twin in (state.resample_from_infostate(seat, _sampler()), sampled):
                assert str(twin) != str(state)
                assert twin.current_player() == state.current_player()
                assert twin.observation_string(seat) == state.observation_string(seat)
                assert twin.information_state_string(seat) == state.information_state_string(seat)
                assert twin.observation_tensor(seat) == state.observation_tensor(seat)
                assert twin.information_state_tensor(seat) == state.information_state_tensor(seat)
                other = (seat + 1) % players
                differed += twin.information_state_tensor(other) != state.information_state_tensor(
                    other
                )
                checked += 1
    assert checked >= 20 and differed > checked // 2


def test_observers_for_a_spectator_and_their_limits() -> None:
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(BOARD_NAME, {"players": 2})
    state = _play(game.new_initial_state(), np.random.RandomState(4), 6)
    public = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    observation = make_observation(game, public)
    observation.set_from(state, 0)
    spectator = observation.tensor.copy()
    observation.set_from(state, 1)
    assert np.array_equal(spectator, observation.tensor)
    assert "hand 6 tiles" in observation.string_from(state, 0)
    assert set(observation.dict) == {"board", "seats", "game"}
    every = pyspiel.IIGObservationType(
        public_info=True, perfect_recall=False, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ArgumentError, match="G-3"):
        game.make_py_observer(every)


def test_ismcts_plays_a_whole_game() -> None:
    """OpenSpiel's information-set MCTS, with a small budget and short random rollouts,
    plays seat 0 of a two-player board game to its end against random play; it draws
    its worlds with `resample_from_infostate`."""
    game = pyspiel.load_game(BOARD_NAME, {"players": 2})
    rng = np.random.RandomState(11)
    bot = ismcts.ISMCTSBot(
        game=game,
        evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng, max_length=8),
        uct_c=2.0,
        max_simulations=3,
        random_state=np.random.RandomState(12),
    )
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            numbers, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(numbers, p=probs)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert state._deal.engine.is_over()
    assert decisions > 20
    assert sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])

"""Both games as PettingZoo AEC environments (adapters/pettingzoo.py), checked by
PettingZoo's own tests (`api_test`, `seed_test`) and by what they leave out: rewards by
place at the end, truncation, masks that are exactly the legal actions, rendering, and
observations that show an agent nothing its seat may not see."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from tests.adapters.extras import need

need("pettingzoo", "pettingzoo")
need("numpy", "pettingzoo")

import numpy as np  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402

from euphrates.adapters.chance import MATERIALS, MAX_MOVES  # noqa: E402
from euphrates.adapters.pettingzoo import EuphratesEnv, env, raw_env  # noqa: E402
from euphrates.adapters.tables import place_returns, table_for  # noqa: E402
from euphrates.board import BOARD  # noqa: E402
from euphrates.board.state import BoardState  # noqa: E402
from euphrates.core.errors import ArgumentError, IllegalActionError  # noqa: E402
from euphrates.core.rng import Rng  # noqa: E402

BENIGN = (
    # A dict observation with an action mask is what PettingZoo's classic games use;
    # its checks still warn about it, for them as for us.
    "Observation space for each agent probably should be gymnasium.spaces.box",
    "Observation is not a NumPy array",
)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"game": "board", "players": 2},
        {"game": "board", "players": 4, "options": {"advanced": True}},
        {"game": "cards", "players": 3, "options": {"open_piles": True}},
        {"game": "cards", "players": 2, "scaled": False},
    ],
)
def test_pettingzoo_api(kwargs: dict[str, Any]) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(**kwargs), num_cycles=400)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(BENIGN)}
    assert not unexpected


@pytest.mark.parametrize("game", ["board", "cards"])
def test_pettingzoo_seeds(game: str) -> None:
    seed_test(lambda: env(game=game, players=3), num_cycles=60)


def _play(e: Any, seed: int, rng: np.random.Generator) -> list[Any]:
    """A whole game with uniform legal actions; the agents in the order they acted."""
    e.reset(seed=seed)
    order = []
    for agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        order.append((agent, obs["observation"].sum()))
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    return order


def test_a_seed_fixes_the_game() -> None:
    a, b = env(game="board", players=3), env(game="board", players=3)
    assert _play(a, 5, np.random.default_rng(1)) == _play(b, 5, np.random.default_rng(1))
    a.reset(seed=6)
    b.reset(seed=7)
    assert not np.array_equal(
        a.observe("player_0")["observation"], b.observe("player_0")["observation"]
    )
    a.reset(seed=6)
    a.reset()
    b.reset(seed=6)
    b.reset()  # the games after a seed follow from it
    assert np.array_equal(
        a.observe("player_1")["observation"], b.observe("player_1")["observation"]
    )


def test_a_finished_game_pays_by_place() -> None:
    e = raw_env(game="board", players=3)
    e.reset(seed=3)
    rng = np.random.default_rng(3)
    paid: dict[str, float] = {}
    while e.agents:
        agent = e.agent_selection
        obs, reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            assert terminated and not truncated
            paid[agent] = reward
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    outcome = e.state_of_game.outcome()
    assert outcome is not None
    expected = place_returns(outcome.places)
    assert paid == {f"player_{s}": expected[s] for s in range(3)}


def test_a_cut_off_game_is_scored_by_the_rules() -> None:
    """At `max_moves` every agent is truncated and paid by the places the final scoring
    gives on the points so far, as OpenSpiel pays (chance.places_now): stalling is
    worth no more than the position."""
    rng = np.random.default_rng(5)
    for seed in range(1, 40):
        e = raw_env(game="board", players=2, max_moves=120)
        e.reset(seed=seed)
        moves = 0
        while not any(e.truncations.values()) and not any(e.terminations.values()):
            obs = e.observe(e.agent_selection)
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            moves += 1
        if any(e.terminations.values()):
            continue  # pragma: no cover - ended by the rules first
        assert moves == 120
        assert all(e.truncations.values()) and not any(e.terminations.values())
        places = MATERIALS["board"].places_now(e.state_of_game)
        expected = place_returns(places)
        paid = {a: e._cumulative_rewards[a] for a in e.agents}
        assert paid == {f"player_{s}": expected[s] for s in range(2)}
        if len(set(places)) > 1:  # someone leads: the cut-off does not pay a draw
            assert sorted(paid.values()) == [-1.0, 1.0]
            return
    raise AssertionError("no cut-off game with a leader")  # pragma: no cover


def test_the_default_limit_is_openspiel_s_and_none_removes_it() -> None:
    assert raw_env(game="board")._max_moves == MAX_MOVES["board"] == 5_000
    assert raw_env(game="cards")._max_moves == MAX_MOVES["cards"] == 50_000
    assert raw_env(game="cards", max_moves=None)._max_moves is None
    with pytest.raises(ArgumentError, match="max_moves"):
        raw_env(game="cards", max_moves="forever")


@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_default_limit_is_above_every_game_played_out(game: str) -> None:
    """Random play (the longest games: nobody plays to end them) ends far below it."""
    from euphrates.adapters.bench import zoo_random_game

    e = raw_env(game=game, players=4)
    for seed in range(3):
        moves = zoo_random_game(e, seed)
        assert e.state_of_game.is_over() and moves < MAX_MOVES[game] // 4


@pytest.mark.parametrize("game", ["board", "cards"])
@pytest.mark.parametrize("scaled", [True, False])
def test_observations_lie_within_their_box(game: str, scaled: bool) -> None:
    e = raw_env(game=game, players=3, scaled=scaled)
    space: Any = e.observation_space("player_0")["observation"]  # type: ignore[index]
    if scaled:
        assert float(space.high.max()) == 1.0 and float(space.low.min()) == 0.0
    else:
        assert float(space.high.max()) > 1000  # the raw counts' bounds
    rng = np.random.default_rng(4)
    e.reset(seed=4)
    seen = np.zeros(space.shape, dtype=bool)
    for _agent in e.agent_iter(max_iter=600):
        obs, _, terminated, truncated, _ = e.last()
        for other in e.agents:
            o = e.observe(other)["observation"]
            assert space.contains(o)
            seen |= o > 0
        if terminated or truncated:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    raw = raw_env(game=game, players=3, scaled=False)
    raw.reset(seed=4)
    scaled_env = raw_env(game=game, players=3)
    scaled_env.reset(seed=4)
    a = raw.observe("player_1")["observation"]
    b = scaled_env.observe("player_1")["observation"]
    assert np.array_equal(a > 0, b > 0)  # scaling keeps zero and nonzero apart
    assert seen.sum() > 50


def test_the_mask_is_the_legal_actions_of_the_seat_to_move() -> None:
    e = raw_env(game="cards", players=3)
    e.reset(seed=2)
    table = table_for("cards")
    rng = np.random.default_rng(2)
    for _ in range(200):
        state = e.state_of_game
        seat = state.to_move()
        for s, agent in enumerate(e.possible_agents):
            mask = e.observe(agent)["action_mask"]
            if s == seat:
                assert {table.texts[i] for i in np.flatnonzero(mask)} == set(state.legal_texts())
            else:
                assert not mask.any()
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))


def _board(e: EuphratesEnv) -> BoardState:
    state = e.state_of_game
    assert isinstance(state, BoardState)
    return state


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    e = raw_env(game="board", players=2)
    e.reset(seed=4)
    agent = e.agent_selection
    mask = e.observe(agent)["action_mask"]
    before = BOARD.to_position(_board(e))
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalActionError):
        e.step(illegal)
    with pytest.raises(ArgumentError):
        e.step(len(mask))
    assert BOARD.to_position(_board(e)) == before
    assert e.agent_selection == agent
    with pytest.raises(AssertionError):
        wrapped = env(game="board", players=2)
        wrapped.reset(seed=4)
        wrapped.step(len(mask))  # PettingZoo's wrapper checks the action space first


def test_observations_show_an_agent_nothing_its_seat_may_not_see() -> None:
    """The environment observed on a twin of its game, in which the engine has dealt
    anew all that one seat cannot see: that seat's agent is shown the same vector."""
    e = raw_env(game="board", players=3)
    e.reset(seed=8)
    rng = np.random.default_rng(8)
    changed = 0
    for _ in range(30):
        state = e.state_of_game
        for s, agent in enumerate(e.possible_agents):
            neighbour = e.possible_agents[(s + 1) % 3]
            shown, others = e.observe(agent), e.observe(neighbour)
            twin = state.copy()
            twin.redeal(s, Rng(int(rng.integers(1 << 62))))
            e._state = twin
            assert np.array_equal(e.observe(agent)["observation"], shown["observation"])
            assert np.array_equal(e.observe(agent)["action_mask"], shown["action_mask"])
            changed += not np.array_equal(
                e.observe(neighbour)["observation"], others["observation"]
            )
            e._state = state
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert changed > 30


def test_rendering_is_the_engine_s_drawing_of_a_view(capsys: pytest.CaptureFixture[str]) -> None:
    e = raw_env(game="board", players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text == BOARD.render(_board(e), None)
    assert text is not None and "hand 6 tiles" in text
    mine = raw_env(game="board", players=2, render_mode="ansi", render_seat=0)
    mine.reset(seed=1)
    assert "seat 0 (you)" in (mine.render() or "")
    shown = raw_env(game="cards", players=2, render_mode="human")
    shown.reset(seed=1)
    shown.render()
    assert "seat 0" in capsys.readouterr().out
    quiet = raw_env(game="cards", players=2)
    quiet.reset(seed=1)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"players": 5}, "players"),
        ({"options": {"advanced": "yes"}}, "advanced"),
        ({"game": "cards", "options": {"advanced": True}}, "advanced"),
        ({"render_mode": "rgb_array"}, "render_mode"),
        ({"max_moves": 0}, "max_moves"),
        ({"render_seat": 2}, "render_seat"),
    ],
)
def test_bad_arguments_are_refused_by_name(kwargs: dict[str, Any], match: str) -> None:
    with pytest.raises(ArgumentError, match=match):
        EuphratesEnv(**kwargs)

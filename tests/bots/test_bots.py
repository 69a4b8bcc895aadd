"""The bots: legal choices, reproducible with a seed, greedy stronger than random,
levels by name."""

from __future__ import annotations

import pytest

from euphrates.bots import LEVELS, GreedyBot, MctsBot, RandomBot, make_bot
from euphrates.bots.beginner import SoftmaxBot
from euphrates.bots.levels import timeout_for
from euphrates.bots.rollout import RolloutBot
from euphrates.games import GAMES, game_definition
from euphrates.match.play import play_game
from euphrates.match.records import replay

GAME_NAMES = sorted(GAMES)


@pytest.mark.parametrize("name", GAME_NAMES)
def test_greedy_beats_random(name: str) -> None:
    wins = 0
    for g in range(4):
        bots = [GreedyBot(g), RandomBot(g)] if g % 2 == 0 else [RandomBot(g), GreedyBot(g)]
        played = play_game(name, bots, seed=300 + g)
        out = played.state.outcome()
        assert out is not None
        wins += out.places[g % 2] == 1 and out.places[1 - g % 2] == 2
    assert wins >= 3


@pytest.mark.parametrize("name", GAME_NAMES)
def test_mcts_plays_a_whole_game_legally_and_replayably(name: str) -> None:
    mcts = MctsBot(1, iterations=30)
    played = play_game(name, [mcts, GreedyBot(2), RandomBot(3)], seed=8)
    assert played.state.is_over()
    assert replay(played.record).outcome() == played.state.outcome()
    assert mcts.total_iterations > 0


@pytest.mark.parametrize("name", GAME_NAMES)
def test_mcts_with_an_iteration_budget_is_reproducible(name: str) -> None:
    definition = game_definition(name)
    state = definition.new_game(2, 4)
    view = state.view(state.decision().seat)
    a = MctsBot(5, iterations=80).choose(definition, view)
    b = MctsBot(5, iterations=80).choose(definition, view)
    assert a == b and a in view["legal"]


def test_levels_and_specs() -> None:
    assert set(LEVELS) == {"beginner", "intermediate", "strong", "expert"}
    beginner = make_bot("beginner")
    assert isinstance(beginner, SoftmaxBot) and beginner.describe() == "softmax:0.5"
    assert isinstance(make_bot("random"), RandomBot)
    assert make_bot("softmax:2").describe() == "softmax:2"
    assert isinstance(make_bot("intermediate"), GreedyBot)
    strong = make_bot("strong")
    assert strong.describe() == "search:1s"
    board_strong, cards_strong = make_bot("strong", 1, "board"), make_bot("strong", 1, "cards")
    assert isinstance(board_strong, MctsBot) and board_strong.seconds == 1.0
    assert isinstance(cards_strong, RolloutBot) and cards_strong.seconds == 1.0
    assert make_bot("expert", 1, "cards").describe() == "rollout:5s"
    assert make_bot("mcts:250ms").describe() == "mcts:0.25s"
    assert make_bot("mcts:500i").describe() == "mcts:500i"
    assert make_bot("rollout:200i").describe() == "rollout:200i"
    assert make_bot("rollout:200i:value", 1, "cards").describe() == "rollout:200i:value"
    for bad in (
        "mcts:fast",
        "wizard",
        "mcts:10x",
        "softmax:0",
        "softmax:nan",
        "softmax:x",
        "rollout:0i",
        "search:1h",
        "greedy:value",
        "search:1s:value",
    ):
        with pytest.raises(ValueError):
            make_bot(bad)


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("mcts:0i", "iterations must be a whole number from 1 to 1000000"),
        ("mcts:1.5i", "whole number"),
        ("mcts:1000001i", "from 1 to 1000000"),
        ("mcts:0s", "more than 0"),
        ("mcts:0ms", "more than 0"),
        ("mcts:0.0s", "more than 0"),
        ("mcts:601s", "at most 600 s"),
        ("mcts:-1s", "bad mcts budget '-1s'"),
    ],
)
def test_budgets_that_cannot_be_meant_are_refused(spec: str, words: str) -> None:
    """`mcts:0i` used to be accepted and fail at the bot's first move."""
    with pytest.raises(ValueError, match=words):
        make_bot(spec)


def test_the_smallest_budgets_still_decide() -> None:
    definition = game_definition("board")
    state = definition.new_game(2, 4)
    view = state.view(state.decision().seat)
    for spec in ("mcts:1i", "mcts:1ms"):
        assert make_bot(spec, 3).choose(definition, view) in view["legal"]


def test_hosts_wait_longer_for_bigger_budgets() -> None:
    assert timeout_for("greedy") == timeout_for("random") >= 30
    assert timeout_for("mcts:5s") > timeout_for("mcts:1s") > timeout_for("greedy")
    assert timeout_for("mcts:100000i") > timeout_for("mcts:100i")
    assert timeout_for("expert") == timeout_for("mcts:5s") == timeout_for("rollout:5s")
    # A rollout on the board costs far more than a tree search's iteration.
    assert timeout_for("rollout:100i") > timeout_for("mcts:100i")


def test_a_bot_refuses_a_view_without_its_decision() -> None:
    definition = game_definition("board")
    state = definition.new_game(2, 1)
    idle = 1 - state.decision().seat
    with pytest.raises(ValueError):
        RandomBot().choose(definition, state.view(idle))

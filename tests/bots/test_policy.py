"""The model of a card-game player's choices the reading may use (bots/policy.py):
its features, its file, and its log-probabilities checked against the greedy softmax
computed the reading's own way."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from euphrates.bots import GreedyBot, inference, policy
from euphrates.core.errors import ArgumentError
from euphrates.core.history import History, with_history
from euphrates.games import game_definition
from tests.bots.test_inference import _example

CARDS = game_definition("cards")


def _decisions(seed: int, n: int) -> list[Any]:
    """The states of a greedy duel at its first `n` decisions of more than one action."""
    state = CARDS.new_game(2, seed)
    bots = [GreedyBot(seed), GreedyBot(seed + 1)]
    out: list[Any] = []
    while not state.is_over() and len(out) < n:
        seat = state.to_move()
        if len(state.legal_actions()) > 1:
            out.append(state.copy())
        state.apply(state.parse_action(bots[seat].choose(CARDS, state.view(seat))))
    return out


def test_the_features_name_the_kind_of_action() -> None:
    values = {"P1.0": 0.5, "r2": 0.7, "x1.1": 0.1, "pass": 0.0}
    f = dict(zip(policy.FEATURES, policy.action_features("action", "r2", values), strict=True))
    assert f["judgement"] == 0.0 and f["card"] == 1.0 and f["red_card"] == 1.0
    f = dict(zip(policy.FEATURES, policy.action_features("action", "P1.0", values), strict=True))
    assert f["judgement"] == pytest.approx(-0.2) and f["leader"] == 1.0 and f["card"] == 0.0
    assert policy.action_features("action", "x1.1", values)[policy.FEATURES.index("bridge")] == 1
    assert policy.action_features("action", "pass", values)[policy.FEATURES.index("pass")] == 1
    commits = {"commit 0": 0.0, "commit 2": 0.3, "commit 4": 0.2}
    f = dict(
        zip(policy.FEATURES, policy.action_features("commit", "commit 2", commits), strict=True)
    )
    assert f["commit_share"] == 0.5 and f["judgement_commit"] == pytest.approx(0.0)
    assert f["commit_none"] == 0.0
    none = policy.action_features("commit", "commit 0", commits)
    assert none[policy.FEATURES.index("commit_none")] == 1.0
    assert none[policy.FEATURES.index("judgement_commit")] == pytest.approx(-0.3)
    points = {"point r": 0.1, "point none": 0.0}
    assert policy.action_features("point", "point r", points)[policy.FEATURES.index("take")] == 1
    assert policy.action_features("point", "point none", points)[-1] == 0.0


def test_a_model_of_the_judgement_alone_is_the_greedy_softmax() -> None:
    """Weights 1/tau on the judgement and nothing else: the reading's own softmax."""
    tau = 0.03
    model = policy.PolicyModel([1 / tau] + [0.0] * (len(policy.FEATURES) - 1))
    softmax = inference.Filter(0, [], tau, b"")
    for state in _decisions(6101, 12):
        seat = state.to_move()
        got = model.choice_logs(state, seat)
        want = softmax._choice_logs(state, seat)
        assert set(got) == set(want) == set(state.legal_texts())
        for a in got:
            assert got[a] == pytest.approx(want[a], abs=1e-9)
        assert sum(math.exp(v) for v in got.values()) == pytest.approx(1.0)


def test_the_shipped_model_loads_and_bad_files_are_refused() -> None:
    model = policy.shipped()
    assert len(model.weights) == len(policy.FEATURES)
    doc = model.to_json()
    assert policy.from_json(json.loads(json.dumps(doc))).weights == model.weights
    for bad in (
        None,
        {**doc, "format": 99},
        {**doc, "names": ["judgement"]},
        {**doc, "weights": ["x"] * len(policy.FEATURES)},
        {**doc, "weights": [math.inf] * len(policy.FEATURES)},
    ):
        with pytest.raises(ArgumentError):
            policy.from_json(bad)


def test_a_reading_under_the_model_shows_the_seat_its_view() -> None:
    state, history = CARDS.new_game(2, 6102), History()
    bots = [GreedyBot(1), GreedyBot(2)]
    while len(history) < 60:
        seat = state.to_move()
        history.play(state, bots[seat].choose(CARDS, state.view(seat)))
    me = state.to_move()
    inference._CACHE.clear()
    view = with_history(state.view(me), history)
    reading = inference.read(CARDS, view, 8, model=policy.shipped())
    assert reading is not None
    strip = ("version", "history")
    for s in reading.states:
        got = {k: v for k, v in s.view(me).items() if k not in strip}
        assert got == {k: v for k, v in state.view(me).items() if k not in strip}


def test_the_fit_on_greedy_play_finds_greedy_play(tmp_path: Path) -> None:
    """examples/opponent_model.py on four greedy duels: every choice recorded is the
    greedy judgement's best (the dump's judgement is the greedy bot's own, computed
    apart from it), so the fitted policy holds the judgement dear and predicts the
    held-out choices better than a lukewarm softmax of it."""
    dump = tmp_path / "greedy.jsonl"
    _example(
        "examples/opponent_model.py",
        *("dump", "--games", "4", "--seed", "6200", "--bot", "greedy", "--out", str(dump)),
    )
    model = tmp_path / "model.json"
    fit = _example(
        "examples/opponent_model.py",
        *("fit", str(dump), "--steps", "300", "--write", str(model)),
    )
    assert fit["greedy_best_choice"] == 1.0
    assert fit["test"] > 50 and fit["train"] > 3 * 50
    assert fit["policy"] > fit["greedy_softmax"]["0.3"]
    written = policy.from_json(json.loads(model.read_text()))
    assert written.weights[0] == pytest.approx(fit["weights"]["judgement"], abs=1e-3)
    assert written.weights[0] > 10  # a greedy player's temperature is under 0.1

"""Features from a seat's view only, the value model's inference, self-play's records
and features, and its continuation."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from euphrates.bots import judging
from euphrates.bots.features import NAMES, features
from euphrates.bots.value import ValueModel, parse
from euphrates.core.rng import Rng
from euphrates.games import GAMES, game_definition
from euphrates.match.records import GameRecord
from euphrates.match.review import render, review
from euphrates.match.selfplay import features_path, read_rows, run_selfplay


def _played(name: str, steps: int, seed: int = 3):  # type: ignore[no-untyped-def]
    state = game_definition(name).new_game(2, seed)
    rng = Rng(seed)
    for _ in range(steps):
        state.apply(state.random_action(rng))
    return state


@pytest.mark.parametrize("name", sorted(GAMES))
def test_features_do_not_change_when_the_hidden_information_differs(name: str) -> None:
    """Two states that differ in every hidden card or tile (other hands, deck or bag)
    but agree on seat 0's view give seat 0 the same features; seat 1, who sees its
    own hand, does see a difference in its view."""
    definition = game_definition(name)
    state = _played(name, 60)
    view = state.view(0)
    other = definition.sample_from_view(view, Rng(99))
    assert (
        other.view(1)["hand" if name == "cards" else "seats"]
        != state.view(1)["hand" if name == "cards" else "seats"]
    )
    assert features(other.view(0)) == features(view)
    assert len(features(view)) == len(NAMES)
    assert all(math.isfinite(f) for f in features(view))


def test_features_need_a_seat() -> None:
    with pytest.raises(ValueError):
        features(_played("cards", 10).view(None))


def test_inference_is_deterministic_and_a_logistic_of_the_features() -> None:
    weights = [0.1 * (i - 5) for i in range(len(NAMES))]
    model = ValueModel("cards", weights)
    view = _played("cards", 80).view(0)
    x = features(view)
    expected = 1 / (1 + math.exp(-sum(w * f for w, f in zip(weights, x, strict=True))))
    assert model.chance(view) == model.chance(view) == pytest.approx(expected)
    again = parse(json.dumps(model.to_json()), "cards")
    assert again.chance(view) == model.chance(view)
    both = model.chances([view, _played("cards", 80).view(1)])
    assert sum(both) == pytest.approx(1.0)
    with pytest.raises(ValueError):
        parse(json.dumps({**model.to_json(), "names": ["bias"]}), "cards")


def test_selfplay_writes_features_per_decision_and_continues(tmp_path: Path) -> None:
    out = str(tmp_path / "sp")
    first = run_selfplay("cards", 2, ["greedy"], 1, out, seed=5)
    assert len(first) == 1
    doc = json.loads(features_path(out, 0).read_text())
    record = json.loads(Path(first[0].record_path or "").read_text())
    assert len(doc["rows"]) == len(record["actions"])
    assert sorted(doc["outcome"]) == [0.0, 1.0]
    stamp = features_path(out, 0).stat().st_mtime_ns
    features_path(out, 0).rename(tmp_path / "kept.json")
    second = run_selfplay("cards", 2, ["greedy"], 2, out, seed=5)
    assert [r.index for r in second] == [0, 1]
    assert len((tmp_path / "sp" / "results.jsonl").read_text().splitlines()) == 2
    # game 0 was not played again; its lost features file was written again, the same
    assert (tmp_path / "kept.json").read_text() == features_path(out, 0).read_text()
    assert stamp <= features_path(out, 0).stat().st_mtime_ns
    xs, ys, games = read_rows([out])
    assert games == 2 and len(xs) == len(ys) and set(ys) <= {0.0, 0.5, 1.0}


def test_the_shipped_model_loads_and_the_review_has_one_entry_per_move() -> None:
    state = _played("cards", 0, seed=8)
    rng = Rng(8)
    actions = []
    for _ in range(24):
        action = state.random_action(rng)
        actions.append(str(action))
        state.apply(action)
    record = GameRecord("cards", 2, 8, {}, [], actions)
    doc = review(record, "quick")
    assert doc == json.loads(json.dumps(doc))  # JSON, as a server stores it
    assert [m["index"] for m in doc["moves"]] == list(range(24))
    assert [m["action"] for m in doc["moves"]] == actions
    for m in doc["moves"]:
        assert 0 <= m["before"] <= 1 and 0 <= m["after"] <= 1
        assert m["best"] is None or m["best"]["after"] > m["after"]
    assert any(m["best"] is not None for m in doc["moves"])  # random play loses chances
    # seeded: the same rows again, of a record's beginning too
    again = review(GameRecord("cards", 2, 8, {}, [], actions[:6]), "quick")
    assert again["moves"] == doc["moves"][:6]
    assert "seat 0" in render(doc)


@pytest.mark.parametrize("shipped", [True, False], ids=["model", "no-model"])
def test_the_board_review_uses_its_model_or_else_the_evaluations_chance(
    shipped: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    """The board's shipped model judges its review; where a game has no model (none in
    the models folder), the evaluation's chance does, and the review says which."""
    if not shipped:
        monkeypatch.setattr(judging, "MODELS", tmp_path)
        # the judge is cached per game: none cached from before, none left for after
        judging.judge_for.cache_clear()
        request.addfinalizer(judging.judge_for.cache_clear)
    state = _played("board", 0, seed=4)
    rng = Rng(4)
    actions = []
    for _ in range(10):
        action = state.random_action(rng)
        actions.append(str(action))
        state.apply(action)
    record = GameRecord("board", 2, 4, {}, [], actions)
    doc = review(record, "quick")
    assert doc["estimate"] == ("model" if shipped else "evaluation")
    assert [m["action"] for m in doc["moves"]] == actions
    for m in doc["moves"]:
        assert 0 <= m["before"] <= 1 and 0 <= m["after"] <= 1
        assert m["best"] is None or m["best"]["after"] > m["after"]
    assert (
        review(GameRecord("board", 2, 4, {}, [], actions[:3]), "quick")["moves"] == doc["moves"][:3]
    )
    assert ("value model" if shipped else "evaluation") in render(doc).splitlines()[0]

"""The card game's reading of the table (bots.inference): imagined games weighted by the
other players' decisions, read from the seat's public history and view alone.

What a search deals its worlds from must be a state the seat could be in: every
imagined state shows exactly the seat's real view. A reading is a function of the view
and the history (the cache of a worker changes nothing), and a history that is not the
view's game gives none, so that the search deals at random as without one."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from euphrates.bots import GreedyBot, inference, judging, policy
from euphrates.bots.levels import make_bot, reads_history, timeout_for
from euphrates.core.errors import ArgumentError
from euphrates.core.history import HISTORY_KEY, History, with_history, without_history
from euphrates.games import game_definition

CARDS = game_definition("cards")


def _game(seed: int, stops: int, me: int = 0) -> list[tuple[Any, dict[str, Any]]]:
    """A greedy duel dealt from `seed`; at the first `stops` turns of `me` after the
    other player's, the true state and `me`'s view with its history."""
    state, history = CARDS.new_game(2, seed), History()
    bots = [GreedyBot(seed), GreedyBot(seed + 1)]
    out: list[tuple[Any, dict[str, Any]]] = []
    before = None
    while not state.is_over() and len(out) < stops:
        seat = state.to_move()
        view = state.view(seat)
        decision = state.decision()
        turn = seat == me and before not in (None, me) and decision.kind == "action"
        if turn and len(history) > 40:
            out.append((state.copy(), with_history(view, history)))
        history.play(state, bots[seat].choose(CARDS, view))
        before = seat
    return out


def _without(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k not in ("version", HISTORY_KEY)}


def _fingerprint(reading: inference.Reading) -> list[Any]:
    return [
        (round(w, 12), s.hands, s.deck, s.removed, s.gaps)
        for s, w in zip(reading.states, reading.weights, strict=True)
    ]


def test_every_imagined_state_shows_the_seat_its_own_view() -> None:
    inference._CACHE.clear()
    read = 0
    for seed, me in ((4101, 1), (4102, 0)):
        for truth, view in _game(seed, 4, me):
            reading = inference.read(CARDS, view)
            assert reading is not None, f"game {seed}: no imagined game agrees with the view"
            assert 0 < len(reading.states) <= inference.PARTICLES
            assert sum(reading.weights) == pytest.approx(1.0)
            for state in reading.states:
                assert _without(state.view(me)) == _without(truth.view(me))
                assert state.hands[me] == truth.hands[me]
            # the search's worlds: the hands the reading's, the deck shuffled anew
            world = reading.world(inference._rng(b"w"))
            assert _without(world.view(me)) == _without(truth.view(me))
            read += 1
    assert read == 8


def test_a_reading_is_the_same_from_the_cache_and_from_the_deal() -> None:
    stops = _game(4103, 3)
    inference._CACHE.clear()
    for _, view in stops:
        cached = inference.read(CARDS, view)  # each starts from the one before
    inference._CACHE.clear()
    fresh = inference.read(CARDS, stops[-1][1])
    assert cached is not None and fresh is not None
    assert _fingerprint(cached) == _fingerprint(fresh)


def test_a_history_that_is_not_the_views_gives_no_reading() -> None:
    inference._CACHE.clear()
    _, view = _game(4104, 1)[0]
    history = view[HISTORY_KEY]
    assert inference.read(CARDS, {**view, HISTORY_KEY: history[:-6]}) is None
    assert inference.read(CARDS, {**view, HISTORY_KEY: history[:20] + history[21:]}) is None
    mine = next(i for i, e in enumerate(history) if e["seat"] == view["viewer"])
    wrong = {**history[mine], "action": "pass"}
    assert (
        inference.read(CARDS, {**view, HISTORY_KEY: [*history[:mine], wrong, *history[mine + 1 :]]})
        is None
    )
    assert inference.read(CARDS, {**view, HISTORY_KEY: [{"seat": 0}]}) is None
    assert inference.read(CARDS, without_history(view)) is None
    # the policy model is fitted to the card game's play: the board is not read by it
    board = game_definition("board")
    start = with_history(board.new_game(2, 1).view(0), History())
    assert inference.read(board, start) is not None
    assert inference.read(board, start, model=policy.shipped()) is None


def test_the_rollout_search_reads_when_its_spec_says() -> None:
    inference._CACHE.clear()
    _, view = _game(4105, 1)[0]
    bot = make_bot("rollout:16i:read", 3)
    assert bot.describe() == "rollout:16i:read" and bot.reads_history
    assert bot.choose(CARDS, view) in view["legal"]
    assert 0 < getattr(bot, "last_reading", 0) <= inference.PARTICLES
    # without its history the view is read as before: worlds dealt at random
    plain = without_history(view)
    assert bot.choose(CARDS, plain) in view["legal"] and getattr(bot, "last_reading", 1) == 0
    again = make_bot("rollout:16i:read", 3)
    assert again.choose(CARDS, view) == make_bot("rollout:16i:read", 3).choose(CARDS, view)


def test_read_is_a_rollout_part_and_its_host_waits_for_it() -> None:
    assert reads_history("rollout:1s:read") and not reads_history("rollout:1s")
    assert make_bot("rollout:40i:value:read").describe() == "rollout:40i:value:read"
    assert timeout_for("rollout:40i:read") > timeout_for("rollout:40i")
    with pytest.raises(ArgumentError, match="only a rollout or mcts search or a hint reads"):
        make_bot("greedy:read")
    assert make_bot("mcts:40i:read").describe() == "mcts:40i:read"
    assert reads_history("mcts:40i:read", "board") and reads_history("mcts:40i:read", "cards")
    # a hint reads the card game's table only (its judgements: bots/judging.py)
    assert reads_history("hint:1s:read", "cards") and not reads_history("hint:1s:read", "board")
    assert make_bot("rollout:40i:read=policy").describe() == "rollout:40i:read=policy"
    assert reads_history("rollout:1s:read=policy", "cards")
    assert not reads_history("rollout:1s:read=policy", "board")
    with pytest.raises(ArgumentError, match="read=policy"):
        make_bot("rollout:40i:read=deep")
    with pytest.raises(ArgumentError, match="only a rollout search reads by the policy"):
        make_bot("hint:1s:read=policy")


def test_the_search_reads_by_the_policy_when_its_spec_says() -> None:
    """`:read=policy`: the worlds are the policy's reading, not the softmax's."""
    inference._CACHE.clear()
    _, view = _game(4106, 1)[0]
    bot = make_bot("rollout:8i:read=policy", 5)
    assert bot.choose(CARDS, view) in view["legal"]
    by_policy = inference.read(CARDS, view, model=policy.shipped())
    by_softmax = inference.read(CARDS, view)
    assert by_policy is not None and by_softmax is not None
    assert getattr(bot, "last_reading", 0) == len(by_policy.states)
    assert _fingerprint(by_policy) != _fingerprint(by_softmax)


def _example(*command: str) -> dict[str, Any]:
    """The last line (JSON) an example prints, run from the project's root."""
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, *command], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return summary


def test_the_error_measure_runs_and_scores_both_guesses() -> None:
    """examples/reading_error.py, on one game: both guesses scored at every reading."""
    summary = _example(
        "examples/reading_error.py", "--games", "1", "--every", "6", "--particles", "4"
    )
    assert summary["readings"] >= 1 and summary["reading"]["no_reading"] == 0
    for guess in ("uniform", "reading"):
        assert {"red", "colours", "l1"} <= set(summary[guess])
        assert 0 <= summary[guess]["red"] <= 8


def test_the_error_measure_compares_readers_on_the_same_decisions() -> None:
    """`--readers`: each model of the other player reads the same decisions."""
    summary = _example(
        "examples/reading_error.py",
        *("--games", "1", "--every", "8", "--particles", "4"),
        *("--readers", "tau:0.01,tau:0.3,policy"),
    )
    for reader in ("tau:0.01", "tau:0.3", "policy"):
        assert summary[reader]["no_reading"] == 0
        assert 0 <= summary[reader]["l1"] <= 16


def test_a_game_read_on_keeps_one_place_in_the_cache() -> None:
    """Each decision's reading replaces the one it went on from: a worker serving many
    games keeps the latest reading of each, not the older ones of one game."""
    inference._CACHE.clear()
    for _, view in _game(4106, 3):
        assert inference.read(CARDS, view) is not None
        assert len(inference._CACHE) == 1


def test_the_reviews_worlds_are_dealt_from_the_reading_when_the_view_has_history() -> None:
    """A move is judged on hands the mover could have read from the table (docs/bots.md,
    the review): every world shows the mover its view, the other hand of each is one the
    reading imagined, and the worlds are the same from the cache and from the deal."""
    (truth, view), *_ = _game(4105, 1)
    me = int(view["viewer"])
    inference._CACHE.clear()
    reading = inference.read(CARDS, view)
    assert reading is not None
    imagined = {tuple(s.hands[1 - me]) for s in reading.states}
    worlds: list[Any] = judging.worlds("cards", view, 7, 16)
    for world in worlds:
        assert _without(world.view(me)) == _without(truth.view(me))
        assert tuple(world.hands[1 - me]) in imagined
    inference._CACHE.clear()
    again: list[Any] = judging.worlds("cards", view, 7, 16)
    assert [(w.hands, w.deck, w.removed) for w in again] == [
        (w.hands, w.deck, w.removed) for w in worlds
    ]
    # without the history the other hand is dealt at random from the unseen cards
    plain: list[Any] = judging.worlds("cards", without_history(view), 7, 16)
    assert any(tuple(w.hands[1 - me]) not in imagined for w in plain)


def test_the_cost_measure_times_the_hint_and_the_review_both_ways() -> None:
    """examples/reading_cost.py, on one game: a hint timed three ways, a review twice."""
    summary = _example("examples/reading_cost.py", "--games", "1", "--at", "12", "--depth", "quick")
    assert [set(h) for h in summary["hints"]] == [{"seed", "move", "plain", "cold", "warm"}]
    (row,) = summary["reviews"]
    assert row["moves"] > 12 and row["uniform_seconds"] > 0 and row["read_seconds"] > 0

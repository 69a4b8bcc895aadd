"""Game statistics from a record (match/stats.py), checked figure by figure against the
events of short seeded games read by hand, and against the engines' own scoring."""

from __future__ import annotations

import json
import random

import pytest

from euphrates.core.errors import RecordError
from euphrates.games import game_definition
from euphrates.match.records import GameRecord, record_of
from euphrates.match.stats import game_stats

# Board, 2 players, seed 18: the first 34 actions of a random game. Read from its
# events: seat 0 lays 9 tiles (gN2 rJ6 bF1 gE4 bO4 rJ10 bC4 rG10 gL5) and two
# catastrophes (K7, M5); seat 1 lays 9 tiles (gO8 gK4 bA7 rA11 rP6 kG6 gI2 rM11 kL1)
# and two catastrophes (N1, M1). Action 31 (TJ7) starts a revolt of seat 1's trader
# against seat 0's; seat 0 commits 3 red and wins it (4 to 2): one red point (B-12).
# A turn starts after actions 2, 4, …, 30 and 34: 16 turns.
BOARD_ACTIONS = [
    "gN2", "rJ6", "swap g", "TA8", "PO2", "bF1", "gO8", "xN1", "xK7", "gE4", "xM1", "gK4",
    "TK6", "pass", "bA7", "rA11", "bO4", "xM5", "rP6", "kG6", "KB9", "rJ10", "KP7", "TO10",
    "bC4", "rG10", "gI2", "rM11", "KH10", "gL5", "TJ7", "commit 0", "commit 3", "kL1",
]  # fmt: skip

# Cards, 2 players, seed 35: the first 40 actions. Seat 0 lays 6 cards (b4 r4 b3 r8 r4
# g6) and its catastrophe (x4.1), scores a red point for the card at action 29 and wins
# the revolt its priest starts at action 38 (2 to 1), taking one committed red card
# (C-10). Seat 1 lays 7 cards (b3 r5 g4 r7 k4 g8 k5) and scores a green point at action
# 23. A turn starts after actions 2, 4, 6, 8, 9, 12, 14, 16, 18, 20, 23, 25, 27, 30, 32,
# 34, 36 and 40: 18 turns.
CARDS_ACTIONS = [
    "b3", "F7.0", "b4", "T2.0", "r5", "g4", "K3.1", "P6.0", "pass", "r4", "b3", "point none",
    "r7", "P3.0", "x4.1", "P1.0", "F4.2", "k4", "r8", "P4.3", "K8.1", "g8", "point g",
    "P4.0", "T7.1", "K7.0", "P8.2", "F8.0", "r4", "point r", "k5", "P5.2", "g6", "K5.0",
    "P6.1", "T8.1", "F5.1", "P6.0", "commit 1", "commit 1",
]  # fmt: skip

NONE = {"won_attacking": 0, "lost_attacking": 0, "won_defending": 0, "lost_defending": 0}


def _points(red: int = 0, blue: int = 0, green: int = 0, black: int = 0) -> dict[str, int]:
    return {"red": red, "blue": blue, "green": green, "black": black}


def test_board_figures_read_by_hand() -> None:
    stats = game_stats(GameRecord("board", 2, 18, actions=BOARD_ACTIONS))
    assert stats["game"] == "board" and stats["players"] == 2
    assert stats["steps"] == 34 and stats["turns"] == 16
    s0, s1 = stats["seats"]
    assert s0 == {
        "revolts": {**NONE, "won_defending": 1}, "wars": NONE, "monuments": 0,
        "treasures": 0, "catastrophes": 2, "placed": 9, "points": _points(red=1),
    }  # fmt: skip
    assert s1 == {
        "revolts": {**NONE, "lost_attacking": 1}, "wars": NONE, "monuments": 0,
        "treasures": 0, "catastrophes": 2, "placed": 9, "points": _points(),
    }  # fmt: skip
    timeline = stats["timeline"]
    # The start, then each turn's start; the last turn started with the last action.
    assert len(timeline) == 17
    assert timeline[0] == {"step": 0, "points": [[0, 0, 0, 0], [0, 0, 0, 0]]}
    assert [e["step"] for e in timeline[1:]] == [*range(2, 31, 2), 34]
    assert timeline[-2]["points"] == [[0, 0, 0, 0], [0, 0, 0, 0]]
    assert timeline[-1] == {"step": 34, "points": [[1, 0, 0, 0], [0, 0, 0, 0]]}


def test_cards_figures_read_by_hand() -> None:
    stats = game_stats(GameRecord("cards", 2, 35, actions=CARDS_ACTIONS))
    assert stats["steps"] == 40 and stats["turns"] == 18
    s0, s1 = stats["seats"]
    assert s0 == {
        "revolts": {**NONE, "won_attacking": 1}, "wars": NONE, "monuments": 0,
        "treasures": 0, "catastrophes": 1, "placed": 6, "points": _points(red=2),
    }  # fmt: skip
    assert s1 == {
        "revolts": {**NONE, "lost_defending": 1}, "wars": NONE, "monuments": 0,
        "treasures": 0, "catastrophes": 0, "placed": 7, "points": _points(green=1),
    }  # fmt: skip
    by_step = {e["step"]: e["points"] for e in stats["timeline"]}
    assert by_step[20] == [[0, 0, 0, 0], [0, 0, 0, 0]]
    assert by_step[23] == [[0, 0, 0, 0], [0, 0, 1, 0]]
    assert by_step[30] == [[1, 0, 0, 0], [0, 0, 1, 0]]
    assert stats["timeline"][-1] == {"step": 40, "points": [[2, 0, 0, 0], [0, 0, 1, 0]]}


@pytest.mark.parametrize("game", ["board", "cards"])
def test_whole_games_agree_with_the_engines_scoring(game: str) -> None:
    """Points per colour summed from the events are the outcome's points before
    wildcards; every conflict won by one side is lost by the other."""
    definition = game_definition(game)
    for seed in range(2):
        state = definition.new_game(3, seed, {})
        pick = random.Random(seed)
        actions = []
        while state.outcome() is None:
            action = pick.choice(state.legal_actions())
            actions.append(str(action))
            state.apply(action)
        stats = game_stats(record_of(game, actions, 3, seed, {}, final=state))
        outcome = state.outcome()
        assert outcome is not None
        colours = ("red", "blue", "green", "black")
        assert [[s["points"][c] for c in colours] for s in stats["seats"]] == [
            list(p) for p in outcome.points
        ]
        assert stats["timeline"][-1]["points"] == [list(p) for p in outcome.points]
        for which in ("revolts", "wars"):
            won = sum(s[which]["won_attacking"] + s[which]["won_defending"] for s in stats["seats"])
            lost = sum(
                s[which]["lost_attacking"] + s[which]["lost_defending"] for s in stats["seats"]
            )
            assert won == lost
        json.dumps(stats)  # plain JSON, as the server sends it


def test_an_action_that_does_not_replay_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="action 1"):
        game_stats(GameRecord("board", 2, 18, actions=["gN2", "zz"]))

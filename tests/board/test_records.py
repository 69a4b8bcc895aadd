"""Game records and positions: JSON round trips, replay to the identical state,
malformed documents refused with a message that names the problem."""

from __future__ import annotations

import json
from typing import Any

import pytest

from euphrates.board import BOARD
from euphrates.board.position import from_position, to_position
from euphrates.board.state import BoardState
from euphrates.core.errors import RecordError
from euphrates.core.rng import Rng
from euphrates.match.records import GameRecord, replay


def _random_record(
    players: int, seed: int, options: dict[str, bool] | None = None
) -> tuple[GameRecord, BoardState]:
    game = BOARD.new_game(players, seed, options)
    rng = Rng(seed)
    texts = []
    while not game.is_over():
        action = game.random_action(rng)
        texts.append(str(action))
        game.apply(action)
    out = game.outcome()
    assert out is not None
    return GameRecord(
        "board",
        players,
        seed,
        dict(options or {}),
        ["a", "b", "c", "d"][:players],
        texts,
        out.to_json(),
    ), game


def test_record_replays_to_identical_state() -> None:
    record, game = _random_record(3, 21, {"advanced": True})
    again = GameRecord.loads(record.dumps())
    assert again == record
    replayed = replay(again)
    assert isinstance(replayed, BoardState)
    assert to_position(replayed) == to_position(game)


def test_partial_replay() -> None:
    record, _ = _random_record(2, 4)
    state = replay(record, upto=10)
    assert state.version == 10


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 2}, "format"),
        ({"game": 3}, "game"),
        ({"game": "chess"}, "unknown game"),
        ({"players": 5}, "players"),
        ({"seed": "x"}, "seed"),
        ({"actions": "rF4"}, "actions"),
        ({"seats": ["only one"]}, "seat names"),
        ({"options": {"colour": True}}, "unknown board-game option"),
    ],
)
def test_malformed_records_are_refused(change: dict[str, object], message: str) -> None:
    record, _ = _random_record(2, 4)
    doc = record.to_json() | change
    with pytest.raises(RecordError) as err:
        replay(GameRecord.from_json(doc))
    assert message in str(err.value)


def test_a_record_with_an_illegal_action_names_it() -> None:
    record, _ = _random_record(2, 4)
    record.actions.insert(3, "bA1")  # blue on land
    record.outcome = None
    with pytest.raises(RecordError) as err:
        replay(record)
    assert "action 3" in str(err.value) and "B-12" in str(err.value)


def test_a_record_with_the_wrong_outcome_is_refused() -> None:
    record, _ = _random_record(2, 4)
    assert record.outcome is not None
    record.outcome = dict(record.outcome, places=[9, 9])
    with pytest.raises(RecordError):
        replay(record)


def test_not_json_is_refused() -> None:
    with pytest.raises(RecordError):
        GameRecord.loads("{not json")


def test_position_round_trip_mid_conflict() -> None:
    game = BOARD.new_game(4, 77)
    rng = Rng(77)
    seen_phases = set()
    while not game.is_over():
        doc = to_position(game)
        seen_phases.add(doc["pending"]["phase"])
        assert to_position(from_position(json.loads(json.dumps(doc)))) == doc
        game.apply(game.random_action(rng))
    assert {"action", "revolt", "war"} <= seen_phases


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("board", "tiles", "red"), ["F3", "F3"], "twice"),
        (("board", "tiles", "blue"), ["Z9"], "must be a square name"),
        (("seats",), [], "seats"),
        (("pending", "phase"), "dancing", "pending.phase"),
        (("board", "treasures"), ["A1"], "treasure"),
        (("seats", 0, "hand", "red"), -1, "seats[0].hand.red"),
    ],
)
def test_malformed_positions_are_refused(
    path: tuple[object, ...], value: object, message: str
) -> None:
    doc = to_position(BOARD.new_game(2, 3))
    target: Any = doc  # a JSON document, walked by `path`
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError) as err:
        from_position(doc)
    assert message in str(err.value)


def test_render_shows_the_board_in_board_map_style() -> None:
    game = BOARD.new_game(2, 3)
    text = BOARD.render(game, 0)
    lines = text.splitlines()
    assert lines[0].split() == list("ABCDEFGHIJKLMNOP")
    assert lines[1].startswith(" 1  . . . . ~ ~ ~ ~ ~ . r$")
    assert "(you)" in text and "points hidden (B-33)" in text

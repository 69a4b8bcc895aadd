"""Hostile game records, for both games: every malformed record is a RecordError naming
the field (a bad `upto` an ArgumentError), never a traceback, a hang or a replay of
something other than what the record says."""

from __future__ import annotations

import json
from typing import Any

import pytest

from euphrates.core.errors import ArgumentError, RecordError
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.match.records import MAX_ACTIONS, MAX_CHARS, GameRecord, replay

GAMES = ("board", "cards")


def _record(game: str, players: int = 2, seed: int = 4, moves: int = 30) -> GameRecord:
    state = game_definition(game).new_game(players, seed, None)
    rng = Rng(seed)
    texts = []
    for _ in range(moves):
        action = state.random_action(rng)
        texts.append(str(action))
        state.apply(action)
    return GameRecord(game, players, seed, {}, [], texts)


def _doc(game: str) -> dict[str, Any]:
    return _record(game).to_json()


def _refused(doc: Any, *needles: str) -> str:
    with pytest.raises(RecordError) as err:
        replay(GameRecord.from_json(doc))
    for needle in needles:
        assert needle in str(err.value), str(err.value)
    return str(err.value)


@pytest.mark.parametrize("game", GAMES)
def test_both_games_replay_from_their_records(game: str) -> None:
    record = _record(game)
    again = GameRecord.loads(record.dumps())
    assert again == record
    assert replay(again).version == len(record.actions)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("change", "needles"),
    [
        ({"format": True}, ("'format'",)),
        ({"format": 1.0}, ("'format'",)),
        ({"format": "1"}, ("'format'",)),
        ({"seed": 2**64 + 5}, ("'seed'", "2**64-1")),
        ({"seed": 2**64}, ("'seed'",)),
        ({"seed": -1}, ("'seed'",)),
        ({"seed": 1.0}, ("'seed'",)),
        ({"seed": True}, ("'seed'",)),
        ({"players": 3.0}, ("'players'",)),
        ({"players": True}, ("'players'",)),
        ({"players": "2"}, ("'players'",)),
        ({"options": {"open": 1}}, ("option 'open'",)),
        ({"options": {"open": "no"}}, ("option 'open'",)),
        ({"options": {"open": None}}, ("option 'open'",)),
        ({"options": ["advanced"]}, ("'options'",)),
        ({"options": {"colour": True}}, ("option 'colour'",)),
        ({"actions": "pass"}, ("'actions'",)),
        ({"actions": [1, 2]}, ("action 0",)),
        ({"actions": [None]}, ("action 0",)),
        ({"actions": [["pass"]]}, ("action 0",)),
        ({"actions": ["pass " * 100]}, ("action 0", "characters")),
        ({"actions": ["pass"] * (MAX_ACTIONS + 1)}, ("at most",)),
        ({"seats": ["a" * 1000, "b"]}, ("'seats'",)),
        ({"seats": [1, 2]}, ("'seats'",)),
        ({"outcome": []}, ("'outcome'",)),
        ({"outcome": {"points": "x"}}, ("'outcome'",)),
        ({"game": ["board"]}, ("'game'",)),
        ({"game": "chess"}, ("unknown game",)),
        ({"colour": "red"}, ("unknown field",)),
    ],
)
def test_malformed_records_name_the_field(
    game: str, change: dict[str, Any], needles: tuple[str, ...]
) -> None:
    _refused(_doc(game) | change, *needles)


@pytest.mark.parametrize("game", GAMES)
def test_a_missing_field_is_named(game: str) -> None:
    for key in ("format", "game", "players", "seed", "actions"):
        doc = _doc(game)
        del doc[key]
        _refused(doc, f"'{key}'")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("upto", ["x", -1, True, False, 1.0, 10**6, None])
def test_replay_upto_must_be_a_number_of_actions(game: str, upto: Any) -> None:
    record = _record(game)
    if upto is None:
        assert replay(record, None).version == len(record.actions)
        return
    with pytest.raises(ArgumentError) as err:
        replay(record, upto)
    assert "upto" in str(err.value)


@pytest.mark.parametrize("game", GAMES)
def test_replay_upto_counts_actions(game: str) -> None:
    record = _record(game)
    assert replay(record, 0).version == 0
    assert replay(record, 7).version == 7
    assert replay(record, len(record.actions)).version == len(record.actions)


@pytest.mark.parametrize(
    "text",
    [
        "[" * 100_000,
        '{"a":' * 100_000,
        "[" * 100_000 + "]" * 100_000,
        "1" * 5000,
        '{"format": 1, "seed": ' + "9" * 5000 + "}",
        "{not json",
        "",
        "null",
        "[]",
        '"record"',
        "NaN",
        '{"format": 1, "game": "board", "players": 2, "seed": 1e999, "actions": []}',
    ],
)
def test_unreadable_text_is_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        GameRecord.loads(text)


def test_huge_and_binary_inputs_are_refused() -> None:
    with pytest.raises(RecordError) as err:
        GameRecord.loads(" " * (MAX_CHARS + 1))
    assert "MB" in str(err.value)
    with pytest.raises(RecordError):
        GameRecord.loads(b"\xff\xfe{")
    with pytest.raises(RecordError):
        GameRecord.loads(None)  # type: ignore[arg-type]
    assert GameRecord.loads(_record("board").dumps().encode()).game == "board"


@pytest.mark.parametrize("game", GAMES)
def test_a_record_built_in_code_is_checked_at_replay(game: str) -> None:
    """Records built directly (not read) are checked by the game's own argument checks."""
    good = _record(game)
    for bad in (
        GameRecord(game, True, 4, {}, [], good.actions),  # a bool is no number of players
        GameRecord(game, 2, 2**64 + 4, {}, [], good.actions),
        GameRecord(game, 2, 4, {"open": "no"}, [], good.actions),
        GameRecord(game, 2, 4, {}, [], [7]),  # type: ignore[list-item]
        GameRecord(["x"], 2, 4, {}, [], []),  # type: ignore[arg-type]
    ):
        with pytest.raises(RecordError):
            replay(bad)


@pytest.mark.parametrize("game", GAMES)
def test_a_record_of_the_other_game_does_not_replay(game: str) -> None:
    doc = _doc(game)
    doc["game"] = "cards" if game == "board" else "board"
    with pytest.raises(RecordError) as err:
        replay(GameRecord.from_json(json.loads(json.dumps(doc))))
    assert "action" in str(err.value) or "option" in str(err.value)


def test_bot_moves_round_trip_and_bad_ones_are_named() -> None:
    record = _record("board")
    record.bot_moves = {3: "strong", 4: "strong"}
    doc = record.to_json()
    assert doc["bot_moves"] == {"3": "strong", "4": "strong"}
    again = GameRecord.loads(json.dumps(doc))
    assert again.bot_moves == {3: "strong", 4: "strong"}
    replay(again)
    assert "bot_moves" not in _record("board").to_json()
    bads: list[Any] = [[], {"x": "strong"}, {"999": "strong"}, {"3": 7}]
    for bad in bads:
        with pytest.raises(RecordError, match="bot_moves"):
            GameRecord.from_json({**doc, "bot_moves": bad})


@pytest.mark.parametrize("game", GAMES)
def test_notes_round_trip_and_bad_ones_are_named(game: str) -> None:
    """The server's notes (a clock that ran out, a bot standing in) ride along in the
    record; a malformed one is refused by name."""
    doc = _doc(game)
    doc["notes"] = [
        {"after": 3, "kind": "out_of_time", "seat": 1},
        {"after": 3, "kind": "standin", "seat": 1, "level": "strong", "by": 0},
    ]
    record = GameRecord.from_json(doc)
    assert record.to_json()["notes"] == doc["notes"]
    assert GameRecord.loads(record.dumps()) == record
    for notes, needle in [
        ({"after": 1}, "'notes'"),
        ([{"after": 31, "kind": "back", "seat": 0}], "'after'"),
        ([{"after": True, "kind": "back", "seat": 0}], "'after'"),
        ([{"after": 1, "kind": "back", "seat": 2}], "'seat'"),
        ([{"after": 1, "kind": "back", "seat": 0, "by": -1}], "'by'"),
        ([{"after": 1, "kind": "", "seat": 0}], "'kind'"),
        ([{"after": 1, "kind": "back", "seat": 0, "token": "x"}], "note 0"),
        ([{"after": 1, "kind": "back", "seat": 0, "level": 5}], "'level'"),
    ]:
        _refused({**doc, "notes": notes}, needle)

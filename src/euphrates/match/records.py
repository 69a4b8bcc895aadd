"""JSON game records: a game is its options, its seed and its actions.

    {"format": 1, "game": "board", "players": 3, "options": {...}, "seed": 7,
     "seats": ["Ann", "bot:greedy", "Bob"], "actions": ["KF4", "rG4", ...],
     "outcome": {...}}

Replaying the actions on a new game from the same options and seed gives the
identical state (the engines draw only from their seeded generator). `outcome` is
optional and, when present, must match what the replay gives.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from euphrates.core.errors import EuphratesError, RecordError
from euphrates.core.protocol import GameState, Json
from euphrates.match.games import game_definition

FORMAT = 1


@dataclass
class GameRecord:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    outcome: Json | None = None

    def to_json(self) -> Json:
        doc: Json = {
            "format": FORMAT,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "seats": list(self.seats),
            "actions": list(self.actions),
        }
        if self.outcome is not None:
            doc["outcome"] = self.outcome
        return doc

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, doc: Any) -> GameRecord:
        """Read a record; RecordError says which field is wrong."""
        if not isinstance(doc, Mapping):
            raise RecordError("record: not a JSON object")
        if doc.get("format") != FORMAT:
            raise RecordError(f"record: 'format' must be {FORMAT}, not {doc.get('format')!r}")
        game = doc.get("game")
        if not isinstance(game, str):
            raise RecordError("record: 'game' must be a game name")
        players = doc.get("players")
        if not isinstance(players, int) or isinstance(players, bool) or players not in (2, 3, 4):
            raise RecordError("record: 'players' must be 2, 3 or 4")
        seed = doc.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError("record: 'seed' must be an integer")
        options = doc.get("options", {})
        if not isinstance(options, dict):
            raise RecordError("record: 'options' must be an object")
        seats = doc.get("seats", [])
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise RecordError("record: 'seats' must be a list of names")
        if seats and len(seats) != players:
            raise RecordError(f"record: {players} players but {len(seats)} seat names")
        actions = doc.get("actions")
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordError("record: 'actions' must be a list of action texts")
        outcome = doc.get("outcome")
        if outcome is not None and not isinstance(outcome, dict):
            raise RecordError("record: 'outcome' must be an object")
        return cls(game, players, seed, dict(options), list(seats), list(actions), outcome)

    @classmethod
    def loads(cls, text: str) -> GameRecord:
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise RecordError(f"record: not JSON ({e})") from None
        return cls.from_json(doc)

    def new_game(self) -> GameState[Any]:
        try:
            definition = game_definition(self.game)
        except ValueError as e:
            raise RecordError(f"record: {e}") from None
        try:
            state: GameState[Any] = definition.new_game(self.players, self.seed, self.options)
            return state
        except (EuphratesError, ValueError) as e:
            raise RecordError(f"record: {e}") from None


def replay(record: GameRecord, upto: int | None = None) -> GameState[Any]:
    """The state after the record's actions (or its first `upto`). A bad action is a
    RecordError naming its index, its text and why it was refused."""
    state = record.new_game()
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        try:
            state.apply(text)
        except EuphratesError as e:
            raise RecordError(f"record: action {i} ({text!r}) does not replay: {e}") from None
    if upto is None and record.outcome is not None:
        out = state.outcome()
        if out is None or out.to_json() != record.outcome:
            raise RecordError("record: the replayed game does not end with the recorded outcome")
    return state


def record_of(
    game: str,
    state_actions: list[str],
    players: int,
    seed: int,
    options: Mapping[str, Any],
    seats: list[str] | None = None,
    final: GameState[Any] | None = None,
) -> GameRecord:
    """A record of a game played from (options, seed) with the given action texts."""
    outcome = None
    if final is not None and (out := final.outcome()) is not None:
        outcome = out.to_json()
    return GameRecord(
        game, players, seed, dict(options), list(seats or []), list(state_actions), outcome
    )

"""JSON game records: a game is its options, its seed and its actions.

    {"format": 1, "game": "board", "players": 3, "options": {...}, "seed": 7,
     "seats": ["Ann", "bot:greedy", "Bob"], "actions": ["KF4", "rG4", ...],
     "outcome": {...}, "bot_moves": {"12": "strong"},
     "notes": [{"after": 12, "kind": "out_of_time", "seat": 1}]}

Replaying the actions on a new game from the same options and seed gives the
identical state (the engines draw only from their seeded generator). `outcome` is
optional and, when present, must match what the replay gives. `bot_moves` is optional
too: the actions (by index into `actions`) a bot of that level made for a person's seat
(a server's clock ran out for it); a replay needs nothing of it. Nor of `notes`, also
optional: what happened between the moves on a server — a clock ran out, a bot stood
in, a player came back (server/store/notes.py) — each after the first `after` actions.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

from euphrates.core.errors import ArgumentError, EuphratesError, RecordError, short_repr
from euphrates.core.protocol import SEED_LIMIT, GameState, Json
from euphrates.games import game_definition

FORMAT: Final = 1
MAX_CHARS: Final = 10_000_000
"""The longest record read (10 MB): a long card game's record is about 20 kB."""
MAX_ACTIONS: Final = 100_000
"""The most actions a record may hold; hosts stop a game long before (play.MAX_DECISIONS)."""
MAX_TEXT: Final = 200
"""The longest action text or seat name read."""

_KEYS: Final = (
    "format",
    "game",
    "players",
    "options",
    "seed",
    "seats",
    "actions",
    "outcome",
    "bot_moves",
    "notes",
)
_NOTE_KEYS: Final = frozenset({"after", "kind", "seat", "level", "by"})
NOTE_KINDS: Final = (
    "out_of_time",
    "late_turn",
    "standin",
    "back",
    "replaced",
    "resigned",
    "left",
    "forfeited",
    "aborted",
    "vacation",
    "ended",
    "hint",
)
"""What a server's notes tell (server/store/notes.py)."""
_REQUIRED: Final = ("format", "game", "players", "seed", "actions")
_OUTCOME_KEYS: Final = ("points", "wildcards", "totals", "places", "winners")


def _fail(what: str) -> NoReturn:
    raise RecordError(f"record: {what}")


def _is_int(value: object) -> bool:
    return type(value) is int


def _check_outcome(outcome: object, players: int) -> Json:
    """The outcome's shape (Outcome.to_json): the replay compares its values."""
    if not isinstance(outcome, dict) or set(outcome) != set(_OUTCOME_KEYS):
        _fail(f"'outcome' must be an object of {', '.join(_OUTCOME_KEYS)}")
    for key in ("points", "wildcards", "totals"):
        rows = outcome[key]
        if not (
            isinstance(rows, list)
            and len(rows) == players
            and all(
                isinstance(r, list) and len(r) == 4 and all(_is_int(n) for n in r) for r in rows
            )
        ):
            _fail(f"'outcome.{key}' must list 4 integers for each of the {players} seats")
    for key in ("places", "winners"):
        seats = outcome[key]
        if not (
            isinstance(seats, list)
            and len(seats) <= players
            and all(_is_int(n) and 0 <= n <= players for n in seats)
        ):
            _fail(f"'outcome.{key}' must be a list of seat numbers or places")
    return outcome


def _check_bot_moves(moves: object, actions: int) -> dict[int, str]:
    if not isinstance(moves, dict):
        _fail("'bot_moves' must map action indexes to bot levels")
    out: dict[int, str] = {}
    for key, level in moves.items():
        if not (isinstance(key, str) and key.isascii() and key.isdigit() and int(key) < actions):
            _fail(f"'bot_moves': {short_repr(key)} is not the index of an action")
        if not isinstance(level, str) or len(level) > MAX_TEXT:
            _fail(f"'bot_moves': the level of action {key} must be a bot level's name")
        out[int(key)] = level
    return out


def _check_notes(notes: object, actions: int, players: int) -> list[dict[str, Any]]:
    if not isinstance(notes, list) or len(notes) > MAX_ACTIONS:
        _fail(f"'notes' must be a list of at most {MAX_ACTIONS} notes")
    out = []
    for i, note in enumerate(notes):
        if not (isinstance(note, dict) and {"after", "kind", "seat"} <= set(note) <= _NOTE_KEYS):
            _fail(f"note {i} must be an object of after, kind, seat (and level, by)")
        after, kind = note["after"], note["kind"]
        if not (_is_int(after) and 0 <= after <= actions):
            _fail(f"note {i}: 'after' must be a number of actions from 0 to {actions}")
        if kind not in NOTE_KINDS:
            _fail(f"note {i}: 'kind' must be one of {', '.join(NOTE_KINDS)}")
        for key in ("seat", "by"):
            value = note.get(key)
            if value is not None and not (_is_int(value) and 0 <= value < players):
                _fail(f"note {i}: {key!r} must be a seat number or null")
        level = note.get("level")
        if level is not None and not (isinstance(level, str) and len(level) <= MAX_TEXT):
            _fail(f"note {i}: 'level' must be a bot level's name")
        out.append(dict(note))
    return out


@dataclass
class GameRecord:
    game: str
    players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    seats: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    outcome: Json | None = None
    bot_moves: dict[int, str] = field(default_factory=dict)
    notes: list[dict[str, Any]] = field(default_factory=list)

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
        if self.bot_moves:
            doc["bot_moves"] = {str(i): level for i, level in sorted(self.bot_moves.items())}
        if self.notes:
            doc["notes"] = [dict(n) for n in self.notes]
        return doc

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    @classmethod
    def from_json(cls, doc: Any) -> GameRecord:
        """Read a record; RecordError says which field is wrong. Types are exact (`true`
        is not the format 1, `3.0` not three players) and every size is bounded."""
        if not isinstance(doc, Mapping):
            _fail(f"a record is a JSON object, not {type(doc).__name__}")
        for key in _REQUIRED:
            if key not in doc:
                _fail(f"lacks '{key}'")
        for key in doc:
            if key not in _KEYS:
                _fail(f"unknown field {short_repr(key)}; fields are {', '.join(_KEYS)}")
        if not _is_int(doc["format"]) or doc["format"] != FORMAT:
            _fail(f"'format' must be {FORMAT}, not {short_repr(doc['format'])}")
        game = doc["game"]
        if not isinstance(game, str) or len(game) > MAX_TEXT:
            _fail("'game' must be a game name")
        players = doc["players"]
        if not _is_int(players) or players not in (2, 3, 4):
            _fail(f"'players' must be 2, 3 or 4, not {short_repr(players)}")
        seed = doc["seed"]
        if not _is_int(seed):
            _fail(f"'seed' must be an integer, not {short_repr(seed)}")
        if not 0 <= seed < SEED_LIMIT:
            _fail(f"'seed' must lie in 0 .. 2**64-1, not {short_repr(seed)}")
        options = doc.get("options", {})
        if not isinstance(options, dict):
            _fail("'options' must be an object")
        for key, value in options.items():
            if not isinstance(key, str) or type(value) is not bool:
                _fail(f"option {short_repr(key)} must be true or false, not {short_repr(value)}")
        seats = doc.get("seats", [])
        if not isinstance(seats, list) or not all(
            isinstance(s, str) and len(s) <= MAX_TEXT for s in seats[: players + 1]
        ):
            _fail(f"'seats' must be a list of names of at most {MAX_TEXT} characters")
        if seats and len(seats) != players:
            _fail(f"{players} players but {len(seats)} seat names")
        actions = doc["actions"]
        if not isinstance(actions, list):
            _fail("'actions' must be a list of action texts")
        if len(actions) > MAX_ACTIONS:
            _fail(f"{len(actions)} actions; a record holds at most {MAX_ACTIONS}")
        for i, text in enumerate(actions):
            if not isinstance(text, str):
                _fail(f"'actions' must be a list of action texts; action {i} is {short_repr(text)}")
            if len(text) > MAX_TEXT:
                _fail(f"action {i} is {len(text)} characters long; at most {MAX_TEXT}")
        outcome = doc.get("outcome")
        if outcome is not None:
            outcome = _check_outcome(outcome, players)
        bot_moves = _check_bot_moves(doc.get("bot_moves", {}), len(actions))
        notes = _check_notes(doc.get("notes", []), len(actions), players)
        return cls(
            game,
            players,
            seed,
            dict(options),
            list(seats),
            list(actions),
            outcome,
            bot_moves,
            notes,
        )

    @classmethod
    def loads(cls, text: str | bytes) -> GameRecord:
        """Read a record from its JSON text. Too large, too deeply nested or otherwise
        unreadable text is a RecordError, like a malformed field."""
        if isinstance(text, (bytes, bytearray)):
            if len(text) > MAX_CHARS:
                _fail(f"larger than {MAX_CHARS // 1_000_000} MB")
            try:
                text = bytes(text).decode("utf-8")
            except UnicodeDecodeError as e:
                _fail(f"not UTF-8 text ({e.reason} at byte {e.start})")
        if not isinstance(text, str):
            _fail(f"a record is JSON text, not {type(text).__name__}")
        if len(text) > MAX_CHARS:
            _fail(f"larger than {MAX_CHARS // 1_000_000} MB")
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            _fail(f"not JSON ({e})")
        except RecursionError:
            _fail("not a record: JSON nested too deeply")
        except ValueError as e:  # an integer of more digits than Python converts
            _fail(f"not readable JSON ({e})")
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
    if upto is not None and (type(upto) is not int or not 0 <= upto <= len(record.actions)):
        raise ArgumentError(
            f"upto must be a number of actions from 0 to {len(record.actions)}, not {short_repr(upto)}"
        )
    state = record.new_game()
    actions = record.actions if upto is None else record.actions[:upto]
    for i, text in enumerate(actions):
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            _fail(f"action {i} is not an action text of at most {MAX_TEXT} characters")
        try:
            state.apply(text)
        except (EuphratesError, ValueError) as e:
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
    bot_moves: Mapping[int, str] | None = None,
    notes: list[dict[str, Any]] | None = None,
) -> GameRecord:
    """A record of a game played from (options, seed) with the given action texts."""
    outcome = None
    if final is not None and (out := final.outcome()) is not None:
        outcome = out.to_json()
    return GameRecord(
        game,
        players,
        seed,
        dict(options),
        list(seats or []),
        list(state_actions),
        outcome,
        dict(bot_moves or {}),
        list(notes or []),
    )

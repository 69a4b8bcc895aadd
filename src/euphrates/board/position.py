"""The JSON position format: the full state of a game, hidden parts included (docs/board.md).

`to_position` writes it and `from_position` reads it back exactly. Reading is strict,
because a position comes from outside (a file, a bug report, a view a client sent):
every field must be there with exactly its type (True is not 1, 1.0 is not 1, "3" is
not 3), every square and colour is written as `to_position` writes it, and every count
is bounded, so nothing that reads the state later can loop for ever or index out of
range. The state read must then be one the rules can reach: `position_check` checks
that, naming the field and the ruling.

The writer is in writing.py, below the facade (which writes views with it); this module
reads, builds a `BoardState`, and re-exports the writer's names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, NoReturn

from euphrates.board.actions import MONUMENT_CODES
from euphrates.board.geometry import HEIGHT, SQUARE_NAMES, WIDTH
from euphrates.board.monuments import block_mask
from euphrates.board.phases import (
    CATASTROPHES_EACH,
    HAND_SIZE,
    MONUMENT,
    NO_SQUARE,
    PHASE_NAMES,
    REVOLT,
    TREASURE,
    WAR,
)
from euphrates.board.position_check import check_position
from euphrates.board.state import BoardState
from euphrates.board.writing import (
    FORMAT,
    MAX_POINTS,
    MAX_SCORE_LOG,
    MAX_VERSION,
    POSITION_KEYS,
    TOTAL_TILES,
    to_position,
)
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES
from euphrates.core.errors import RecordError, short_repr
from euphrates.core.protocol import SEED_LIMIT

__all__ = ["FORMAT", "POSITION_KEYS", "from_position", "to_position"]

_BOARD_KEYS: Final = ("tiles", "monuments", "catastrophes", "treasures", "unification")
_SEAT_KEYS: Final = ("leaders", "hand", "catastrophes", "points", "treasures", "discarded")
_CONFLICT_KEYS: Final = (
    "colour",
    "attacker",
    "defender",
    "attacker_strength",
    "defender_strength",
    "attacker_commit",
)
# What `pending` holds in each phase, besides "phase" (to_position writes exactly these).
_PENDING_KEYS: Final = (
    (),  # action
    _CONFLICT_KEYS,  # revolt
    ("placed", "wars"),  # war_order
    (*_CONFLICT_KEYS, "placed", "wars"),  # war
    ("placed", "options"),  # monument
    ("owner", "choices"),  # treasure
    (),  # over
)
_SQUARE_INDEX: Final = {name: sq for sq, name in enumerate(SQUARE_NAMES)}
_COLOUR_INDEX: Final = {name: c for c, name in enumerate(COLOUR_NAMES)}


# ---------------------------------------------------------------------- reading
def _fail(where: str, what: str) -> NoReturn:
    raise RecordError(f"position: {where} {what}")


def _object(
    value: object, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()
) -> Any:
    """A JSON object with exactly `keys` (and perhaps `optional` ones)."""
    if not isinstance(value, Mapping):
        _fail(where, f"must be an object, not {type(value).__name__}")
    for key in keys:
        if key not in value:
            _fail(where, f"lacks '{key}'")
    if len(value) > len(keys):
        for key in value:
            if key not in keys and key not in optional:
                _fail(where, f"has an unknown field {short_repr(key)}")
    return value


def _list(value: object, where: str, limit: int) -> list[Any]:
    if not isinstance(value, list):
        _fail(where, f"must be a list, not {type(value).__name__}")
    if len(value) > limit:
        _fail(where, f"holds {len(value)} entries; there can be at most {limit}")
    return value


def _int(value: object, where: str, low: int, high: int) -> int:
    """An integer in low .. high; exactly an int (True and 1.0 are refused)."""
    if type(value) is not int:
        _fail(where, f"must be an integer, not {short_repr(value)}")
    if not low <= value <= high:
        _fail(where, f"must lie in {low} .. {high}, not {value}")
    return value


def _bool(value: object, where: str) -> bool:
    if type(value) is not bool:
        _fail(where, f"must be true or false, not {short_repr(value)}")
    return value


def _square(value: object, where: str) -> int:
    sq = _SQUARE_INDEX.get(value) if isinstance(value, str) else None
    if sq is None:
        _fail(where, f"must be a square name A1 … P11, not {short_repr(value)}")
    return sq


def _colour(value: object, where: str) -> int:
    if not isinstance(value, str) or value not in COLOUR_NAMES:
        _fail(where, f"must be a colour name ({', '.join(COLOUR_NAMES)}), not {short_repr(value)}")
    return COLOUR_NAMES.index(value)


def _mask(value: object, where: str) -> int:
    """A list of distinct squares as a bitboard."""
    m = 0
    index = _SQUARE_INDEX
    for i, name in enumerate(_list(value, where, WIDTH * HEIGHT)):
        sq = index.get(name) if type(name) is str else None
        b = 1 << (_square(name, f"{where}[{i}]") if sq is None else sq)
        if m & b:
            _fail(where, f"names {name} twice")
        m |= b
    return m


def _counts_of(value: object, where: str, high: int) -> list[int]:
    d = _object(value, where, COLOUR_NAMES)
    return [_int(d[name], f"{where}.{name}", 0, high) for name in COLOUR_NAMES]


def from_position(doc: Mapping[str, Any]) -> BoardState:
    """A state from the JSON position format. RecordError names the first field that is
    malformed, or the rule (with its ruling) that the state breaks."""
    _object(doc, "the document", POSITION_KEYS)
    if type(doc["format"]) is not int or doc["format"] != FORMAT:
        _fail("format", f"must be {FORMAT}, not {short_repr(doc['format'])}")
    if doc["game"] != "board":
        _fail(
            "game",
            f"must be 'board' (a Tigris & Euphrates position), not {short_repr(doc['game'])}",
        )
    players = _int(doc["players"], "players", 2, 4)
    opts = _object(doc["options"], "options", ("advanced", "open_scores"))
    st = BoardState.blank(
        players,
        _bool(opts["advanced"], "options.advanced"),
        _bool(opts["open_scores"], "options.open_scores"),
    )
    st.seed = _int(doc["seed"], "seed", 0, SEED_LIMIT - 1)
    bordered = _read_board(st, doc["board"])
    seats = _list(doc["seats"], "seats", players)
    if len(seats) != players:
        _fail("seats", f"lists {len(seats)} seats for {players} players")
    for s, entry in enumerate(seats):
        _read_seat(st, s, entry)
    bag = _list(doc["bag"], "bag", TOTAL_TILES)
    colours = _COLOUR_INDEX
    st.bag = [
        colours[x] if type(x) is str and x in colours else _colour(x, f"bag[{i}]")
        for i, x in enumerate(bag)
    ]
    st.bag.reverse()
    st.removed = _counts_of(doc["removed"], "removed", TOTAL_TILES)
    for i, entry in enumerate(_list(doc["score_log"], "score_log", MAX_SCORE_LOG)):
        where = f"score_log[{i}]"
        e = _list(entry, where, 4)
        if len(e) != 4:
            _fail(where, "must be [seat, colour, points, reason]")
        seat = _int(e[0], f"{where} seat", 0, players - 1)
        colour = _colour(e[1], f"{where} colour")
        amount = _int(e[2], f"{where} points", 1, MAX_POINTS)
        if not isinstance(e[3], str):
            _fail(f"{where} reason", f"must be a text, not {short_repr(e[3])}")
        st.score_log.append((seat, colour, amount, e[3]))
    turn = _object(doc["turn"], "turn", ("first", "active", "actions_done", "version"))
    st.first = _int(turn["first"], "turn.first", 0, players - 1)
    st.active = _int(turn["active"], "turn.active", 0, players - 1)
    st.actions_done = _int(turn["actions_done"], "turn.actions_done", 0, 2)
    st._version = _int(turn["version"], "turn.version", 0, MAX_VERSION)
    _read_pending(st, doc["pending"])
    check_position(st, bordered)
    return st


def _read_board(st: BoardState, value: object) -> int | None:
    """Reads the board into `st`; returns the bordered treasures the document lists
    (derived data, optional: position_check compares it with the map)."""
    board = _object(value, "board", _BOARD_KEYS, ("bordered_treasures",))
    tiles = _object(board["tiles"], "board.tiles", COLOUR_NAMES)
    for c, name in enumerate(COLOUR_NAMES):
        st.tiles[c] = _mask(tiles[name], f"board.tiles.{name}")
    for i, entry in enumerate(_list(board["monuments"], "board.monuments", len(MONUMENT_CODES))):
        where = f"board.monuments[{i}]"
        e = _object(entry, where, ("monument", "square", "colour"))
        code = e["monument"]
        if not isinstance(code, str) or code not in MONUMENT_CODES:
            _fail(f"{where}.monument", f"must be one of {', '.join(MONUMENT_CODES)}")
        top_left = _square(e["square"], f"{where}.square")
        if top_left % WIDTH == WIDTH - 1 or top_left // WIDTH == HEIGHT - 1:
            _fail(f"{where}.square", "is the top-left square of no 2×2 block on the board")
        st.monuments.append(
            (MONUMENT_CODES.index(code), top_left, _colour(e["colour"], f"{where}.colour"))
        )
        st.flipped |= block_mask(top_left)
    st.catas = _mask(board["catastrophes"], "board.catastrophes")
    st.treasures = _mask(board["treasures"], "board.treasures")
    uni = board["unification"]
    st.unification = NO_SQUARE if uni is None else _square(uni, "board.unification")
    if "bordered_treasures" in board:
        return _mask(board["bordered_treasures"], "board.bordered_treasures")
    return None


def _read_seat(st: BoardState, s: int, value: object) -> None:
    where = f"seats[{s}]"
    entry = _object(value, where, _SEAT_KEYS)
    leaders = _object(entry["leaders"], f"{where}.leaders", LEADER_NAMES)
    for c, name in enumerate(LEADER_NAMES):
        at = leaders[name]
        if at is not None:
            sq = _square(at, f"{where}.leaders.{name}")
            st.leader_sq[s][c] = sq
            st.leader_bits |= 1 << sq
    st.hands[s] = _counts_of(entry["hand"], f"{where}.hand", HAND_SIZE)
    st.points[s] = _counts_of(entry["points"], f"{where}.points", MAX_POINTS)
    st.discarded[s] = _counts_of(entry["discarded"], f"{where}.discarded", TOTAL_TILES)
    st.catas_left[s] = _int(entry["catastrophes"], f"{where}.catastrophes", 0, CATASTROPHES_EACH)
    st.held[s] = _int(entry["treasures"], f"{where}.treasures", 0, st.map.temples.bit_count())


def _read_pending(st: BoardState, value: object) -> None:
    if not isinstance(value, Mapping):
        _fail("pending", f"must be an object, not {type(value).__name__}")
    phase = value.get("phase")
    if not isinstance(phase, str) or phase not in PHASE_NAMES:
        _fail("pending.phase", f"must be one of {', '.join(PHASE_NAMES)}, not {short_repr(phase)}")
    st.phase = PHASE_NAMES.index(phase)
    p = _object(value, f"pending (phase {phase})", ("phase", *_PENDING_KEYS[st.phase]))
    if "placed" in p:
        st.placed = _square(p["placed"], "pending.placed")
    if "wars" in p:
        wars = _list(p["wars"], "pending.wars", 4)
        st.wars = [_colour(c, f"pending.wars[{i}]") for i, c in enumerate(wars)]
    if st.phase in (REVOLT, WAR):
        st.conflict_colour = _colour(p["colour"], "pending.colour")
        st.attacker = _int(p["attacker"], "pending.attacker", 0, st.players - 1)
        st.defender = _int(p["defender"], "pending.defender", 0, st.players - 1)
        st.att_sq = st.leader_sq[st.attacker][st.conflict_colour]
        st.def_sq = st.leader_sq[st.defender][st.conflict_colour]
        st.att_base = _int(p["attacker_strength"], "pending.attacker_strength", 0, TOTAL_TILES)
        st.def_base = _int(p["defender_strength"], "pending.defender_strength", 0, TOTAL_TILES)
        ac = p["attacker_commit"]
        st.att_commit = -1 if ac is None else _int(ac, "pending.attacker_commit", 0, HAND_SIZE)
    if st.phase == MONUMENT:
        options = _list(p["options"], "pending.options", len(MONUMENT_CODES) * 4)
        for i, entry in enumerate(options):
            where = f"pending.options[{i}]"
            o = _object(entry, where, ("monument", "square"))
            code = o["monument"]
            if not isinstance(code, str) or code not in MONUMENT_CODES:
                _fail(f"{where}.monument", f"must be one of {', '.join(MONUMENT_CODES)}")
            st.monument_options.append(
                (MONUMENT_CODES.index(code), _square(o["square"], f"{where}.square"))
            )
    if st.phase == TREASURE:
        st.treasure_owner = _int(p["owner"], "pending.owner", 0, st.players - 1)
        st.treasure_choices = _mask(p["choices"], "pending.choices")

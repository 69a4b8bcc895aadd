"""The JSON position format (docs/cards.md): the whole state, hidden parts included.

A position holds the deck order, every hand, the 30 removed cards, the face-down
bridge's colour and the generator's state, so ``from_position(to_position(s)) == s``.

Reading is strict, because a position is the one door through which a state can enter
the engine without being played: every field must have exactly its type (``"no"`` is no
boolean, ``"3"`` and ``3.0`` are no numbers), unknown fields are refused, and the state
read must satisfy every invariant a played game keeps (position_check.py). Each refusal
is a RecordError that names the field and, where one applies, the ruling.

Only reading is here: `to_position` and the other writers come from writing.py, which
the facade's `view` uses as well, and are re-exported under their old names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import euphrates.cards.kinds as kinds
from euphrates.cards.context import decision_context
from euphrates.cards.layout import (
    CIVILISATION_CARDS,
    COLUMNS,
    EMPTY,
    GAP_BASE,
    GAPS,
    HAND_SIZE,
    MAX_CARDS,
    REMOVED_TWO_PLAYERS,
    SHIPS,
    TREASURE,
    ship_code_name,
)
from euphrates.cards.position_check import census, check_state
from euphrates.cards.scoring import result
from euphrates.cards.state import CardsState
from euphrates.cards.writing import (
    FORMAT,
    HIDDEN,
    cards_text,
    common_json,
    layout_json,
    leaders_json,
    pending_json,
    pile_text,
    to_position,
)
from euphrates.core.actions import is_ascii_number
from euphrates.core.colours import COLOUR_LETTERS, LEADER_LETTERS
from euphrates.core.errors import RecordError
from euphrates.core.protocol import SEED_LIMIT

__all__ = [
    "FORMAT",
    "HIDDEN",
    "cards_text",
    "census",
    "common_json",
    "from_position",
    "layout_json",
    "leaders_json",
    "pending_json",
    "pile_text",
    "to_position",
]

_LETTER = {ch: i for i, ch in enumerate(COLOUR_LETTERS)}
PILE_LETTERS = {**_LETTER, "t": TREASURE}
_SHIP_CODE = {ship_code_name(code): code for code in SHIPS}
_CARD_TOKEN = {**_LETTER, **_SHIP_CODE}
_VERSION_LIMIT = 1 << 62

TOP_KEYS = (
    "format",
    "game",
    "players",
    "options",
    "rng",
    "version",
    "first",
    "active",
    "actions_left",
    "layout",
    "leaders",
    "hands",
    "catastrophes",
    "ships",
    "deck",
    "removed",
    "discard",
    "out",
    "piles",
    "declined",
    "pending",
)

LAYOUT_KEYS = ("heads", "columns", "bridges", "face_down")
PENDING_KEYS = (
    "kind",
    "seat",
    "colour",
    "reason",
    "conflict",
    "wars",
    "ship_column",
    "ship_options",
    "ship_points",
    "exchange_gap",
    "context",
)
CONFLICT_KEYS = (
    "type",
    "attacker",
    "defender",
    "attacker_base",
    "defender_base",
    "attacker_commit",
    "defender_commit",
    "attacker_side",
    "defender_side",
    "spoils_side",
    "winner",
)


# --- exact readers: each names the field it refuses -----------------------------------------
def kind_of(value: object) -> str:
    """How a wrong value is described in a message: its type, short."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {value}"
    return type(value).__name__


def shown(value: object) -> str:
    """A wrong value in a message: short strings and numbers as they are, else the type."""
    if isinstance(value, str):
        return repr(value) if len(value) <= 20 else repr(value[:20])[:-1] + "...'"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() < 70:
        return str(value)
    if isinstance(value, float):
        return repr(value)
    return kind_of(value)


def same_json(given: object, mine: object) -> bool:
    """`given == mine` with JSON's types: Python's `==` takes True for 1 and 1.0 for 1,
    JSON does not. `mine` is the engine's own (dicts, lists, str, int, None), so the walk
    is bounded by it, whatever `given` holds."""
    if isinstance(mine, dict):
        return (
            isinstance(given, Mapping)
            and len(given) == len(mine)
            and all(k in given and same_json(given[k], v) for k, v in mine.items())
        )
    if isinstance(mine, list):
        return (
            isinstance(given, list)
            and len(given) == len(mine)
            and all(same_json(g, m) for g, m in zip(given, mine, strict=True))
        )
    return type(given) is type(mine) and given == mine


def need_mapping(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise RecordError(f"{where} must be an object, not {kind_of(value)}")
    return value


def need_keys(
    doc: Mapping[str, Any], required: tuple[str, ...], allowed: tuple[str, ...], where: str
) -> None:
    for key in required:
        if key not in doc:
            raise RecordError(f"{where}: the field {key!r} is missing")
    for key in doc:
        if key not in allowed:
            raise RecordError(f"{where}: unknown field {shown(key)}")


def need_int(value: object, lo: int, hi: int, where: str) -> int:
    """Exactly an int (True, 3.0 and "3" are refused, not coerced) in lo..hi."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(f"{where} must be an integer, not {shown(value)}")
    if not lo <= value <= hi:
        raise RecordError(f"{where} must lie in {lo}..{hi}, not {shown(value)}")
    return value


def need_bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise RecordError(f"{where} must be true or false, not {shown(value)}")
    return value


def need_str(value: object, max_len: int, where: str) -> str:
    if not isinstance(value, str):
        raise RecordError(f"{where} must be a string, not {kind_of(value)}")
    if len(value) > max_len:
        raise RecordError(f"{where} is too long: {len(value)} characters, at most {max_len}")
    return value


def need_list(value: object, where: str, length: int | None = None, most: int = 200) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{where} must be a list, not {kind_of(value)}")
    if length is not None and len(value) != length:
        raise RecordError(f"{where} must list {length} entries, not {len(value)}")
    if len(value) > most:
        raise RecordError(f"{where} lists {len(value)} entries, at most {most}")
    return value


def counts_of(value: object, max_len: int, where: str) -> list[int]:
    """Colour letters to four counts (hands, discard, out)."""
    text = need_str(value, max_len, where)
    out = [0, 0, 0, 0]
    for ch in text:
        c = _LETTER.get(ch)
        if c is None:
            raise RecordError(f"{where}: {ch!r} is not a colour letter (r b g k)")
        out[c] += 1
    return out


def sequence_of(
    value: object, max_len: int, where: str, alphabet: Mapping[str, int] = _LETTER
) -> list[int]:
    text = need_str(value, max_len, where)
    out = []
    for ch in text:
        c = alphabet.get(ch)
        if c is None:
            raise RecordError(f"{where}: {ch!r} is not one of {' '.join(alphabet)}")
        out.append(c)
    return out


def parse_spot(text: object, where: str = "spot") -> int:
    """``3.2`` or ``3-4`` (1-based, ASCII digits) to a spot int; RecordError otherwise."""
    if isinstance(text, str) and len(text) == 3:
        a, sep, b = text[0], text[1], text[2]
        if is_ascii_number(a, 1) and is_ascii_number(b, 1):
            col, other = int(a), int(b)
            if sep == "." and 1 <= col <= COLUMNS and other <= MAX_CARDS:
                return (col - 1) * 16 + other
            if sep == "-" and 1 <= col < COLUMNS and other == col + 1:
                return GAP_BASE + col - 1
    raise RecordError(
        f"{where}: {shown(text)} is not a spot (3.2 for column 3 row 2, 3-4 for a gap)"
    )


def parse_gap(text: object, where: str) -> int:
    """A gap name or null to a gap index or EMPTY."""
    if text is None:
        return EMPTY
    pos = parse_spot(text, where)
    if pos < GAP_BASE:
        raise RecordError(f"{where}: {text!r} is not a gap (1-2 .. 7-8)")
    return pos - GAP_BASE


# --- reading --------------------------------------------------------------------------------
def from_position(doc: object) -> CardsState:
    """Read a position; RecordError names the first field that is malformed or that no
    game could reach (docs/cards.md, "Positions")."""
    s, context = read_fields(doc, "position")
    finish_reading(s, context, "position")
    return s


def read_fields(doc: object, root: str) -> tuple[CardsState, object]:
    """Every field of a position with its exact type, nothing about their consistency
    yet; returns the state and the pending decision's `context` (None if absent).
    `root` names the document in messages ("position", or "view" for a sample)."""
    d = need_mapping(doc, root)
    if d.get("game") != "cards":
        raise RecordError(
            f"{root}: not of the card game (game must be 'cards', not {shown(d.get('game'))})"
        )
    if need_int(d.get("format"), 0, 1 << 30, f"{root}.format") != FORMAT:
        raise RecordError(f"{root}.format {d['format']} is unknown (this engine reads {FORMAT})")
    need_keys(d, TOP_KEYS, TOP_KEYS, root)
    n = need_int(d["players"], 2, 4, f"{root}.players")
    opts = need_mapping(d["options"], f"{root}.options")
    need_keys(opts, ("open_piles",), ("open_piles",), f"{root}.options")
    s = CardsState(n, need_bool(opts["open_piles"], f"{root}.options.open_piles"))
    s.rng = need_int(d["rng"], 0, SEED_LIMIT - 1, f"{root}.rng")
    s._version = need_int(d["version"], 0, _VERSION_LIMIT, f"{root}.version")
    s.first = need_int(d["first"], 0, n - 1, f"{root}.first")
    s.active = need_int(d["active"], 0, n - 1, f"{root}.active")
    s.actions_left = need_int(d["actions_left"], 0, 2, f"{root}.actions_left")
    _read_layout(s, d["layout"], root)
    _read_leaders(s, d["leaders"], root)
    hands = need_list(d["hands"], f"{root}.hands", n)
    s.hands = []
    for p, h in enumerate(hands):
        if isinstance(h, str) and len(h) > HAND_SIZE:
            raise RecordError(
                f"{root}.hands[{p}] holds {len(h)} cards; a hand holds at most 8 (C-3, C-17)"
            )
        s.hands.append(counts_of(h, HAND_SIZE, f"{root}.hands[{p}]"))
    cats = need_list(d["catastrophes"], f"{root}.catastrophes", n)
    s.cats = [need_bool(x, f"{root}.catastrophes[{p}]") for p, x in enumerate(cats)]
    s.ships = _read_ships(d["ships"], root)
    s.deck = sequence_of(d["deck"], CIVILISATION_CARDS, f"{root}.deck")
    s.removed = sequence_of(d["removed"], REMOVED_TWO_PLAYERS, f"{root}.removed")
    s.discard = counts_of(d["discard"], CIVILISATION_CARDS, f"{root}.discard")
    s.out = counts_of(d["out"], 4, f"{root}.out")
    piles = need_list(d["piles"], f"{root}.piles", n)
    s.piles = [
        sequence_of(p, CIVILISATION_CARDS, f"{root}.piles[{i}]", PILE_LETTERS)
        for i, p in enumerate(piles)
    ]
    _read_declined(s, d["declined"], root)
    return s, _read_pending(s, d["pending"], root)


def _read_declined(s: CardsState, value: object, root: str) -> None:
    declined = need_list(value, f"{root}.declined", s.players)
    s.declined = []
    for p, entry in enumerate(declined):
        where = f"{root}.declined[{p}]"
        m = need_mapping(entry, where)
        need_keys(m, COLOUR_LETTERS, COLOUR_LETTERS, where)
        s.declined.append(
            [need_int(m[letter], 0, HAND_SIZE, f"{where}.{letter}") for letter in COLOUR_LETTERS]
        )


def finish_reading(s: CardsState, context: object, root: str) -> None:
    """Check the state read against every invariant of a played game, then derive what
    is not stored (the result of a finished game)."""
    check_state(s, root)
    if s.kind == kinds.OVER:
        s.result = result(s.piles)
    if context is not None and not same_json(context, decision_context(s)):
        raise RecordError(
            f"{root}.pending.context does not match the pending decision "
            f"(it should read {decision_context(s)})"
        )


def _read_layout(s: CardsState, value: object, root: str) -> None:
    lay = need_mapping(value, f"{root}.layout")
    need_keys(lay, LAYOUT_KEYS, LAYOUT_KEYS, f"{root}.layout")
    heads = need_str(lay["heads"], COLUMNS, f"{root}.layout.heads")
    if len(heads) != COLUMNS or set(heads) - {"t", "r"}:
        raise RecordError(
            f"{root}.layout.heads must be 8 letters, t (a treasure card) or r (a red head)"
        )
    s.orig = [h == "t" for h in heads]
    cols = need_list(lay["columns"], f"{root}.layout.columns", COLUMNS)
    for c, col in enumerate(cols):
        where = f"{root}.layout.columns[{c}]"
        tokens = need_list(col, where, most=64)
        if len(tokens) > MAX_CARDS:
            raise RecordError(f"{where}: column {c + 1} holds {len(tokens)} cards, at most 8 (C-2)")
        out = []
        for token in tokens:
            card = _CARD_TOKEN.get(token) if isinstance(token, str) else None
            if card is None:
                raise RecordError(f"{where}: {shown(token)} is not a card (r b g k, br bg bk)")
            out.append(card)
        s.cols[c] = out
    bridges = need_list(lay["bridges"], f"{root}.layout.bridges", GAPS)
    gaps = []
    for g, b in enumerate(bridges):
        card = EMPTY if b is None else _LETTER.get(b) if isinstance(b, str) else None
        if card is None:
            raise RecordError(
                f"{root}.layout.bridges[{g}] must be null or a colour letter, not {shown(b)}"
            )
        gaps.append(card)
    s.gaps = gaps
    s.down = parse_gap(lay["face_down"], f"{root}.layout.face_down")


def _read_leaders(s: CardsState, value: object, root: str) -> None:
    entries = need_list(value, f"{root}.leaders", s.players)
    for p, entry in enumerate(entries):
        where = f"{root}.leaders[{p}]"
        e = need_mapping(entry, where)
        need_keys(e, LEADER_LETTERS, LEADER_LETTERS, where)
        for c, letter in enumerate(LEADER_LETTERS):
            at = e[letter]
            s.lpos[p * 4 + c] = EMPTY if at is None else parse_spot(at, f"{where}.{letter}")


def _read_ships(value: object, root: str) -> list[int]:
    names = need_list(value, f"{root}.ships", most=len(SHIPS))
    codes = []
    for x in names:
        code = _SHIP_CODE.get(x) if isinstance(x, str) else None
        if code is None:
            raise RecordError(f"{root}.ships: {shown(x)} is not a ship (br, bg, bk)")
        if code in codes:
            raise RecordError(f"{root}.ships names {x} twice (C-1: one card per ship)")
        codes.append(code)
    return sorted(codes)


def _lid(value: object, players: int, where: str) -> int:
    ref = need_mapping(value, where)
    need_keys(ref, ("seat", "leader"), ("seat", "leader"), where)
    seat = need_int(ref["seat"], 0, players - 1, f"{where}.seat")
    leader = ref["leader"]
    if not isinstance(leader, str) or leader not in LEADER_LETTERS:
        raise RecordError(f"{where}.leader must be one of P F T K, not {shown(leader)}")
    return seat * 4 + LEADER_LETTERS.index(leader)


def _unside(value: object, where: str) -> tuple[int, int]:
    if value is None:
        return EMPTY, EMPTY
    pair = need_list(value, where, 2)
    lo = need_int(pair[0], 1, COLUMNS, f"{where}[0]") - 1
    hi = need_int(pair[1], 1, COLUMNS, f"{where}[1]") - 1
    if lo > hi:
        raise RecordError(f"{where} must name its first column, then its last")
    return lo, hi


def _optional_int(value: object, lo: int, hi: int, where: str) -> int:
    return EMPTY if value is None else need_int(value, lo, hi, where)


def _read_pending(s: CardsState, value: object, root: str) -> object:
    """Read the pending decision's fields (their consistency with the layout is checked
    with the rest of the state); returns its `context`, or None if absent."""
    p = need_mapping(value, f"{root}.pending")
    # Every field is required but the public `context`, which is derived from the rest
    # (and compared with it when given).
    need_keys(p, PENDING_KEYS[:-1], PENDING_KEYS, f"{root}.pending")
    kind = p["kind"]
    if kind == "over":
        s.kind = kinds.OVER
        if p["seat"] is not None:
            raise RecordError(f"{root}.pending.seat must be null once the game is over")
        s.seat = EMPTY
    else:
        if not isinstance(kind, str) or kind not in kinds.KIND_NAMES:
            raise RecordError(
                f"{root}.pending.kind must be over or one of {', '.join(kinds.KIND_NAMES)}, "
                f"not {shown(kind)}"
            )
        s.kind = kinds.KIND_NAMES.index(kind)
        s.seat = need_int(p["seat"], 0, s.players - 1, f"{root}.pending.seat")
    colour = p["colour"]
    if colour is None:
        s.colour = EMPTY
    elif isinstance(colour, str) and colour in _LETTER:
        s.colour = _LETTER[colour]
    else:
        raise RecordError(f"{root}.pending.colour must be null or r b g k, not {shown(colour)}")
    reason = p["reason"]
    if not isinstance(reason, str) or reason not in kinds.REASON_NAMES:
        raise RecordError(
            f"{root}.pending.reason must be one of {', '.join(kinds.REASON_NAMES)}, not {shown(reason)}"
        )
    s.reason = kinds.REASON_NAMES.index(reason)
    conf = p["conflict"]
    if conf is not None:
        _read_conflict(s, conf, root)
    s.wars = sequence_of(p["wars"], 4, f"{root}.pending.wars")
    if len(set(s.wars)) != len(s.wars):
        raise RecordError(f"{root}.pending.wars names a colour twice (G-5: one war per colour)")
    s.ship_col = _optional_int(p["ship_column"], 1, COLUMNS, f"{root}.pending.ship_column")
    if s.ship_col >= 0:
        s.ship_col -= 1
    opts = need_list(p["ship_options"], f"{root}.pending.ship_options", most=len(SHIPS))
    s.ship_opts = []
    for x in opts:
        code = _SHIP_CODE.get(x) if isinstance(x, str) else None
        if code is None or code in s.ship_opts:
            raise RecordError(
                f"{root}.pending.ship_options: {shown(x)} is not a ship or is named twice"
            )
        s.ship_opts.append(code)
    s.ship_queue = sequence_of(p["ship_points"], 4, f"{root}.pending.ship_points")
    s.exch_gap = parse_gap(p["exchange_gap"], f"{root}.pending.exchange_gap")
    return p.get("context")


def _read_conflict(s: CardsState, value: object, root: str) -> None:
    where = f"{root}.pending.conflict"
    conf = need_mapping(value, where)
    need_keys(conf, CONFLICT_KEYS, CONFLICT_KEYS, where)
    kind = conf["type"]
    if kind not in ("war", "revolt"):
        raise RecordError(f"{where}.type must be war or revolt, not {shown(kind)}")
    s.is_war = kind == "war"
    s.att_lid = _lid(conf["attacker"], s.players, f"{where}.attacker")
    s.def_lid = _lid(conf["defender"], s.players, f"{where}.defender")
    s.att_base = need_int(conf["attacker_base"], 0, CIVILISATION_CARDS, f"{where}.attacker_base")
    s.def_base = need_int(conf["defender_base"], 0, CIVILISATION_CARDS, f"{where}.defender_base")
    s.att_commit = _optional_int(conf["attacker_commit"], 0, HAND_SIZE, f"{where}.attacker_commit")
    s.def_commit = _optional_int(conf["defender_commit"], 0, HAND_SIZE, f"{where}.defender_commit")
    s.att_lo, s.att_hi = _unside(conf["attacker_side"], f"{where}.attacker_side")
    s.def_lo, s.def_hi = _unside(conf["defender_side"], f"{where}.defender_side")
    s.spoils_lo, s.spoils_hi = _unside(conf["spoils_side"], f"{where}.spoils_side")
    s.winner = _optional_int(conf["winner"], 0, s.players - 1, f"{where}.winner")

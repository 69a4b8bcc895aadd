"""Per-seat views and sampling a full state consistent with a view (B-33, G-3).

A view is the position with the hidden parts replaced by counts: other hands, other
players' swap discards and the bag (whose order the seed would reveal, so the seed is
hidden too). Score totals of others are summarised away unless "open scores" is on,
though every scoring event stays (points are taken openly). Because a view keeps
everything else, a full state is rebuilt from a view by dealing the unseen tiles at
random, which is what information-set search needs.

The view itself is written by `writing.view_of` (the facade's `view`); this module reads
one back. A view handed back to `sample_from_view` may come from a client, so it is read as
strictly as a position: its hidden parts are checked here, the rest by
`from_position`, and the state rebuilt must show that seat exactly the view given.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, NoReturn

from euphrates.board.phases import HAND_SIZE, TILE_COUNTS
from euphrates.board.position import from_position
from euphrates.board.state import BoardState
from euphrates.board.writing import MAX_POINTS, MAX_SCORE_LOG, TOTAL_TILES, VIEW_KEYS, VIEW_ONLY
from euphrates.core.colours import COLOUR_NAMES
from euphrates.core.errors import RecordError
from euphrates.core.history import HISTORY_KEY, without_history
from euphrates.core.protocol import Json
from euphrates.core.rng import Rng

__all__ = ["VIEW_KEYS", "sample_from_view", "unseen_tiles"]


# ---------------------------------------------------------------------- reading a view
def _fail(what: str) -> NoReturn:
    raise RecordError(f"view: {what}")


def _get(d: object, key: str, where: str) -> Any:
    if not isinstance(d, Mapping):
        _fail(f"{where} must be an object, not {type(d).__name__}")
    if key not in d:
        _fail(f"{where} lacks '{key}'")
    return d[key]


def _int(value: object, where: str, high: int, low: int = 0) -> int:
    if type(value) is not int or not low <= value <= high:
        _fail(f"{where} must be an integer from {low} to {high}, not {str(value)[:40]}")
    return value


def _list(value: object, where: str, limit: int) -> list[Any]:
    if not isinstance(value, list) or len(value) > limit:
        _fail(f"{where} must be a list of at most {limit} entries")
    return value


def _colour(value: object, where: str) -> int:
    if not isinstance(value, str) or value not in COLOUR_NAMES:
        _fail(f"{where} must be a colour name ({', '.join(COLOUR_NAMES)})")
    return COLOUR_NAMES.index(value)


def _counts(value: object, where: str) -> list[int]:
    return [_int(_get(value, name, where), f"{where}.{name}", TOTAL_TILES) for name in COLOUR_NAMES]


def _hidden(value: object, where: str, high: int) -> int:
    """A hidden pile as the view shows it: {"count": n}."""
    if not isinstance(value, Mapping) or len(value) != 1 or "count" not in value:
        _fail(f"{where} of another seat must be {{'count': n}}")
    return _int(value["count"], f"{where}.count", high)


def _viewer(view: Mapping[str, Any]) -> tuple[int, int | None]:
    """(players, viewer) of a view, both checked."""
    if not isinstance(view, Mapping):
        _fail(f"a view is an object, not {type(view).__name__}")
    if view.get("game") != "board":
        _fail("not a view of a Tigris & Euphrates game (game must be 'board')")
    for key in VIEW_KEYS:
        if key not in view:
            _fail(f"lacks '{key}'")
    if len(view) - (HISTORY_KEY in view) != len(VIEW_KEYS):  # a bot's history is beside it
        extra = next(k for k in view if k not in VIEW_KEYS and k != HISTORY_KEY)
        _fail(f"has an unknown field {str(extra)[:40]!r}")
    players = _int(view["players"], "players", 4, 2)
    viewer = view["viewer"]
    if viewer is not None:
        viewer = _int(viewer, "viewer", players - 1)
    seats = _list(view["seats"], "seats", players)
    if len(seats) != players:
        _fail(f"seats lists {len(seats)} seats for {players} players")
    return players, viewer


def unseen_tiles(view: Mapping[str, Any]) -> list[int]:
    """Tiles, by colour, that the view's seat cannot place: the other hands, the other
    players' discards and the bag (B-1 minus everything visible or known)."""
    _, viewer = _viewer(view)
    known = [0, 0, 0, 0]
    board = view["board"]
    tiles = _get(board, "tiles", "board")
    for c, name in enumerate(COLOUR_NAMES):
        known[c] += len(_list(_get(tiles, name, "board.tiles"), f"board.tiles.{name}", 176))
    for i, m in enumerate(_list(_get(board, "monuments", "board"), "board.monuments", 6)):
        known[_colour(_get(m, "colour", f"board.monuments[{i}]"), f"board.monuments[{i}]")] += 4
    removed = _counts(view["removed"], "removed")
    mine = [0, 0, 0, 0]
    if viewer is not None:
        entry = view["seats"][viewer]
        hand = _counts(_get(entry, "hand", f"seats[{viewer}]"), f"seats[{viewer}].hand")
        gone = _counts(_get(entry, "discarded", f"seats[{viewer}]"), f"seats[{viewer}].discarded")
        mine = [hand[c] + gone[c] for c in range(4)]
    pool: list[int] = []
    for c in range(4):
        missing = TILE_COUNTS[c] - known[c] - removed[c] - mine[c]
        if missing < 0:
            _fail(f"more {COLOUR_NAMES[c]} tiles are visible than exist (B-1)")
        pool.extend([c] * missing)
    return pool


def _points_from_log(view: Mapping[str, Any], players: int) -> list[dict[str, int]]:
    """Each seat's points as the sum of its public scoring events (B-14, B-33)."""
    pts = [[0, 0, 0, 0] for _ in range(players)]
    for i, e in enumerate(_list(view["score_log"], "score_log", MAX_SCORE_LOG)):
        where = f"score_log[{i}]"
        entry = _list(e, where, 4)
        if len(entry) != 4:
            _fail(f"{where} must be [seat, colour, points, reason]")
        seat = _int(entry[0], f"{where} seat", players - 1)
        pts[seat][_colour(entry[1], f"{where} colour")] += _int(
            entry[2], f"{where} points", MAX_POINTS
        )
    return [{COLOUR_NAMES[c]: p[c] for c in range(4)} for p in pts]


def sample_from_view(view: Mapping[str, Any], rng: Rng) -> BoardState:
    """A full state consistent with `view`: the unseen tiles are shuffled and dealt to
    the other hands, the other discard piles and the bag, with the counts the view
    shows; the points of others are summed from the public scoring events. RecordError
    if the view is malformed or no state shows it (B-33, G-3)."""
    pool = unseen_tiles(view)
    players, viewer = _viewer(view)
    rng.shuffle(pool)
    doc: Json = {k: v for k, v in view.items() if k not in VIEW_ONLY and k != HISTORY_KEY}
    doc["seed"] = 0
    seats = []
    logged: list[dict[str, int]] | None = None
    for s, entry in enumerate(view["seats"]):
        if not isinstance(entry, Mapping):
            _fail(f"seats[{s}] must be an object")
        e = dict(entry)
        if s != viewer:
            for key, high in (("hand", HAND_SIZE), ("discarded", TOTAL_TILES)):
                n = _hidden(_get(entry, key, f"seats[{s}]"), f"seats[{s}].{key}", high)
                if n > len(pool):
                    _fail("fewer unseen tiles than hidden places to fill (B-1)")
                part = [pool.pop() for _ in range(n)]
                e[key] = {COLOUR_NAMES[c]: part.count(c) for c in range(4)}
        if "points" not in e:
            if logged is None:
                logged = _points_from_log(view, players)
            e["points"] = logged[s]
        seats.append(e)
    doc["seats"] = seats
    bag = _hidden(view["bag"], "bag", TOTAL_TILES)
    if len(pool) != bag:
        _fail(f"{len(pool)} unseen tiles remain for a bag of {bag} (B-1)")
    doc["bag"] = [COLOUR_NAMES[c] for c in pool]
    try:
        st = from_position(doc)
    except RecordError as refused:
        raise RecordError("view: " + str(refused).removeprefix("position: ")) from None
    shown = st.view(viewer)
    for key in VIEW_KEYS:
        if shown[key] != view[key]:
            _fail(f"'{key}' is not what the position the view describes shows that seat")
    # `==` takes True for 1 and 1.0 for 1; their JSON texts differ. The given view equals
    # the engine's own, so it has its shallow shape and writing it is cheap.
    given = without_history(view)
    if json.dumps(shown, sort_keys=True) != json.dumps(given, sort_keys=True):
        _fail("a value has the wrong type (true or 1.0 where the view holds an integer)")
    return st

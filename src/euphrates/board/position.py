"""The JSON position format (the full state), per-seat views, and sampling a state
consistent with a view (B-33, G-3).

A view is the position with the hidden parts replaced by counts: other hands, other
players' swap discards and the bag (whose order the seed would reveal, so the seed is
hidden too). Score totals of others are summarised away unless "open scores" is on,
though every scoring event stays (points are taken openly). Because a view keeps
everything else, a full state is rebuilt from a view by dealing the unseen tiles at
random, which is what information-set search needs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from euphrates.board.actions import MONUMENT_CODES, MONUMENTS
from euphrates.board.geometry import FULL, parse_square, square_name, squares_of
from euphrates.board.monuments import block_mask
from euphrates.board.phases import PHASE_NAMES
from euphrates.board.state import (
    ACTION,
    MONUMENT,
    OVER,
    REVOLT,
    TILE_COUNTS,
    TREASURE,
    WAR,
    WAR_ORDER,
    BoardState,
)
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES, parse_colour
from euphrates.core.errors import EuphratesError, RecordError
from euphrates.core.protocol import Json, decision_fields
from euphrates.core.rng import Rng

FORMAT = 1


def _counts(xs: list[int]) -> dict[str, int]:
    return {COLOUR_NAMES[c]: xs[c] for c in range(4)}


def _squares(mask: int) -> list[str]:
    return [square_name(s) for s in squares_of(mask)]


def _sq(s: int) -> str | None:
    return square_name(s) if s >= 0 else None


def to_position(st: BoardState) -> Json:
    """The full state as JSON: everything, hidden parts included."""
    pending: Json = {"phase": PHASE_NAMES[st.phase]}
    if st.placed >= 0:
        pending["placed"] = square_name(st.placed)
    if st.wars:
        pending["wars"] = [COLOUR_NAMES[c] for c in st.wars]
    if st.phase in (REVOLT, WAR):
        pending.update(
            colour=COLOUR_NAMES[st.conflict_colour],
            attacker=st.attacker,
            defender=st.defender,
            attacker_strength=st.att_base,
            defender_strength=st.def_base,
            attacker_commit=None if st.att_commit < 0 else st.att_commit,
        )
    if st.phase == MONUMENT:
        pending["options"] = [
            {"monument": MONUMENT_CODES[m], "square": square_name(s)}
            for m, s in st.monument_options
        ]
    if st.phase == TREASURE:
        pending["owner"] = st.treasure_owner
        pending["choices"] = _squares(st.treasure_choices)
    return {
        "format": FORMAT,
        "game": "board",
        "players": st.players,
        "options": {"advanced": st.advanced, "open_scores": st.open_scores},
        "seed": st.seed,
        "board": {
            "tiles": {COLOUR_NAMES[c]: _squares(st.tiles[c]) for c in range(4)},
            "monuments": [
                {"monument": MONUMENT_CODES[m], "square": square_name(s), "colour": COLOUR_NAMES[c]}
                for m, s, c in st.monuments
            ],
            "catastrophes": _squares(st.catas),
            "treasures": _squares(st.treasures),
            "unification": _sq(st.unification),
        },
        "seats": [
            {
                "leaders": {LEADER_NAMES[c]: _sq(st.leader_sq[s][c]) for c in range(4)},
                "hand": _counts(st.hands[s]),
                "catastrophes": st.catas_left[s],
                "points": _counts(st.points[s]),
                "treasures": st.held[s],
                "discarded": _counts(st.discarded[s]),
            }
            for s in range(st.players)
        ],
        "bag": [COLOUR_NAMES[c] for c in reversed(st.bag)],
        "removed": _counts(st.removed),
        "score_log": [[s, COLOUR_NAMES[c], n, why] for s, c, n, why in st.score_log],
        "turn": {
            "first": st.first,
            "active": st.active,
            "actions_done": st.actions_done,
            "version": st.version,
        },
        "pending": pending,
    }


def view_of(st: BoardState, seat: int | None) -> Json:
    """What `seat` may see (None: a spectator), B-33 and G-3."""
    doc = to_position(st)
    del doc["seed"]
    over = st.phase == OVER
    for s, entry in enumerate(doc["seats"]):
        if s != seat:
            entry["hand"] = {"count": sum(st.hands[s])}
            entry["discarded"] = {"count": sum(st.discarded[s])}
        if s != seat and not st.open_scores and not over:
            del entry["points"]
    doc["bag"] = {"count": len(st.bag)}
    doc.update(decision_fields(st, seat))
    doc["active"] = st.active
    out = st.outcome()
    doc["outcome"] = None if out is None else out.to_json()
    return doc


# ---------------------------------------------------------------------- reading
def _get(doc: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in doc:
        raise RecordError(f"position: {where} lacks '{key}'")
    value = doc[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"position: {where}.{key} has the wrong type ({type(value).__name__})")
    return value


def _colour(name: Any, where: str) -> int:
    c = parse_colour(name) if isinstance(name, str) else None
    if c is None:
        raise RecordError(f"position: {where}: {name!r} is not a colour")
    return c


def _square(name: Any, where: str) -> int:
    if not isinstance(name, str):
        raise RecordError(f"position: {where}: {name!r} is not a square name")
    try:
        return parse_square(name)
    except EuphratesError as e:
        raise RecordError(f"position: {where}: {e}") from None


def _mask(names: Any, where: str) -> int:
    if not isinstance(names, list):
        raise RecordError(f"position: {where} must be a list of squares")
    m = 0
    for n in names:
        b = 1 << _square(n, where)
        if m & b:
            raise RecordError(f"position: {where} names {n} twice")
        m |= b
    return m


def _count_map(d: Any, where: str) -> list[int]:
    if not isinstance(d, dict) or set(d) != set(COLOUR_NAMES):
        raise RecordError(f"position: {where} must map each of red, blue, green, black to a count")
    out = []
    for c in COLOUR_NAMES:
        v = d[c]
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise RecordError(f"position: {where}.{c} must be a count ≥ 0")
        out.append(v)
    return out


def from_position(doc: Mapping[str, Any]) -> BoardState:
    """A state from the JSON position format; RecordError names what is wrong."""
    if not isinstance(doc, Mapping):
        raise RecordError("position: not a JSON object")
    if doc.get("format") != FORMAT or doc.get("game") != "board":
        raise RecordError(f"position: expected format {FORMAT} of game 'board'")
    players = _get(doc, "players", int, "position")
    if players not in (2, 3, 4):
        raise RecordError(f"position: players must be 2, 3 or 4, not {players}")
    opts = _get(doc, "options", dict, "position")
    unknown = set(opts) - {"advanced", "open_scores"}
    if unknown:
        raise RecordError(f"position: unknown options {sorted(unknown)}")
    st = BoardState.blank(
        players, bool(opts.get("advanced", False)), bool(opts.get("open_scores", False))
    )
    st.seed = _get(doc, "seed", int, "position")
    board = _get(doc, "board", dict, "position")
    tiles = _get(board, "tiles", dict, "board")
    seen = 0
    for c, name in enumerate(COLOUR_NAMES):
        m = _mask(tiles.get(name, []), f"board.tiles.{name}")
        if m & seen:
            raise RecordError(f"position: board.tiles.{name} overlaps another tile")
        st.tiles[c] = m
        seen |= m
    for i, entry in enumerate(_get(board, "monuments", list, "board")):
        where = f"board.monuments[{i}]"
        if not isinstance(entry, dict):
            raise RecordError(f"position: {where} must be an object")
        code = entry.get("monument")
        if code not in MONUMENT_CODES:
            raise RecordError(
                f"position: {where}.monument must be one of {', '.join(MONUMENT_CODES)}"
            )
        m = MONUMENT_CODES.index(code)
        tl = _square(entry.get("square"), where)
        colour = _colour(entry.get("colour"), where)
        if colour not in MONUMENTS[m]:
            raise RecordError(
                f"position: {where}: a {code} monument cannot stand on {COLOUR_NAMES[colour]} tiles"
            )
        if tl % 16 == 15 or tl // 16 == 10:
            raise RecordError(f"position: {where}: the 2×2 block must fit on the board")
        block = block_mask(tl)
        if block & seen or any(m == mm for mm, _, _ in st.monuments):
            raise RecordError(f"position: {where} overlaps a tile or repeats a monument")
        st.monuments.append((m, tl, colour))
        st.flipped |= block
        seen |= block
    st.catas = _mask(_get(board, "catastrophes", list, "board"), "board.catastrophes")
    if st.catas & seen:
        raise RecordError("position: a catastrophe shares a square with a tile")
    st.treasures = _mask(_get(board, "treasures", list, "board"), "board.treasures")
    if st.treasures & ~(st.tiles[0] | st.flipped):
        raise RecordError("position: a treasure must lie on a temple or a monument tile")
    uni = board.get("unification")
    st.unification = -1 if uni is None else _square(uni, "board.unification")
    seats = _get(doc, "seats", list, "position")
    if len(seats) != players:
        raise RecordError(f"position: {players} players but {len(seats)} seats")
    for s, entry in enumerate(seats):
        where = f"seats[{s}]"
        if not isinstance(entry, dict):
            raise RecordError(f"position: {where} must be an object")
        leaders = _get(entry, "leaders", dict, where)
        for c, lname in enumerate(LEADER_NAMES):
            at = leaders.get(lname)
            if at is None:
                continue
            sq = _square(at, f"{where}.leaders.{lname}")
            b = 1 << sq
            if (seen | st.catas | st.leader_bits) & b:
                raise RecordError(
                    f"position: {where}.leaders.{lname} stands on an occupied square {at}"
                )
            if st.map.river & b:
                raise RecordError(f"position: {where}.leaders.{lname} stands on the river ({at})")
            st.leader_sq[s][c] = sq
            st.leader_bits |= b
        st.hands[s] = _count_map(entry.get("hand"), f"{where}.hand")
        st.points[s] = _count_map(entry.get("points"), f"{where}.points")
        st.discarded[s] = _count_map(entry.get("discarded"), f"{where}.discarded")
        st.catas_left[s] = _get(entry, "catastrophes", int, where)
        st.held[s] = _get(entry, "treasures", int, where)
    bag = _get(doc, "bag", list, "position")
    st.bag = [_colour(x, "bag") for x in reversed(bag)]
    st.removed = _count_map(doc.get("removed"), "removed")
    log = _get(doc, "score_log", list, "position")
    for i, e in enumerate(log):
        if not (
            isinstance(e, list) and len(e) == 4 and isinstance(e[0], int) and isinstance(e[2], int)
        ):
            raise RecordError(f"position: score_log[{i}] must be [seat, colour, points, reason]")
        st.score_log.append((e[0], _colour(e[1], f"score_log[{i}]"), e[2], str(e[3])))
    turn = _get(doc, "turn", dict, "position")
    st.first = _get(turn, "first", int, "turn")
    st.active = _get(turn, "active", int, "turn")
    st.actions_done = _get(turn, "actions_done", int, "turn")
    st._version = _get(turn, "version", int, "turn")
    if not (0 <= st.first < players and 0 <= st.active < players and 0 <= st.actions_done <= 2):
        raise RecordError("position: turn.first/active must be seats and actions_done 0, 1 or 2")
    _read_pending(st, _get(doc, "pending", dict, "position"))
    return st


def _seat(v: Any, players: int, where: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < players:
        raise RecordError(f"position: {where} must be a seat number")
    return v


def _read_pending(st: BoardState, p: Mapping[str, Any]) -> None:
    phase = p.get("phase")
    if phase not in PHASE_NAMES:
        raise RecordError(f"position: pending.phase must be one of {', '.join(PHASE_NAMES)}")
    st.phase = PHASE_NAMES.index(phase)
    if "placed" in p:
        st.placed = _square(p["placed"], "pending.placed")
    st.wars = [_colour(c, "pending.wars") for c in p.get("wars", [])]
    if st.phase in (REVOLT, WAR):
        st.conflict_colour = _colour(p.get("colour"), "pending.colour")
        st.attacker = _seat(p.get("attacker"), st.players, "pending.attacker")
        st.defender = _seat(p.get("defender"), st.players, "pending.defender")
        st.att_sq = st.leader_sq[st.attacker][st.conflict_colour]
        st.def_sq = st.leader_sq[st.defender][st.conflict_colour]
        if st.att_sq < 0 or st.def_sq < 0:
            raise RecordError("position: both leaders of a pending conflict must be on the board")
        st.att_base = _get(p, "attacker_strength", int, "pending")
        st.def_base = _get(p, "defender_strength", int, "pending")
        ac = p.get("attacker_commit")
        st.att_commit = -1 if ac is None else ac
    if st.phase in (WAR, WAR_ORDER) and st.unification < 0:
        raise RecordError("position: a war needs the unification tile on the board")
    if st.phase == WAR_ORDER and len(st.wars) < 2:
        raise RecordError("position: the war order is chosen only among two or more wars")
    if st.phase == MONUMENT:
        opts = p.get("options")
        if not isinstance(opts, list) or not opts:
            raise RecordError("position: pending.options must list the monuments that can be built")
        for o in opts:
            if not isinstance(o, dict) or o.get("monument") not in MONUMENT_CODES:
                raise RecordError("position: pending.options entries are {monument, square}")
            st.monument_options.append(
                (MONUMENT_CODES.index(o["monument"]), _square(o.get("square"), "pending.options"))
            )
    if st.phase == TREASURE:
        st.treasure_owner = _seat(p.get("owner"), st.players, "pending.owner")
        st.treasure_choices = _mask(p.get("choices"), "pending.choices")
        if not st.treasure_choices or st.treasure_choices & ~st.treasures:
            raise RecordError("position: pending.choices must be treasures on the board")
    if st.phase == ACTION and st.unification >= 0:
        raise RecordError("position: the unification tile lies on the board only during wars")


# ---------------------------------------------------------------------- sampling
def unseen_tiles(view: Mapping[str, Any]) -> list[int]:
    """Tiles, by colour, that the view's seat cannot place: the other hands, the other
    players' discards and the bag (B-1 minus everything visible or known)."""
    known = [0, 0, 0, 0]
    board = view["board"]
    for c, name in enumerate(COLOUR_NAMES):
        known[c] += len(board["tiles"][name])
    for m in board["monuments"]:
        known[_colour(m["colour"], "monument")] += 4
    removed = view["removed"]
    viewer = view.get("viewer")
    for c, name in enumerate(COLOUR_NAMES):
        known[c] += removed[name]
        if viewer is not None:
            known[c] += (
                view["seats"][viewer]["hand"][name] + view["seats"][viewer]["discarded"][name]
            )
    pool: list[int] = []
    for c in range(4):
        missing = TILE_COUNTS[c] - known[c]
        if missing < 0:
            raise RecordError(f"view: more {COLOUR_NAMES[c]} tiles are visible than exist")
        pool.extend([c] * missing)
    return pool


def sample_from_view(view: Mapping[str, Any], rng: Rng) -> BoardState:
    """A full state consistent with `view`: the unseen tiles are shuffled and dealt to
    the other hands, the other discard piles and the bag, with the counts the view
    shows; the points of others are summed from the public scoring events."""
    pool = unseen_tiles(view)
    rng.shuffle(pool)
    viewer = view.get("viewer")
    skip = ("viewer", "decision", "legal", "outcome", "version", "active")
    doc: Json = {k: v for k, v in view.items() if k not in skip}
    doc["seed"] = 0
    seats = []
    for s, entry in enumerate(view["seats"]):
        e = dict(entry)
        if s != viewer:
            for key in ("hand", "discarded"):
                n = entry[key]["count"]
                if n > len(pool):
                    raise RecordError("view: fewer unseen tiles than hidden places to fill")
                part = [pool.pop() for _ in range(n)]
                e[key] = {COLOUR_NAMES[c]: part.count(c) for c in range(4)}
        if "points" not in e:
            pts = [0, 0, 0, 0]
            for seat, colour, n, _ in view["score_log"]:
                if seat == s:
                    pts[_colour(colour, "score_log")] += n
            e["points"] = _counts(pts)
        seats.append(e)
    doc["seats"] = seats
    if len(pool) != view["bag"]["count"]:
        raise RecordError(
            f"view: {len(pool)} unseen tiles remain for a bag of {view['bag']['count']}"
        )
    doc["bag"] = [COLOUR_NAMES[c] for c in pool]
    return from_position(doc)


def check_conservation(st: BoardState) -> None:
    """Assert all 153 tiles and the catastrophes and treasures are accounted for."""
    total = [0, 0, 0, 0]
    for c in range(4):
        total[c] += st.tiles[c].bit_count() + st.removed[c] + st.bag.count(c)
        total[c] += sum(h[c] for h in st.hands) + sum(d[c] for d in st.discarded)
    for _, _, c in st.monuments:
        total[c] += 4
    assert tuple(total) == TILE_COUNTS, (total, TILE_COUNTS)
    assert st.flipped == sum_blocks(st)
    assert not (st.catas & st.occupied) and st.catas & ~FULL == 0
    catas_used = st.catas.bit_count()
    assert catas_used + sum(st.catas_left) == 2 * st.players
    assert st.treasures.bit_count() + sum(st.held) == st.map.temples.bit_count()


def sum_blocks(st: BoardState) -> int:
    m = 0
    for _, tl, _ in st.monuments:
        m |= block_mask(tl)
    return m

"""Build board-game positions for tests from a few readable strings.

    st = scenario(
        players=2,
        tiles="r: F3 G3; b: E3; g: H3",     # face-up tiles by colour
        leaders="0K: G4; 1P: E4",           # seat + leader letter: square
        hands={0: "rrbg", 1: "kkk"},        # colour letters
        treasures="F3",                     # default: none
        active=0,
    )

Everything not given is empty; the bag holds the remaining tiles (so all 153 are
accounted for) unless `bag` is given, in draw order. A position must account for all
material (B-1, B-2), so the treasures not on the board are held by the seats (`held`,
else all by the last seat), the catastrophes on the board come out of the
seats' supplies (`catastrophes_left`, else from seat 0 on), and `points` are given as
one-point scoring events.
"""

from __future__ import annotations

from typing import Any

from euphrates.board.maps import ADVANCED, STANDARD
from euphrates.board.phases import TILE_COUNTS
from euphrates.board.position import from_position
from euphrates.board.state import BoardState
from euphrates.core.colours import COLOUR_NAMES, LEADER_LETTERS, LEADER_NAMES, parse_colour


def _tiles(spec: str) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {n: [] for n in COLOUR_NAMES}
    for part in filter(None, (p.strip() for p in spec.split(";"))):
        colour, squares = part.split(":")
        c = parse_colour(colour)
        assert c is not None, colour
        out[COLOUR_NAMES[c]].extend(squares.split())
    return out


def _hand(letters: str) -> dict[str, int]:
    counts = dict.fromkeys(COLOUR_NAMES, 0)
    for ch in letters:
        c = parse_colour(ch)
        assert c is not None, ch
        counts[COLOUR_NAMES[c]] += 1
    return counts


def scenario(
    players: int = 2,
    tiles: str = "",
    leaders: str = "",
    hands: dict[int, str] | None = None,
    treasures: str = "",
    catastrophes: str = "",
    monuments: list[tuple[str, str, str]] | None = None,
    active: int = 0,
    actions_done: int = 0,
    bag: str | None = None,
    points: dict[int, str] | None = None,
    catastrophes_left: dict[int, int] | None = None,
    advanced: bool = False,
    open_scores: bool = False,
    held: dict[int, int] | None = None,
) -> BoardState:
    tile_map = _tiles(tiles)
    temples = (ADVANCED if advanced else STANDARD).temples.bit_count()
    if held is None:
        held = {players - 1: temples - len(treasures.split())}
    if catastrophes_left is None:
        laid = len(catastrophes.split())
        catastrophes_left = {s: 2 - min(2, max(0, laid - 2 * s)) for s in range(players)}
    seats: list[dict[str, Any]] = []
    score_log: list[list[Any]] = []
    for s in range(players):
        seat_points = _hand((points or {}).get(s, ""))
        for colour, n in seat_points.items():
            score_log.extend([s, colour, 1, "tile"] for _ in range(n))
        seats.append(
            {
                "leaders": dict.fromkeys(LEADER_NAMES),
                "hand": _hand((hands or {}).get(s, "")),
                "catastrophes": catastrophes_left.get(s, 2),
                "points": seat_points,
                "treasures": held.get(s, 0),
                "discarded": _hand(""),
            }
        )
    for part in filter(None, (p.strip() for p in leaders.split(";"))):
        who, square = part.split(":")
        who = who.strip()
        seat, letter = int(who[:-1]), who[-1]
        seats[seat]["leaders"][LEADER_NAMES[LEADER_LETTERS.index(letter)]] = square.strip()
    mons = [{"monument": m, "square": sq, "colour": c} for m, sq, c in (monuments or [])]
    used = [len(tile_map[n]) for n in COLOUR_NAMES]
    for m in mons:
        c = parse_colour(m["colour"])
        assert c is not None
        used[c] += 4
    for seat_doc in seats:
        for i, name in enumerate(COLOUR_NAMES):
            used[i] += seat_doc["hand"][name]
    if bag is None:
        bag_list = [
            name for i, name in enumerate(COLOUR_NAMES) for _ in range(TILE_COUNTS[i] - used[i])
        ]
    else:
        bag_list = [COLOUR_NAMES[parse_colour(ch) or 0] for ch in bag]
    removed = dict.fromkeys(COLOUR_NAMES, 0)
    if bag is not None:
        for i, name in enumerate(COLOUR_NAMES):
            removed[name] = max(0, TILE_COUNTS[i] - used[i] - bag_list.count(name))
    doc = {
        "format": 1,
        "game": "board",
        "players": players,
        "options": {"advanced": advanced, "open_scores": open_scores},
        "seed": 0,
        "board": {
            "tiles": tile_map,
            "monuments": mons,
            "catastrophes": catastrophes.split(),
            "treasures": treasures.split(),
            "unification": None,
        },
        "seats": seats,
        "bag": bag_list,
        "removed": removed,
        "score_log": score_log,
        "turn": {"first": 0, "active": active, "actions_done": actions_done, "version": 0},
        "pending": {"phase": "action"},
    }
    return from_position(doc)


STANDARD_TEMPLES = "K1 B2 P2 F3 N5 I7 B8 O9 F10 K11"
# Three treasures far from every scenario, so that a turn can end without the game
# ending (B-19 ends it when at most two treasures are left).
FAR = "P2 O9 B8"


def playing(**kw: Any) -> BoardState:
    """`scenario` plus three remote temples with treasures on them."""
    tiles = kw.pop("tiles", "")
    treasures = kw.pop("treasures", "")
    return scenario(tiles=f"{tiles}; r: {FAR}", treasures=f"{treasures} {FAR}", **kw)


def play(st: BoardState, *actions: str) -> list[Any]:
    """Apply actions in notation; returns all events."""
    events: list[Any] = []
    for a in actions:
        events.extend(st.apply(a))
    return events


def scored(events: list[Any]) -> list[tuple[int, str, int, str]]:
    return [
        (e.data["seat"], e.data["colour"], e.data["points"], e.data["reason"])
        for e in events
        if e.kind == "scored"
    ]

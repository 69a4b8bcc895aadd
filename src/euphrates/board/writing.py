"""The state written out: the JSON position format and the view of one seat.

Writing needs only the state's data, so the facade (`state.BoardState.view`) and the
readers above it (`position.from_position`, `views.sample_from_view`) share this one
writer and the formats cannot drift apart. docs/board.md describes both formats.
"""

from __future__ import annotations

from itertools import compress
from typing import Final

from euphrates.board.actions import MONUMENT_CODES
from euphrates.board.data import BoardData
from euphrates.board.geometry import SQUARE_NAMES, bits_of, square_name
from euphrates.board.phases import MONUMENT, OVER, PHASE_NAMES, REVOLT, TILE_COUNTS, TREASURE, WAR
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES
from euphrates.core.protocol import Json

FORMAT: Final = 1
TOTAL_TILES: Final = sum(TILE_COUNTS)
MAX_VERSION: Final = 10**9
"""Actions a position may claim to have been played. A game can in principle go on for
ever (everyone passes), so this is a sanity bound, far above any game played."""
MAX_SCORE_LOG: Final = 100_000
"""Scoring events a position may list (a real game has a few hundred)."""
MAX_POINTS: Final = 10**9

POSITION_KEYS: Final = (
    "format",
    "game",
    "players",
    "options",
    "seed",
    "board",
    "seats",
    "bag",
    "removed",
    "score_log",
    "turn",
    "pending",
)


# ---------------------------------------------------------------------- writing
def _counts(xs: list[int]) -> dict[str, int]:
    return {COLOUR_NAMES[c]: xs[c] for c in range(4)}


def _names(mask: int) -> list[str]:
    return list(compress(SQUARE_NAMES, bits_of(mask)))


def _sq(s: int) -> str | None:
    return square_name(s) if s >= 0 else None


def to_position(st: BoardData) -> Json:
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
        pending["choices"] = _names(st.treasure_choices)
    return {
        "format": FORMAT,
        "game": "board",
        "players": st.players,
        "options": {"advanced": st.advanced, "open_scores": st.open_scores},
        "seed": st.seed,
        "board": {
            "tiles": {COLOUR_NAMES[c]: _names(st.tiles[c]) for c in range(4)},
            "monuments": [
                {"monument": MONUMENT_CODES[m], "square": square_name(s), "colour": COLOUR_NAMES[c]}
                for m, s, c in st.monuments
            ],
            "catastrophes": _names(st.catas),
            "treasures": _names(st.treasures),
            "bordered_treasures": _names(st.treasures & st.map.bordered),
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


# ---------------------------------------------------------------------- views
VIEW_ONLY = ("viewer", "version", "decision", "legal", "active", "outcome", "not_seen")
"""Keys a view adds to the position (the seed is the one it takes away)."""
VIEW_KEYS = (*(key for key in POSITION_KEYS if key != "seed"), *VIEW_ONLY)


def not_seen(st: BoardData) -> Json:
    """Tiles of each colour not yet seen in the open (B-1): the colour's total less those
    on the board, under monuments and taken off openly (revolts, wars, catastrophes,
    B-12, B-25, B-19). The rest are in the bag, in hands or swapped away; which of these,
    the figure does not say, so it is the same for every seat and for spectators."""
    counts = [TILE_COUNTS[c] - st.tiles[c].bit_count() - st.removed[c] for c in range(4)]
    for _, _, c in st.monuments:
        counts[c] -= 4
    return _counts(counts)


def view_of(st: BoardData, seat: int | None, decided: Json) -> Json:
    """What `seat` may see (None: a spectator), B-33 and G-3. `decided` holds the
    protocol's part of every view (`core.protocol.decision_fields`), which the facade
    computes."""
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
    doc.update(decided)
    doc["active"] = st.active
    out = st.outcome()
    doc["outcome"] = None if out is None else out.to_json()
    doc["not_seen"] = not_seen(st)
    return doc

"""ASCII rendering of the board in the style of board-map.md, plus what the viewer may
see of the players, for terminals, logs and bug reports. Renders a view, so it can
never show anything hidden."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from euphrates.board.geometry import COLUMN_LETTERS, HEIGHT, WIDTH, parse_square
from euphrates.board.maps import board_map
from euphrates.board.monuments import block_mask
from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES, LEADER_LETTERS, LEADER_NAMES

LEGEND = (
    "legend: . land  ~ river  r b g k tiles (red blue green black)  $ treasure\n"
    "        * the unification tile  # monument tile  X catastrophe\n"
    "        P F T K leaders (priest farmer trader king) followed by their seat"
)


def render_view(view: Mapping[str, Any]) -> str:
    """The board, its legend and the players, in English (the terminal says the legend
    and the players in the player's language, terminal/status.py)."""
    return "\n".join([*grid(view), "", LEGEND, "", *_players(view)])


def grid(view: Mapping[str, Any]) -> list[str]:
    """Two characters a square: what is on it, then a mark (treasure, seat, ...)."""
    m = board_map(bool(view["options"]["advanced"]))
    cells = [["  "] * WIDTH for _ in range(HEIGHT)]

    def put(name: str, text: str) -> None:
        sq = parse_square(name)
        cells[sq // WIDTH][sq % WIDTH] = text

    for sq in range(WIDTH * HEIGHT):
        cells[sq // WIDTH][sq % WIDTH] = "~ " if m.river >> sq & 1 else ". "
    board = view["board"]
    for c, name in enumerate(COLOUR_NAMES):
        for s in board["tiles"][name]:
            put(s, COLOUR_LETTERS[c] + " ")
    for mon in board["monuments"]:
        tl = parse_square(mon["square"])
        for sq in range(WIDTH * HEIGHT):
            if block_mask(tl) >> sq & 1:
                cells[sq // WIDTH][sq % WIDTH] = "# "
    for s in board["catastrophes"]:
        put(s, "X ")
    for s in board["treasures"]:
        sq = parse_square(s)
        cell = cells[sq // WIDTH][sq % WIDTH]
        cells[sq // WIDTH][sq % WIDTH] = cell[0] + "$"
    if board["unification"]:
        sq = parse_square(board["unification"])
        cells[sq // WIDTH][sq % WIDTH] = cells[sq // WIDTH][sq % WIDTH][0] + "*"
    for seat, entry in enumerate(view["seats"]):
        for c, lname in enumerate(LEADER_NAMES):
            at = entry["leaders"][lname]
            if at:
                put(at, f"{LEADER_LETTERS[c]}{seat}")
    lines = ["    " + " ".join(COLUMN_LETTERS)]
    for y in range(HEIGHT):
        lines.append(f"{y + 1:>2}  " + "".join(cells[y]).rstrip())
    return lines


def colour_counts(counts: Mapping[str, int]) -> str:
    """A count per colour in the notation's letters: "4r 2b 0g 0k"."""
    return " ".join(f"{counts[n]}{COLOUR_LETTERS[c]}" for c, n in enumerate(COLOUR_NAMES))


def off_board(entry: Mapping[str, Any]) -> str:
    """The letters of a seat's leaders not on the board ("PFTK"), "-" for none."""
    letters = "".join(
        LEADER_LETTERS[c] for c, n in enumerate(LEADER_NAMES) if not entry["leaders"][n]
    )
    return letters or "-"


def _players(view: Mapping[str, Any]) -> list[str]:
    out = []
    active = view["turn"]["active"]
    viewer = view.get("viewer")
    for seat, entry in enumerate(view["seats"]):
        mark = ">" if seat == active else " "
        hand = entry["hand"]
        hand_text = f"{hand['count']} tiles" if "count" in hand else colour_counts(hand)
        off = off_board(entry)
        pts = entry.get("points")
        pts_text = "points " + colour_counts(pts) if pts is not None else "points hidden (B-33)"
        you = " (you)" if seat == viewer else ""
        out.append(
            f"{mark} seat {seat}{you}: hand {hand_text}; {pts_text}; treasures {entry['treasures']}; "
            f"catastrophes {entry['catastrophes']}; leaders off board {off}"
        )
    out.append(
        f"  bag: {view['bag']['count'] if isinstance(view['bag'], dict) else len(view['bag'])} tiles"
    )
    bordered = view["board"].get("bordered_treasures") or []
    out.append(
        f"  treasures on the board: {len(view['board']['treasures'])}; bordered, taken first "
        f"(B-30): {' '.join(bordered) or 'none'}"
    )
    d = view.get("decision")
    if d:
        out.append(f"  pending: {d['kind']} of seat {d['seat']}")
    if view.get("outcome"):
        o = view["outcome"]
        out.append(
            "  game over; places " + ", ".join(f"seat {s}: {p}" for s, p in enumerate(o["places"]))
        )
    return out

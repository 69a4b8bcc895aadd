"""An ASCII picture of what one seat may see, drawn from its view (so it cannot leak).

seat 0 to move: action (2 left)
         1         2         3         4    ...
  0    T  K1 -g- T  P0      R             <- heads: T treasure card, R red head;
  1    r  T2     g          b                between heads the bridge (? face down)
  2    bk        g
K0 on bridge 1-2
"""

from __future__ import annotations

from typing import Any

from euphrates.cards.layout import COLUMNS, GAPS, MAX_CARDS
from euphrates.core.colours import LEADER_LETTERS

CELL = 7
GAP = 5


def _leaders_by_spot(view: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for seat, entry in enumerate(view["leaders"]):
        for letter in LEADER_LETTERS:
            where = entry.get(letter)
            if where is not None:
                out.setdefault(where, []).append(f"{letter}{seat}")
    return out


def render(view: dict[str, Any]) -> str:
    lay = view["layout"]
    on = _leaders_by_spot(view)
    lines: list[str] = []
    pending = view["pending"]
    if view["over"]:
        places = view["outcome"]["places"] if view["outcome"] else []
        lines.append("game over; places by seat: " + " ".join(str(p) for p in places))
    else:
        extra = f" ({view['actions_left']} left)" if pending["kind"] == "action" else ""
        lines.append(f"seat {pending['seat']} to move: {pending['kind']}{extra}")
    header = "    "
    for c in range(COLUMNS):
        header += f"{c + 1:<{CELL}}" + (" " * GAP if c < GAPS else "")
    lines.append(header.rstrip())
    for row in range(MAX_CARDS + 1):
        line = f"{row:>2}  "
        any_card = row == 0
        for c in range(COLUMNS):
            if row == 0:
                card = "T" if lay["heads"][c] == "t" else "R"
            else:
                col = lay["columns"][c]
                card = col[row - 1] if row <= len(col) else ""
                any_card = any_card or bool(card)
            who = ",".join(on.get(f"{c + 1}.{row}", []))
            line += f"{card:<3}{who:<{CELL - 3}}"
            if c < GAPS:
                if row == 0:
                    b = lay["bridges"][c]
                    line += f" -{b}- " if b is not None else " " * GAP
                else:
                    line += " " * GAP
        if any_card:
            lines.append(line.rstrip())
    for g in range(GAPS):
        name = f"{g + 1}-{g + 2}"
        if name in on:
            lines.append(f"{','.join(on[name])} on bridge {name}")
    if lay["face_down"]:
        lines.append(f"bridge {lay['face_down']} lies face down")
    hands = view["hand_counts"]
    for seat in range(view["players"]):
        supply = "".join(ch for ch in LEADER_LETTERS if view["leaders"][seat][ch] is None)
        pile = view["piles"][seat]
        pile_text = (
            f"pile {pile['height']} (top {pile['top'] or '-'})"
            if "height" in pile
            else "piles " + " ".join(f"{k}{v}" for k, v in pile.items())
        )
        hand = f" hand {view['hand']}" if view["viewer"] == seat else ""
        cat = "catastrophe left" if view["catastrophes"][seat] else "catastrophe used"
        lines.append(
            f"seat {seat}: {hands[seat]} cards{hand}; supply {supply or '-'}; {cat}; {pile_text}"
        )
    lines.append(
        f"deck {view['deck_count']}  discard {len(view['discard'])}  ships {' '.join(view['ships']) or '-'}"
    )
    return "\n".join(lines) + "\n"

"""An ASCII picture of what one seat may see, drawn from its view (so it cannot leak).

seat 0 to move: action 1 of 2
         1         2         3         4    ...
  0    T  K1 -g- T  P0      R             <- heads: T treasure card, R red head;
  1    r  T2     g          b                between heads the bridge (? face down)
  2    bk        g
K0 on bridge 1-2
"""

from __future__ import annotations

from typing import Any

from euphrates.cards.layout import COLUMNS, GAPS, MAX_CARDS
from euphrates.core.colours import COLOUR_NAMES, LEADER_LETTERS, LEADER_NAMES

CELL = 7
GAP = 5


def leaders_by_spot(view: dict[str, Any]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for seat, entry in enumerate(view["leaders"]):
        for letter in LEADER_LETTERS:
            where = entry.get(letter)
            if where is not None:
                out.setdefault(where, []).append(f"{letter}{seat}")
    return out


def describe(decision: dict[str, Any]) -> str:
    """The pending decision in words, from its public context (docs/cards.md, "Decision
    contexts"): the same vocabulary as the board game's."""
    kind, ctx = decision["kind"], decision["context"]
    if kind == "action":
        return f"action {ctx['action']} of 2"
    if kind == "commit":
        leader = LEADER_NAMES[COLOUR_NAMES.index(ctx["colour"])]
        committed = ctx["attacker_commit"]
        attacker = f"seat {ctx['attacker']}'s {leader} at {ctx['attacker_leader']}"
        defender = f"seat {ctx['defender']}'s at {ctx['defender_leader']}"
        return (
            f"commit {ctx['commit_colour']} cards as the {ctx['role']}: {ctx['conflict']} of "
            f"{attacker} (strength {ctx['attacker_strength']}"
            + ("" if committed is None else f", committed {committed}")
            + f") against {defender} (strength {ctx['defender_strength']})"
        )
    if kind == "war_order":
        return "war_order: choose the next war of " + ", ".join(ctx["wars"])
    if kind == "point":
        return f"point: pay a {ctx['colour']} card for the {ctx['reason']}, or none"
    if kind == "ship_point":
        return f"ship_point: pay a {ctx['colour']} card for the {ctx['leader']}'s ship, or none"
    if kind == "exchange":
        lo, hi = ctx["kingdom"]
        heads = " ".join(str(c) for c in ctx["treasures"])
        return f"exchange: take a treasure card of kingdom {lo}-{hi} (heads {heads}), or none"
    if kind == "ship":
        return f"ship in column {ctx['column']}: {' '.join(ctx['ships'])}, or decline"
    return str(kind)


def render(view: dict[str, Any]) -> str:
    lines: list[str] = []
    if view["over"]:
        places = view["outcome"]["places"] if view["outcome"] else []
        lines.append("game over; places by seat: " + " ".join(str(p) for p in places))
    else:
        decision = view["decision"]
        lines.append(f"seat {decision['seat']} to move: {describe(decision)}")
    lines.extend(grid(view))
    lines.extend(_others(view))
    return "\n".join(lines) + "\n"


def grid(view: dict[str, Any]) -> list[str]:
    """The layout: heads, columns and bridges, a column's leaders beside its cards (the
    notation's letters, the same in every language)."""
    lay = view["layout"]
    on = leaders_by_spot(view)
    lines: list[str] = []
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
    return lines


def _others(view: dict[str, Any]) -> list[str]:
    """In English: leaders on bridges, a face-down bridge, the seats, the piles."""
    lay = view["layout"]
    on = leaders_by_spot(view)
    lines: list[str] = []
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
    return lines

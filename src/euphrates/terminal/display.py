"""What the terminal shows: the coloured board, the legal moves grouped by kind, short
prompts, a conflict's sides before a commitment, and the final scoring explained."""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.table import Table
from rich.text import Text

from euphrates.core.colours import COLOUR_NAMES
from euphrates.core.protocol import Decision, Outcome
from euphrates.match.narrate import (
    Words,
    and_list,
    colour_word,
    leader_word,
    plural,
    winners_words,
)

STYLES = {
    "r": "bold white on red",
    "b": "bold white on blue",
    "g": "bold white on green",
    "k": "bold white on grey23",
    "#": "bold black on yellow",
    "X": "bold white on magenta",
    "~": "blue",
    ".": "grey50",
}
LEADER_STYLES = {"P": "bold red", "F": "bold blue", "T": "bold green", "K": "bold white"}


def colour_board(text: str) -> Text:
    """Colour the two-character cells of the board's ASCII rendering."""
    out = Text()
    lines = text.splitlines()
    for n, line in enumerate(lines):
        is_grid = n > 0 and len(line) > 4 and line[:2].strip().isdigit() and line[2:4] == "  "
        if not is_grid:
            out.append(line + "\n")
            continue
        out.append(line[:4])
        cells = line[4:]
        for i in range(0, len(cells), 2):
            cell = cells[i : i + 2]
            head = cell[:1]
            if head in LEADER_STYLES and cell[1:2].isdigit():
                out.append(cell, LEADER_STYLES[head] + " on grey15")
            else:
                out.append(cell, STYLES.get(head, ""))
        out.append("\n")
    return out


# --- help: every legal move, grouped ----------------------------------------------------
_KINDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^([rbgk])[A-P]\d+$"), "{c} tile"),
    (re.compile(r"^([PFTK])[A-P]\d+$"), "{l}"),
    (re.compile(r"^([PFTK])-$"), "withdraw"),
    (re.compile(r"^([rbgk])\d+$"), "{c} card"),
    (re.compile(r"^([rbgk])\d+-\d+$"), "{c} bridge"),
    (re.compile(r"^([PFTK])\d+[.-]\d+$"), "{l}"),
    (re.compile(r"^x"), "catastrophe"),
]


def move_kind(text: str) -> str:
    """The group a move belongs to in `help`: `red tile`, `king`, `swap`, `commit`, ..."""
    for pattern, label in _KINDS:
        m = pattern.match(text)
        if m:
            letter = m.group(1) if m.groups() else ""
            return label.format(c=colour_word(letter), l=leader_word(letter))
    return text.split(" ")[0]


def group_legal(legal: Sequence[str], width: int = 80) -> list[str]:
    """Every legal move, grouped by kind and laid out in columns within `width`: a kind
    may take several lines, but no move is ever split or left out."""
    groups: dict[str, list[str]] = {}
    for a in legal:
        groups.setdefault(move_kind(a), []).append(a)
    labels = {kind: f"{kind} ({len(items)})" for kind, items in groups.items()}
    indent = max((len(label) for label in labels.values()), default=0) + 2
    lines = []
    for kind, items in groups.items():
        cell = max(len(a) for a in items) + 2
        per_line = max(1, (width - indent) // cell)
        for n in range(0, len(items), per_line):
            label = labels[kind] if n == 0 else ""
            row = "".join(a.ljust(cell) for a in items[n : n + per_line]).rstrip()
            lines.append(f"{label:>{indent - 2}}  {row}")
    return lines


# --- prompts ----------------------------------------------------------------------------
def _ctx(context: Mapping[str, Any], *names: str) -> Any:
    for name in names:
        if context.get(name) is not None:
            return context[name]
    return None


def _commit_range(legal: Sequence[str]) -> str:
    counts = [int(a.split()[1]) for a in legal if a.startswith("commit ") and a[7:].isdigit()]
    return f"{min(counts)}–{max(counts)}" if counts else "0"


def prompt(game: str, decision: Decision, legal: Sequence[str]) -> str:
    """A short prompt for the person's pending decision."""
    c = decision.context
    noun = "tiles" if game == "board" else "cards"
    kind = decision.kind
    if kind == "action":
        number = _ctx(c, "action")
        if number is None and _ctx(c, "actions_left") is not None:
            number = 3 - int(c["actions_left"])
        return f"your action {number}/2 > " if number in (1, 2) else "your action > "
    if kind == "commit":
        colour = colour_word(_ctx(c, "commit_colour", "colour"))
        return f"commit {colour} {noun} ({_commit_range(legal)}) > "
    if kind in ("point", "ship_point"):
        colour = colour_word(_ctx(c, "colour"))
        letter = colour[:1] if colour != "black" else "k"
        return f"a {colour} card to your pile? (point {letter} / point none) > "
    choices = " / ".join(legal)
    if len(legal) <= 6:
        return f"{kind.replace('_', ' ')}: {choices} > "
    return f"your {kind.replace('_', ' ')} (help lists the {len(legal)} choices) > "


def situation(game: str, decision: Decision, names: Sequence[str], seat: int) -> str | None:
    """What a decision is about, said once before its prompt: a conflict's sides and
    strengths, the wars to order, a point's reason."""
    c = decision.context
    w = Words(seat, names)
    kind = decision.kind
    if kind == "commit":
        colour = colour_word(_ctx(c, "colour"))
        conflict = _ctx(c, "conflict") or "conflict"
        att, dfn = _ctx(c, "attacker"), _ctx(c, "defender")
        a_str, d_str = _ctx(c, "attacker_strength"), _ctx(c, "defender_strength")
        role = _ctx(c, "role")
        if conflict == "war":
            head = f"{colour} war"
        elif game == "board" and colour in COLOUR_NAMES:
            head = f"revolt of the {leader_word(COLOUR_NAMES.index(colour))}s"
        else:
            head = str(conflict)
        verb = "attack" if att == seat else "attacks"
        text = f"{head}: {w.who(att)} {verb} {w.who(dfn)}; strength {a_str} against {d_str}"
        commit = _ctx(c, "attacker_commit")
        if role == "defender" and commit is not None and isinstance(a_str, int):
            text += (
                f"; {w.who(att)} committed {commit}: {a_str + int(commit)} against your "
                f"{d_str} so far, a tie goes to you"
            )
        elif role == "attacker":
            text += " before commitments; you commit first, a tie goes to the defender"
        return text
    if kind == "war_order":
        wars = _ctx(c, "wars") or []
        return f"wars to fight: {and_list([colour_word(x) for x in wars])}; choose the next"
    if kind == "point":
        reason = _ctx(c, "reason")
        why = {
            "column": "a card of its colour reached your leader's kingdom (C-9)",
            "revolt": "you won the revolt with nothing committed (C-10)",
            "war": "you won the war with nothing committed (C-13)",
        }.get(str(reason))
        return why
    if kind == "ship_point":
        leader = leader_word(_ctx(c, "leader"))
        return f"your {leader} stands in a kingdom with a ship of its colour (C-16)"
    if kind == "exchange":
        cols = _ctx(c, "treasures") or []
        heads = and_list([str(x) for x in cols])
        return f"your trader may exchange treasure cards heading columns {heads} (C-14)"
    if kind == "monument":
        return f"the block at {_ctx(c, 'square')} may take a monument (B-28)"
    if kind == "treasure":
        return "your trader takes a treasure (B-30)"
    return None


# --- the end ----------------------------------------------------------------------------
def scoring_table(
    outcome: Outcome, names: Sequence[str], labels: Sequence[str], seat: int, game: str
) -> Table:
    """Each player's points per colour, treasures added as wildcards, and the totals."""
    treasure = "treasures" if game == "board" else "treasure cards"
    table = Table(title=f"final scoring ({treasure} count as wildcards; B-32, C-18)")
    table.add_column("seat")
    for name in COLOUR_NAMES:
        table.add_column(name, justify="right")
    table.add_column("weakest first", justify="left")
    table.add_column("place", justify="right")
    w = Words(seat, names)
    for s in outcome.ranking:
        cells = []
        for c in range(len(COLOUR_NAMES)):
            p, wild, total = outcome.points[s][c], outcome.wildcards[s][c], outcome.totals[s][c]
            cells.append(f"{p} + {wild} = {total}" if wild else str(total))
        table.add_row(
            f"{w.who(s)}" if s == seat else f"{w.who(s)} ({labels[s]})",
            *cells,
            " ".join(str(t) for t in sorted(outcome.totals[s])),
            str(outcome.places[s]),
        )
    return table


_ORDINALS = ("weakest", "second weakest", "third weakest", "strongest")


def compare(outcome: Outcome, a: int, b: int, w: Words) -> str:
    """Why seat `a` is ahead of seat `b` (or level with it): the weakest colour first,
    then the next weakest, and so on (B-32)."""
    ta, tb = sorted(outcome.totals[a]), sorted(outcome.totals[b])
    for i, (x, y) in enumerate(zip(ta, tb, strict=True)):
        if x != y:
            level = "" if i == 0 else f"level in the {and_list(list(_ORDINALS[:i]))} colours, "
            verb = "are" if a == w.viewer else "is"
            return (
                f"{w.who(a)} {verb} ahead of {w.who(b)}: {level}{x} against {y} in the "
                f"{_ORDINALS[i]} colour"
            )
    return f"{w.who(a)} and {w.who(b)} are level in every colour and share a place"


def final_words(outcome: Outcome, names: Sequence[str], seat: int) -> list[str]:
    w = Words(seat, names)
    lines = []
    ranking = outcome.ranking
    for a, b in itertools.pairwise(ranking):
        lines.append(compare(outcome, a, b, w))
    lines.append(winners_words(w, outcome.places))
    place = outcome.places[seat]
    lines.append(f"you are placed {place} of {len(outcome.places)}")
    treasures = sum(outcome.wildcards[seat])
    if treasures:
        lines.append(f"your {plural(treasures, 'treasure')} went to your weakest colours")
    return lines

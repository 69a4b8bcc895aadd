"""What the terminal shows: the coloured board, the legal moves grouped by kind, short
prompts, a conflict's sides before a commitment, and the final scoring explained."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence

from rich.table import Table
from rich.text import Text

from euphrates.core.colours import COLOUR_NAMES
from euphrates.core.protocol import Decision, Outcome
from euphrates.games import game_definition
from euphrates.words import Voice, decisions
from euphrates.words.voice import colour_of, leader_of

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


COLOURINGS: dict[str, Callable[[str], Text]] = {"board": colour_board}
"""The games whose drawing the terminal colours, by name: the terminal's own styling
of a drawing it knows (the board's grid of two-character cells). Any other game's
drawing is shown as the engine draws it."""


def coloured(game: str, drawing: str) -> Text:
    """The engine's drawing of `game` as the terminal shows it."""
    return COLOURINGS.get(game, Text)(drawing)


# --- help: every legal move, grouped ----------------------------------------------------
_KINDS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^([rbgk])[A-P]\d+$"), "help.tile"),
    (re.compile(r"^([PFTK])[A-P]\d+$"), "leader"),
    (re.compile(r"^([PFTK])-$"), "help.withdraw"),
    (re.compile(r"^([rbgk])\d+$"), "help.card"),
    (re.compile(r"^([rbgk])\d+-\d+$"), "help.bridge"),
    (re.compile(r"^([PFTK])\d+[.-]\d+$"), "leader"),
    (re.compile(r"^x"), "help.catastrophe"),
]


def move_kind(text: str, v: Voice, game: str) -> str:
    """The group a move belongs to in `help`: `red tile`, `king`, `swap`, `commit`, ..."""
    for pattern, key in _KINDS:
        m = pattern.match(text)
        if m:
            letter = m.group(1) if m.groups() else ""
            if key == "leader":
                return v.t(f"leader.{leader_of(letter)}")
            return v.t(key, colour=v.t(f"colour.{colour_of(letter)}"))
    word = text.split(" ")[0]
    note = f"{game_definition(game).words_prefix}note.{word}"
    return v.t(note) if note in v.book else word


def group_legal(legal: Sequence[str], v: Voice, game: str, width: int = 80) -> list[str]:
    """Every legal move, grouped by kind and laid out in columns within `width`: a kind
    may take several lines, but no move is ever split or left out."""
    groups: dict[str, list[str]] = {}
    for a in legal:
        groups.setdefault(move_kind(a, v, game), []).append(a)
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
def prompt(game: str, decision: Decision, legal: Sequence[str], v: Voice) -> str:
    """A short prompt for the person's pending decision."""
    return f"{decisions.prompt(v, game, decision.kind, decision.context, legal)} > "


def situation(game: str, decision: Decision, v: Voice) -> str | None:
    """What a decision is about, said once before its prompt: a conflict's sides and
    strengths, the wars to order, a point's reason."""
    return decisions.situation(v, game, decision.kind, decision.context)


# --- the end ----------------------------------------------------------------------------
def scoring_table(outcome: Outcome, labels: Sequence[str], v: Voice, game: str) -> Table:
    """Each player's points per colour, treasures added as wildcards, and the totals."""
    definition = game_definition(game)
    wild = v.t(f"{definition.words_prefix}score.wild")
    table = Table(title=v.t("term.scoring", wild=wild, rule=definition.scoring_ruling))
    table.add_column(v.t("score.player"))
    for name in COLOUR_NAMES:
        table.add_column(v.t(f"colour.{name}"), justify="right")
    table.add_column(v.t("score.sorted"), justify="left")
    table.add_column(v.t("score.place"), justify="right")
    for s in outcome.ranking:
        cells = []
        for c in range(len(COLOUR_NAMES)):
            p, wild_n, total = outcome.points[s][c], outcome.wildcards[s][c], outcome.totals[s][c]
            cells.append(f"{p} + {wild_n} = {total}" if wild_n else str(total))
        table.add_row(
            v.name(s) if s == v.you else f"{v.name(s)} ({labels[s]})",
            *cells,
            " ".join(str(t) for t in sorted(outcome.totals[s])),
            str(outcome.places[s]),
        )
    return table


def compare(outcome: Outcome, a: int, b: int, v: Voice) -> str:
    """Why seat `a` is ahead of seat `b` (or level with it): the weakest colour first,
    then the next weakest, and so on (B-32, C-18), as the browser's scoring says it."""
    ta, tb = sorted(outcome.totals[a]), sorted(outcome.totals[b])
    seats = {"a": a, "b": b}
    for i, (x, y) in enumerate(zip(ta, tb, strict=True)):
        if x != y:
            return v.say("score.by", seats, nth=v.t(f"score.nth.{i + 1}"), x=x, y=y)
    return v.say("score.tie", seats)


def final_words(outcome: Outcome, v: Voice, game: str) -> list[str]:
    """Who won and why each player is ahead of the next; the person's place and where
    their treasures counted."""
    lines = [compare(outcome, a, b, v) for a, b in itertools.pairwise(outcome.ranking)]
    winners = list(outcome.winners)
    if winners == [v.you]:
        lines.append(v.t("score.wins.you"))
    else:
        key = "score.win_shared" if len(winners) > 1 else "score.wins"
        lines.append(v.t(key, names=v.listing([v.name(s) for s in winners])))
    if v.you is not None:
        lines.append(v.t("term.placed", place=outcome.places[v.you], n=len(outcome.places)))
        treasures = sum(outcome.wildcards[v.you])
        if treasures:
            lines.append(v.t(f"term.wildcards.{game}", n=treasures))
    return lines

"""No host asks which game it holds by the game's name.

What differs between the games is the engines' to say, through their definitions
(`core.protocol.GameDefinition`), or, where it is a host's own per-game code (a bot's
evaluation, the book's wording of decisions), a lookup by name that a new game adds
to. A comparison of a game's name with a literal (`game == "board"`, `view["game"] !=
"cards"`, `case "board":`) is a branch a third game would have to be written into, so
none may be left outside the engines — the server, its lobby and the bot host
included. The registry (`games.py`) is where the names are given.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

from euphrates.bots.evaluation import EVALUATORS
from euphrates.bots.features import READINGS
from euphrates.games import GAMES
from euphrates.words import KINDS
from euphrates.words.decisions import ASKING

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "euphrates"
SKIPPED = ("board", "cards")
"""The engines, which may name themselves."""
REGISTRY = PACKAGE / "games.py"
ALLOWED = {
    ("terminal/game.py", 'word == "board"'),  # the terminal's `board` command, not a game
}
"""Comparisons with a literal that happens to spell a game's name, each read and
found to be about something else: (path under `euphrates/`, the comparison)."""


def _names(node: ast.expr) -> set[str]:
    """The games' names that `node` spells: a string, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value} & set(GAMES)
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return set().union(*(_names(e) for e in node.elts)) if node.elts else set()
    return set()


def comparisons(source: str) -> Iterator[tuple[int, str]]:
    """Each comparison with a game's name in `source`: its line and its text."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            if any(_names(operand) for operand in (node.left, *node.comparators)):
                yield node.lineno, ast.get_source_segment(source, node) or ""
        elif isinstance(node, ast.MatchValue) and _names(node.value):
            yield node.lineno, f"case {ast.get_source_segment(source, node.value)}:"


def _hosts() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*.py")):
        part = path.relative_to(PACKAGE).parts[0]
        if part not in SKIPPED and path != REGISTRY:
            yield path


def test_the_reader_finds_every_form_of_comparison() -> None:
    source = (
        'if game == "board": pass\n'
        'if view["game"] != "cards": pass\n'
        'x = "board" if self.name in ("cards", "x") else "cards"\n'
        'match g:\n    case "board": pass\n'
        'if word == "help" or name is None: pass\n'
    )
    found = [line for line, _ in comparisons(source)]
    assert found == [1, 2, 3, 5]


def test_no_host_compares_a_game_name_with_a_literal() -> None:
    found = [
        (str(path.relative_to(PACKAGE)), line, text)
        for path in _hosts()
        for line, text in comparisons(path.read_text(encoding="utf-8"))
    ]
    wrong = [
        f"  {path}:{line}: {text}" for path, line, text in found if (path, text) not in ALLOWED
    ]
    assert not wrong, (
        "a branch on a game's name outside the engines (ask the game's definition, or "
        "look the game up by name in the layer's own table):\n" + "\n".join(wrong)
    )
    stale = ALLOWED - {(path, text) for path, _, text in found}
    assert not stale, f"allowed comparisons that are gone: {sorted(stale)}"


def test_every_lookup_by_name_knows_every_game() -> None:
    """The per-game code a layer keeps for itself, looked up by name, is there for each
    game the registry holds, so the lookup never falls through for a game hosts offer."""
    for lookup in (EVALUATORS, READINGS, ASKING, KINDS):
        assert set(lookup) == set(GAMES)


def test_the_lobby_names_no_game() -> None:
    """The browser's lobby offers the games the server describes (`/api/meta`): none
    is written into it, so a new game needs nothing new there."""
    text = (PACKAGE / "web" / "js" / "lobby.js").read_text(encoding="utf-8")
    names = "|".join(map(re.escape, GAMES))
    found = re.findall(rf"""["'`]({names})["'`]""", text)
    assert not found, f"lobby.js names games: {found}"

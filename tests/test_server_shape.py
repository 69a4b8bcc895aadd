"""The shape of the server: its folders as layers, one writer of a game's live state, SQL
in the store alone, no private member used across modules, small files, one class
per name (docs/house.md draws them).

The server's sub-layers, from the bottom: `common/` (settings, refusals, plain
values) < `store/` (the database: SQL only here) < `game/` (the rooms: a game's live
state, its lifecycle, clocks, bots) < `features/` (accounts, tables, ratings, ...: each
a folder with its policy, routes and API models) < `transport/` (the HTTP app, the
WebSockets, the guard). A module imports from its own sub-layer and those below.
`server/` itself holds only the entry points of the `euphrates` command.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from tests.test_shape import PACKAGE, ROOT, SRC, import_graph

SERVER = SRC / PACKAGE / "server"
SUBLAYERS = {"common": 0, "store": 1, "game": 2, "features": 3, "transport": 4}
ENTRY_POINTS = {"__init__.py", "serve.py", "admin.py", "admin_args.py"}
"""The modules directly in `server/`: `euphrates serve` and `euphrates admin`."""
MAX_LINES = 500
ROOM_STATE = {"driven", "hinting"}
"""A room's marks; its row (`room.row.*`) and engine state (`room.state`, `.version`)
are its state too."""
ENGINE_STATE = {"state", "version", "played", "notes", "history", "befores"}


def _sublayer(module: str) -> int | None:
    parts = module.split(".")
    if parts[:2] != [PACKAGE, "server"] or len(parts) < 3:
        return None
    return SUBLAYERS.get(parts[2])


def _server_files() -> list[Path]:
    return sorted(SERVER.rglob("*.py"))


def test_the_server_is_folders_and_a_few_entry_points() -> None:
    loose = sorted(p.name for p in SERVER.glob("*.py") if p.name not in ENTRY_POINTS)
    assert not loose, f"modules directly in server/: {loose}"
    folders = sorted(p.name for p in SERVER.iterdir() if (p / "__init__.py").exists())
    assert folders == sorted(SUBLAYERS), folders


def test_no_server_sublayer_imports_from_above() -> None:
    """transport → features → game → store → common: nothing in `game/` or `store/`
    imports `transport/` (or `features/`), nothing in `common/` imports the store."""
    wrong = [
        f"  {module} imports {target}"
        for module, targets in sorted(import_graph().items())
        if (low := _sublayer(module)) is not None
        for target in sorted(targets)
        if (high := _sublayer(target)) is not None and high > low
    ]
    assert not wrong, "server imports from a higher sub-layer:\n" + "\n".join(wrong)


def _chain(node: ast.expr) -> list[str]:
    """`a.b.c` as ["a", "b", "c"] (a call or subscript inside ends the chain's root)."""
    out: list[str] = []
    while isinstance(node, ast.Attribute):
        out.append(node.attr)
        node = node.value
    out.append(node.id if isinstance(node, ast.Name) else "?")
    return out[::-1]


def room_state_writes(tree: ast.AST) -> list[tuple[int, str]]:
    """Assignments to a room's state: `<x>.row.<field>`, `<x>.driven`, `<x>.hinting`,
    and `<...room>.state` and its bookkeeping."""
    found = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        flat: list[ast.expr] = []
        for t in targets:
            flat.extend(t.elts if isinstance(t, ast.Tuple) else [t])
        for t in flat:
            if not isinstance(t, ast.Attribute):
                continue
            chain = _chain(t)
            row_field = "row" in chain[1:-1]
            marks = chain[-1] in ROOM_STATE and len(chain) > 1
            engine = len(chain) > 1 and chain[-2].endswith("room") and chain[-1] in ENGINE_STATE
            if row_field or marks or engine:
                found.append((getattr(node, "lineno", 0), ".".join(chain)))
    return found


def test_the_reader_of_writes_sees_them() -> None:
    tree = ast.parse(
        "room.row.status = 'x'\n"
        "self.room.row.seats, x = [], 1\n"
        "room.driven = True\n"
        "hub.rooms[g].hinting = False\n"
        "room.state = s\n"
        "row.status = 'active'\n"  # a row being built, not a room's
        "self.driven = True\n"  # inside the room itself (game/ only)
    )
    assert [line for line, _ in room_state_writes(tree)] == [1, 2, 3, 4, 5, 7]


def test_only_the_game_layer_assigns_to_a_rooms_state() -> None:
    """One writer per game: outside `server/game/` nothing assigns to a room's row, its
    marks or its engine state (the issue's grep, done on the syntax tree)."""
    wrong = [
        f"  {path.relative_to(SERVER)}:{line}: {what}"
        for path in _server_files()
        if path.relative_to(SERVER).parts[0] != "game"
        for line, what in room_state_writes(ast.parse(path.read_text()))
    ]
    assert not wrong, "a room's state assigned outside server/game/:\n" + "\n".join(wrong)


def test_sql_only_in_the_store() -> None:
    """No module of the server outside `store/` imports a database library."""
    libraries = ("sqlalchemy", "asyncpg", "aiosqlite", "sqlite3")
    wrong = []
    for path in _server_files():
        if path.relative_to(SERVER).parts[0] == "store":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            wrong += [
                f"  {path.relative_to(SERVER)}: {n}" for n in names if n.split(".")[0] in libraries
            ]
    assert not wrong, "SQL outside server/store/:\n" + "\n".join(wrong)


def test_no_private_member_used_across_modules() -> None:
    """ruff's SLF001 over the server: no `x._member` of another object."""
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--select", "SLF001", "--no-cache", str(SERVER)],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_no_server_file_over_500_lines() -> None:
    long = [
        f"  {path.relative_to(ROOT)}: {n} lines"
        for folder in (SERVER, SRC / PACKAGE / "bench")
        for path in sorted(folder.rglob("*.py"))
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    ]
    assert not long, f"files over {MAX_LINES} lines:\n" + "\n".join(long)


def test_no_two_classes_of_one_name() -> None:
    """A name says one thing: an API answer, a request, a table, a value."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in _server_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(str(path.relative_to(SERVER)))
    twice = {name: paths for name, paths in where.items() if len(paths) > 1}
    assert not twice, twice


def test_the_map_of_the_house_names_the_servers_rooms() -> None:
    """docs/house.md draws each sub-layer and walks a move, a deadline and an admin's
    end through them."""
    text = (ROOT / "docs" / "house.md").read_text()
    for folder in SUBLAYERS:
        assert f"`server/{folder}/`" in text, folder
    for walk in ("a move", "a deadline", "an admin's end"):
        assert walk in text.lower(), walk

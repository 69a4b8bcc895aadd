"""The shape of the house: no import circles, layers that only look down, small files.

The import graph is read from the source with `ast`, not from what an interpreter
happens to load, so it counts every import: at the top of a module, inside a function
(the usual way to hide a circle), under `TYPE_CHECKING`. `from euphrates.board import
X` is an edge to the package `euphrates.board` itself, whose `__init__` imports its
submodules; `from euphrates.board import flow` is an edge to that package and to
`euphrates.board.flow`; `import euphrates.board.flow` is an edge to the module only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
PACKAGE = "euphrates"
MAX_LINES = 600

LAYERS = {
    "core": 0,
    "board": 1,
    "cards": 1,
    "games": 2,  # the registry of both games: above the engines, below whoever hosts them
    "words": 2,  # events and decisions in words: reads JSON, imports no engine
    "bots": 3,
    "adapters": 3,  # OpenSpiel and PettingZoo: above the registry, beside the bots
    "match": 4,
    "terminal": 5,
    "server": 5,
    "bench": 6,  # the load test and benches: start servers, like the command
    "cli": 6,
    "__main__": 6,
}
"""Each part of `euphrates` by layer: a module may import from its own layer and the
ones below, never from one above (core < board, cards < games, words < bots < match <
terminal, server < cli; the adapters beside the bots). `euphrates/__init__.py` holds
only the version."""


def _modules(src: Path) -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _imported(name: str, path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of `modules` that the module `name` at `path` imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            targets = [source] + [f"{source}.{alias.name}" for alias in node.names]
        for target in targets:
            # `import a.b.c` of a name that is no module (`from a import X`) means `a`.
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    modules = _modules(src)
    return {name: set(_imported(name, path, modules)) for name, path in modules.items()}


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, edges = work[-1]
            step = next(edges, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph[step]))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _layer(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return 0
    return LAYERS[parts[1]]


def test_the_graph_sees_imports_inside_functions_and_of_packages(tmp_path: Path) -> None:
    """The reader itself: a lazy import, a TYPE_CHECKING import, a relative one and an
    import of a package each make an edge, so a circle cannot hide behind any of them."""
    pkg = tmp_path / PACKAGE / "board"
    pkg.mkdir(parents=True)
    (tmp_path / PACKAGE / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("from euphrates.board.game import BOARD\n")
    (pkg / "game.py").write_text("from .state import State\nBOARD = 1\n")
    (pkg / "state.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from euphrates.board.rules import go\n"
    )
    (pkg / "rules.py").write_text("def go():\n    from euphrates.board import BOARD\n")
    graph = import_graph(tmp_path)
    assert graph["euphrates.board.game"] == {"euphrates.board.state"}
    assert graph["euphrates.board.state"] == {"euphrates.board.rules"}
    assert graph["euphrates.board.rules"] == {"euphrates.board"}
    assert circles(graph) == [
        [
            "euphrates.board",
            "euphrates.board.game",
            "euphrates.board.rules",
            "euphrates.board.state",
        ]
    ]


def test_no_import_circle() -> None:
    found = circles(import_graph())
    assert not found, "import circles (strongly connected components):\n" + "\n".join(
        f"  {len(c)} modules: {', '.join(c)}" for c in found
    )


def test_every_part_has_a_layer() -> None:
    parts = {name.split(".")[1] for name in import_graph() if "." in name}
    assert parts <= set(LAYERS), f"parts without a layer: {sorted(parts - set(LAYERS))}"


def test_no_layer_imports_from_above() -> None:
    wrong = [
        f"  {module} imports {target}"
        for module, targets in sorted(import_graph().items())
        for target in sorted(targets)
        if _layer(target) > _layer(module)
    ]
    assert not wrong, "imports from a higher layer:\n" + "\n".join(wrong)


def test_the_server_imports_no_engine() -> None:
    """The server knows games only through the registry and the protocol (not even
    through the registry's old address in `match`)."""
    aliases = {f"{PACKAGE}.match.games", f"{PACKAGE}.match.seeds"}
    wrong = [
        f"  {module} imports {target}"
        for module, targets in sorted(import_graph().items())
        if module.startswith(f"{PACKAGE}.server")
        for target in sorted(targets)
        if target.split(".")[1:2] in (["board"], ["cards"]) or target in aliases
    ]
    assert not wrong, "the server imports an engine:\n" + "\n".join(wrong)


def test_no_python_file_over_600_lines() -> None:
    long = [
        f"  {path.relative_to(ROOT)}: {n} lines"
        for folder in (SRC, ROOT / "tests")
        for path in sorted(folder.rglob("*.py"))
        if (n := len(path.read_text().splitlines())) > MAX_LINES
    ]
    assert not long, f"files over {MAX_LINES} lines:\n" + "\n".join(long)


HOUSE = ROOT / "docs" / "house.md"


def test_the_map_of_the_house_names_every_part_and_its_layer() -> None:
    """docs/house.md is the one-page map: it must name every part of `euphrates` (a
    folder or a top-level module) in its layer table with the layer this test enforces,
    and every source path it names must exist."""
    text = HOUSE.read_text()
    rows = {
        name.strip("`").rstrip("/").removesuffix(".py"): int(layer)
        for layer, name in re.findall(r"^\| (\d+) \| (`[^`]+`) \|", text, flags=re.M)
    }
    parts = {
        path.stem if path.is_file() else path.name
        for path in (SRC / PACKAGE).iterdir()
        if (path.is_dir() and (path / "__init__.py").exists())
        or (path.suffix == ".py" and path.stem not in ("__init__", "__main__"))
    }
    assert parts <= set(rows), f"parts missing from docs/house.md: {sorted(parts - set(rows))}"
    wrong = {p: (rows[p], LAYERS[p]) for p in parts if rows[p] != LAYERS[p]}
    assert not wrong, f"layers in docs/house.md (map, test): {wrong}"
    named = set(re.findall(r"`((?:server|bots|board|cards|core|match|web|words)/[\w/.]+)`", text))
    missing = [
        p for p in sorted(named) if not (SRC / PACKAGE / p.split(" ")[0].rstrip("/")).exists()
    ]
    assert not missing, f"paths named in docs/house.md that do not exist: {missing}"

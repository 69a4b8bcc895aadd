"""The browser code's shape, read from its import lines: what both tables use lives in
one folder (`js/shared/`) that knows neither game; a game's folder (`js/board/`,
`js/cards/`) takes only from it and from itself; the pages (`js/*.js`) put them
together. No module imports itself round a circle, and none grows past 600 lines.

Imports are read as text, without a browser: `import … from "…"` and `export … from
"…"` (also over several lines), `import("…")` in code (a page loading a game's module),
and `import("…")` in JSDoc comments, since a type taken from another folder ties the
folders together as much as a function does."""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

JS = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "web" / "js"
SHARED = "shared"
GAMES = ("board", "cards")
MAX_LINES = 600

# `import {a, b} from "x"`, `import * as m from "x"`, `export {a} from "x"`, `import "x"`
STATIC = re.compile(r"^[ \t]*(?:import|export)\b[\w\s{},*$]*?\bfrom\s*[\"']([^\"']+)[\"']", re.M)
BARE = re.compile(r"^[ \t]*import\s*[\"']([^\"']+)[\"']", re.M)
DYNAMIC = re.compile(r"\bimport\(\s*[\"']([^\"']+)[\"']\s*\)")


def modules() -> list[str]:
    """Every module, by its path below `js/` (`shared/dom.js`)."""
    return sorted(p.relative_to(JS).as_posix() for p in JS.rglob("*.js"))


def resolve(module: str, target: str) -> str:
    """A relative import's target, by its path below `js/`."""
    assert target.startswith("."), f"{module}: {target!r} is not a relative import"
    parts: list[str] = []
    for part in (PurePosixPath(module).parent / target).parts:
        if part == "..":
            assert parts, f"{module}: {target!r} leaves js/"
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def split_comments(text: str) -> tuple[str, str]:
    """The code without its comments, and the comments. Strings are skipped whole (a
    "//" in a text is no comment), and so is any escaped character (`\\/` in a regular
    expression)."""
    code: list[str] = []
    comments: list[str] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i) or text.startswith("/*", i):
            line = text.startswith("//", i)
            end = text.find("\n" if line else "*/", i)
            end = n if end < 0 else end if line else end + 2
            comments.append(text[i:end])
            code.append("\n" * text.count("\n", i, end))
            i = end
        elif c in "\"'`":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            code.append(text[i : j + 1])
            i = j + 1
        else:
            step = 2 if c == "\\" else 1
            code.append(text[i : i + step])
            i += step
    return "".join(code), "\n".join(comments)


def imports(module: str) -> tuple[set[str], set[str]]:
    """What a module loads when it runs (static and dynamic imports), and the modules
    its JSDoc types come from."""
    code, comments = split_comments((JS / module).read_text())
    runs = {resolve(module, t) for rx in (STATIC, BARE, DYNAMIC) for t in rx.findall(code)}
    types = {resolve(module, t) for t in DYNAMIC.findall(comments)}
    return runs, types


def folder(module: str) -> str:
    """`shared`, `board` or `cards`; a page's own name for the pages beside them."""
    head, _, rest = module.partition("/")
    return head if rest else "page"


GRAPH = {m: imports(m) for m in modules()}


def test_imports_are_read() -> None:
    # The reading above finds the imports that are there, and each names a module that
    # exists: a test of the shape that read nothing would pass on any shape.
    every = {t for runs, types in GRAPH.values() for t in runs | types}
    assert sum(len(runs) for runs, _ in GRAPH.values()) > 150
    assert every - set(GRAPH) == set(), "imports of modules that do not exist"
    assert {folder(m) for m in GRAPH} >= {SHARED, *GAMES, "page"}


def crossings(homes: set[str], allowed: set[str]) -> list[str]:
    """The imports (code or types) from the modules in the folders `homes` to modules
    outside the folders `allowed`."""
    return [
        f"{module} -> {target}"
        for module, (runs, types) in GRAPH.items()
        if folder(module) in homes
        for target in sorted(runs | types)
        if folder(target) not in allowed
    ]


def test_no_game_takes_from_the_other() -> None:
    every = {folder(m) for m in GRAPH}
    for game in GAMES:
        assert crossings({game}, every - (set(GAMES) - {game})) == []


def test_shared_knows_no_game() -> None:
    # Not even a page: a game takes from the shared folder, so it would reach the page
    # through it.
    assert crossings({SHARED}, {SHARED}) == []


def test_games_take_from_themselves_and_shared_only() -> None:
    for game in GAMES:
        assert crossings({game}, {game, SHARED}) == []


def test_no_import_circle() -> None:
    runs = {m: edges for m, (edges, _) in GRAPH.items()}
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> None:
        if module in path:
            raise AssertionError(" -> ".join([*path[path.index(module) :], module]))
        if module in done:
            return
        path.append(module)
        for target in sorted(runs.get(module, ())):
            visit(target)
        path.pop()
        done.add(module)

    for module in sorted(runs):
        visit(module)


def test_no_module_too_long() -> None:
    long = {m: n for m in GRAPH if (n := len((JS / m).read_text().splitlines())) > MAX_LINES}
    assert long == {}

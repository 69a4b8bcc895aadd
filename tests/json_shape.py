"""A check the fuzz tests share: a document a strict reader accepted must be shaped as
the writer writes the state read from it, so no field was left out and read as a
default, and no value of another JSON type was taken for the one meant."""

from __future__ import annotations

from typing import Any


def shape_differs(
    given: Any, mine: Any, optional: frozenset[str] | set[str] = frozenset(), where: str = ""
) -> str | None:
    """Where `given` is not shaped as `mine` (the writer's document), or None: a field
    missing (except the derived ones at the paths in `optional`, such as
    ``".pending.context"``) or unknown, a list of another length, or a value of another
    type (`true` where 1 is written, `2.0` where 2 is)."""
    if isinstance(mine, dict):
        if not isinstance(given, dict):
            return f"{where} is no object"
        keys = {k for k in mine if f"{where}.{k}" not in optional}
        if not keys <= set(given) <= set(mine):
            return f"{where} has the fields {sorted(given)}, not {sorted(mine)}"
        for k in given:
            found = shape_differs(given[k], mine[k], optional, f"{where}.{k}")
            if found:
                return found
        return None
    if isinstance(mine, list):
        if not isinstance(given, list) or len(given) != len(mine):
            return f"{where} is no list of {len(mine)}"
        for k, (g, m) in enumerate(zip(given, mine, strict=True)):
            found = shape_differs(g, m, optional, f"{where}[{k}]")
            if found:
                return found
        return None
    if type(given) is not type(mine):
        return f"{where} read {given!r} as {mine!r}"
    return None

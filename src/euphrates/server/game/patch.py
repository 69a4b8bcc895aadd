"""Views change a little per action; clients get the change, not the whole view.

A patch is a list of operations on a JSON document: `[path, value]` sets the value at
`path` (a list of keys and indexes) and `[path]` deletes it. Dicts are compared key by
key and lists of equal length element by element; a list whose length changed, or
whose elements mostly changed, is replaced whole. `apply_patch` is what the browser
does (web/js/shared/patch.js), kept here for tests and for the load generator.
"""

from __future__ import annotations

import copy
from typing import Any

Op = list[Any]


def diff(old: Any, new: Any) -> list[Op]:
    ops: list[Op] = []
    _diff(old, new, [], ops)
    return ops


def _diff(old: Any, new: Any, path: list[Any], ops: list[Op]) -> None:
    if old == new:
        return
    if isinstance(old, dict) and isinstance(new, dict):
        for key in old:
            if key not in new:
                ops.append([[*path, key]])
        for key, value in new.items():
            if key not in old:
                ops.append([[*path, key], value])
            else:
                _diff(old[key], value, [*path, key], ops)
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new) and old:
        sub: list[Op] = []
        for i, (a, b) in enumerate(zip(old, new, strict=True)):
            _diff(a, b, [*path, i], sub)
        if len(sub) * 2 <= len(new):
            ops.extend(sub)
            return
    ops.append([path, new])


def apply_patch(doc: Any, ops: list[Op]) -> Any:
    """The document with the operations applied (the input is not modified)."""
    return patch_in_place(copy.deepcopy(doc), copy.deepcopy(ops))


def patch_in_place(doc: Any, ops: list[Op]) -> Any:
    """Apply the operations to `doc` itself (values are taken, not copied); returns
    the document, which is new only when an operation replaces the root."""
    for op in ops:
        path = op[0]
        if not path:
            doc = op[1]
            continue
        target = doc
        for key in path[:-1]:
            target = target[key]
        if len(op) == 1:
            del target[path[-1]]
        else:
            target[path[-1]] = op[1]
    return doc

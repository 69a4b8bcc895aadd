"""The engines compiled with mypyc when a wheel is built on a machine that can: the
pure-Python modules stay beside them as the fallback, and any machine without a C compiler
(or with EUPHRATES_PURE=1) gets the pure package. Editable installs are never compiled:
a stale extension module would shadow the source being edited.

Compiled: the rule modules of both games, the core helpers they call in their inner
loops, the searches (`bots/mcts.py`, `bots/rollout.py`) with the evaluations and the
greedy bot they call at every iteration, and the adapters' action tables and encoders
(numpy stays numpy: mypyc treats it as any object). Left interpreted: the protocol classes
(`core/protocol.py`, `*/state.py`, `*/game.py`), which a native class could not share
with the pure build's subclasses, and the action classes (`*/actions.py`), which must
accept any object at construction so that `apply` can refuse it with the engine's own
error, as the pure build does."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

INTERPRETED = {"__init__.py", "protocol.py", "state.py", "game.py", "actions.py"}
SEARCH = ("mcts.py", "rollout.py", "evaluation.py", "board_eval.py", "cards_eval.py", "greedy.py")
"""The bots' modules on the search's inner loop (the other bots stay interpreted)."""
ADAPTERS = ("tables.py", "encoding.py", "board_encoding.py", "cards_encoding.py", "chance.py")
"""The adapters' hot paths: action numbers, masks, tensors and the explicit-chance game.
The OpenSpiel and PettingZoo classes themselves subclass the frameworks' and stay
interpreted."""


def compiled_modules() -> list[str]:
    root = Path(__file__).parent / "src" / "euphrates"
    return sorted(
        str(path.relative_to(Path(__file__).parent))
        for part in ("core", "board", "cards")
        for path in (root / part).glob("*.py")
        if path.name not in INTERPRETED
    ) + sorted(
        [f"src/euphrates/bots/{name}" for name in SEARCH]
        + [f"src/euphrates/adapters/{name}" for name in ADAPTERS]
    )


def extensions() -> list[object]:
    # Only a wheel is compiled: not the metadata steps, not an editable install.
    if os.environ.get("EUPHRATES_PURE") == "1" or "bdist_wheel" not in sys.argv:
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    try:
        # MYPYC_OPT_LEVEL (as mypy's own build reads it): the C compiler's -O level,
        # 3 for a release; the test suite builds at 1 for the same compiled semantics at
        # a fraction of the compile time.
        built = mypycify(compiled_modules(), opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"))
    except Exception as e:  # a module mypyc refuses: the pure package
        print(f"euphrates: building the pure-Python package ({e})", file=sys.stderr)
        return []
    for ext in built:
        ext.optional = True  # no C compiler, or it fails: the pure modules still ship
    return list(built)


setup(ext_modules=extensions())

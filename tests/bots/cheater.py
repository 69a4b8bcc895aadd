"""A bot that cheats the only way a bot in the host's process needs to: it searches its
own process for the true game.

It walks up the stack from its `choose` (`sys._getframe()`) and over every object the
garbage collector tracks (`gc.get_objects()`), and notes every game state it meets
(with the hidden parts: the bag or deck, every hand) and every large integer (a seed
is one). It appends what it found, one JSON line per search, to the file named by
CHEATER_REPORT in its environment, and then plays a random legal action. The test
compares the findings with the truth, which it knows and the bot does not.

Searching the whole heap is slow, so it searches at its first few decisions only
(counted in the report file: a worker rebuilds the bot for every request).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
from types import FrameType
from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.core.protocol import GameDefinition, GameState, View

REPORT_ENV = "CHEATER_REPORT"
SEARCHES = 3
BIG = 1 << 20  # smaller ints are everywhere; seeds are 64-bit hashes


def hidden_of(state: GameState[Any]) -> dict[str, Any]:
    """What a seat may not see, in a form the test can compare with the truth."""
    doc: dict[str, Any] = {"type": type(state).__name__, "version": state.version}
    for name in ("bag", "deck", "removed", "hands", "seed"):
        value = getattr(state, name, None)
        if value is not None:
            doc[name] = json.loads(json.dumps(value))
    return doc


class Cheater(Bot):
    name = "cheater"

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        path = os.environ.get(REPORT_ENV)
        if path and self._searches_so_far(path, view["viewer"]) < SEARCHES:
            findings = search()
            findings["viewer"] = view["viewer"]
            findings["view_version"] = view["version"]
            with open(path, "a", encoding="utf-8") as f:
                f.write(json.dumps(findings) + "\n")
        return legal[self.rng.below(len(legal))]

    @staticmethod
    def _searches_so_far(path: str, viewer: int) -> int:
        try:
            with open(path, encoding="utf-8") as f:
                return sum(1 for line in f if json.loads(line)["viewer"] == viewer)
        except FileNotFoundError:
            return 0


def search() -> dict[str, Any]:
    states: dict[int, GameState[Any]] = {}
    ints: set[int] = set()

    def look(value: Any) -> None:
        if isinstance(value, GameState):
            states[id(value)] = value
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= BIG:
            ints.add(value)

    def members(obj: Any) -> None:
        look(obj)
        if isinstance(obj, dict):
            for k, v in list(obj.items()):
                look(k)
                look(v)
        elif isinstance(obj, list | tuple | set | frozenset):
            for v in list(obj):
                look(v)
        else:
            for cls in type(obj).__mro__:
                for slot in cls.__dict__.get("__slots__", ()):
                    with contextlib.suppress(AttributeError, TypeError):
                        look(getattr(obj, slot))

    frames = 0
    frame: FrameType | None = sys._getframe()
    while frame is not None:
        frames += 1
        for value in list(frame.f_locals.values()):
            members(value)
        frame = frame.f_back
    objects = gc.get_objects()
    for obj in objects:
        members(obj)
    return {
        "frames": frames,
        "objects": len(objects),
        "states": [hidden_of(s) for s in states.values()],
        "ints": sorted(ints),
    }

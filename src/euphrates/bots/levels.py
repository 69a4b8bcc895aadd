"""Bots by name: a kind and a budget, and the four levels a player picks from.

random                uniformly random legal actions
greedy                one ply with the documented evaluation
mcts:1s  mcts:2000i   ISMCTS with a budget in seconds or iterations
beginner intermediate strong expert   the levels (see LEVELS)
"""

from __future__ import annotations

import re

from euphrates.bots.base import Bot, RandomBot
from euphrates.bots.greedy import GreedyBot
from euphrates.bots.mcts import MctsBot

LEVELS: dict[str, str] = {
    "beginner": "random",
    "intermediate": "greedy",
    "strong": "mcts:1s",
    "expert": "mcts:5s",
}

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(s|ms|i)$")


def make_bot(spec: str, seed: int = 0) -> Bot:
    """A bot from its name (`random`, `greedy`, `mcts:1s`, `mcts:500i`, or a level)."""
    spec = spec.strip().lower()
    spec = LEVELS.get(spec, spec)
    if spec == "random":
        return RandomBot(seed)
    if spec == "greedy":
        return GreedyBot(seed)
    if spec == "mcts" or spec.startswith("mcts:"):
        budget = spec.partition(":")[2] or "1s"
        m = _BUDGET.match(budget)
        if not m:
            raise ValueError(
                f"bad mcts budget {budget!r}: write e.g. mcts:1s, mcts:250ms or mcts:2000i"
            )
        amount, unit = float(m.group(1)), m.group(2)
        if unit == "i":
            return MctsBot(seed, iterations=int(amount))
        return MctsBot(seed, seconds=amount / 1000 if unit == "ms" else amount)
    raise ValueError(
        f"unknown bot {spec!r}: use random, greedy, mcts:<budget> or a level ({', '.join(LEVELS)})"
    )

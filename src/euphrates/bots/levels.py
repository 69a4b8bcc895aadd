"""Bots by name: a kind and a budget, and the four levels a player picks from.

random                uniformly random legal actions
softmax:0.5           the greedy evaluation followed loosely, at a temperature (bots.beginner)
greedy                one ply with the documented evaluation
mcts:1s  mcts:2000i   ISMCTS with a budget in seconds or iterations
mcts:500i:value       the same, its leaves valued by the game's shipped value model
mcts:500i:value=F.json  … by the value model in file F (a generation being trained)
beginner intermediate strong expert   the levels (see LEVELS)
"""

from __future__ import annotations

import math
import re

from euphrates.bots.base import Bot, RandomBot
from euphrates.bots.beginner import DEFAULT_TEMPERATURE, MAX_TEMPERATURE, SoftmaxBot
from euphrates.bots.greedy import GreedyBot
from euphrates.bots.mcts import MctsBot
from euphrates.bots.value import load as load_value
from euphrates.core.errors import ArgumentError

LEVELS: dict[str, str] = {
    "beginner": f"softmax:{DEFAULT_TEMPERATURE:g}",
    "intermediate": "greedy",
    "strong": "mcts:1s",
    "expert": "mcts:5s",
}

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(s|ms|i)$")

# Budgets beyond these are typing mistakes, not plans: a million iterations is ten
# minutes or more a decision, and a bot that thinks longer than that stalls any game.
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 600.0
# What a decision may take, at most, beyond its budget before a host gives up on the
# bot's worker (a hung process, not a slow one: a loaded machine may be ten times slower).
SLACK_SECONDS = 60.0
SLOWEST_ITERATIONS_PER_SECOND = 50.0


def _budget(spec: str) -> tuple[int | None, float | None]:
    """The iterations or seconds of an `mcts:` spec, refused unless they are sensible."""
    budget = spec.partition(":")[2] or "1s"
    m = _BUDGET.match(budget)
    if not m:
        raise ArgumentError(
            f"bad mcts budget {budget!r}: write e.g. mcts:1s, mcts:250ms or mcts:2000i"
        )
    amount, unit = float(m.group(1)), m.group(2)
    if unit == "i":
        if not m.group(1).isdigit() or not 1 <= amount <= MAX_ITERATIONS:
            raise ArgumentError(
                f"bad mcts budget {budget!r}: iterations must be a whole number "
                f"from 1 to {MAX_ITERATIONS}"
            )
        return int(amount), None
    seconds = amount / 1000 if unit == "ms" else amount
    if not 0 < seconds <= MAX_SECONDS:
        raise ArgumentError(
            f"bad mcts budget {budget!r}: the time must be more than 0 and at most "
            f"{MAX_SECONDS:g} s"
        )
    return None, seconds


def _temperature(spec: str) -> float:
    text = spec.partition(":")[2] or f"{DEFAULT_TEMPERATURE:g}"
    try:
        t = float(text)
    except ValueError:
        t = math.nan
    if not 0 < t <= MAX_TEMPERATURE:  # NaN fails too
        raise ArgumentError(
            f"bad softmax temperature {text!r}: write e.g. softmax:0.5 (more than 0, at most "
            f"{MAX_TEMPERATURE:g})"
        )
    return t


def _normal(spec: str) -> str:
    spec = spec.strip().lower()
    return LEVELS.get(spec, spec)


def _value_of(spec: str) -> tuple[str, str | None, bool]:
    """The spec without its `:value` part, the model's file (None: the shipped one), and
    whether it had one. The file name keeps its case."""
    head, sep, tail = spec.strip().partition(":value")
    if not sep:
        return spec, None, False
    if tail and not tail.startswith("="):
        raise ArgumentError(f"bad value part {sep + tail!r}: write :value or :value=FILE.json")
    return head, tail[1:] or None, True


def make_bot(spec: str, seed: int = 0, game: str | None = None) -> Bot:
    """A bot from its name (`random`, `greedy`, `mcts:1s`, `mcts:500i`, or a level);
    `game` names the game whose value model a `:value` search loads (without it, the
    model loads at the bot's first decision)."""
    spec, model_file, valued = _value_of(spec)
    spec = _normal(spec)
    if spec == "random":
        return RandomBot(seed)
    if spec == "greedy":
        return GreedyBot(seed)
    if spec == "softmax" or spec.startswith("softmax:"):
        return SoftmaxBot(seed, _temperature(spec))
    if spec == "mcts" or spec.startswith("mcts:"):
        iterations, seconds = _budget(spec)
        bot = MctsBot(seed, iterations=iterations, seconds=seconds)
        if valued:
            bot.value_source = (model_file,)
            if game is not None:
                bot.value = load_value(game, model_file)
        return bot
    if valued:
        raise ArgumentError(f"only a search bot takes a value model, not {spec!r}")
    raise ArgumentError(
        f"unknown bot {spec!r}: use random, softmax:<temperature>, greedy, mcts:<budget> or a level ({', '.join(LEVELS)})"
    )


def timeout_for(spec: str) -> float:
    """How long a host waits for one decision of `spec` before it calls the bot hung."""
    spec = _normal(_value_of(spec)[0])
    if spec == "mcts" or spec.startswith("mcts:"):
        iterations, seconds = _budget(spec)
        if iterations is not None:
            return SLACK_SECONDS + iterations / SLOWEST_ITERATIONS_PER_SECOND
        assert seconds is not None
        return SLACK_SECONDS + 2 * seconds
    return SLACK_SECONDS

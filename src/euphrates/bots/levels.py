"""Bots by name: a kind and a budget, and the four levels a player picks from.

random                uniformly random legal actions
softmax:0.5           the greedy evaluation followed loosely, at a temperature (bots.beginner)
greedy                one ply with the documented evaluation
mcts:1s  mcts:2000i   ISMCTS with a budget in seconds or iterations
mcts:500i:value       the same, its leaves valued by the game's shipped value model
mcts:500i:value=F.json  … by the value model in file F (a generation being trained)
rollout:1s  rollout:200i  the greedy judgement's best few actions compared by rollouts
                      in which everyone plays greedily until the bot's next turn
rollout:200i:value    the same, the rollouts' ends valued by the shipped value model
rollout:200i:read     the card game's worlds dealt from a reading of the public history
                      (bots.inference) rather than at random
rollout:200i:read=policy  the same, the other players' choices weighed by the policy
                      model fitted to the search's play (bots/policy.py)
mcts:2000i:read       half the tree search's imagined states drawn from a reading of
                      the public history (the board's tiles, or the card game's cards)
search:1s             the game's stronger search at that budget (SEARCH_BY_GAME)
hint:1s               that search, its move checked by the review (bots/hinting.py)
hint:1s:read          the same, the card game's search and check reading the table (the
                      server's hint)
beginner intermediate strong expert   the levels (see LEVELS)
"""

from __future__ import annotations

import functools
import math
import re
from typing import Any

from euphrates.bots.base import Bot, RandomBot
from euphrates.bots.beginner import DEFAULT_TEMPERATURE, MAX_TEMPERATURE, SoftmaxBot
from euphrates.bots.greedy import GreedyBot
from euphrates.bots.hinting import HintBot
from euphrates.bots.inference import HANDS, READABLE
from euphrates.bots.mcts import MctsBot
from euphrates.bots.policy import GAME as POLICY_GAME
from euphrates.bots.policy import shipped as shipped_policy
from euphrates.bots.rollout import RolloutBot
from euphrates.bots.value import load as load_value
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import GameDefinition, View

LEVELS: dict[str, str] = {
    "beginner": f"softmax:{DEFAULT_TEMPERATURE:g}",
    "intermediate": "greedy",
    "strong": "search:1s",
    "expert": "search:5s",
}

SEARCH_BY_GAME: dict[str, str] = {"board": "mcts", "cards": "rollout"}
"""Which search the levels use per game, each chosen by tournaments against the greedy
bot (docs/bots.md): on the board a greedy rollout costs a quarter of a second, too dear
for a budget of one; in the card game the tree search plays level with greedy and the
rollouts beat it."""

_BUDGET = re.compile(r"^(\d+(?:\.\d+)?)(s|ms|i)$")

# Budgets beyond these are typing mistakes, not plans: a million iterations is ten
# minutes or more a decision, and a bot that thinks longer than that stalls any game.
MAX_ITERATIONS = 1_000_000
MAX_SECONDS = 600.0
# What a decision may take, at most, beyond its budget before a host gives up on the
# bot's worker (a hung process, not a slow one: a loaded machine may be ten times slower).
SLACK_SECONDS = 60.0
SLOWEST_ITERATIONS_PER_SECOND = 50.0
SLOWEST_ROLLOUTS_PER_SECOND = 1.0  # a rollout on the board, on a busy machine
READ_SECONDS = 300.0  # a card game's whole history read from the deal, on a busy machine
CHECK_SECONDS = 120.0  # the review's check of a hint, at most, on a busy machine


class GameSearchBot(Bot):
    """`search:<budget>`: the game's search (SEARCH_BY_GAME), made at the first decision,
    when the game is known (a worker is asked for a bot before it sees a view)."""

    name = "search"

    def __init__(self, seed: int, budget: str) -> None:
        super().__init__(seed)
        self.budget = budget
        self.inner: Bot | None = None
        self.last_iterations = 0

    def reseed(self, seed: int) -> None:
        super().reseed(seed)
        if self.inner is not None:
            self.inner.reseed(seed)

    def describe(self) -> str:
        return f"search:{self.budget}"

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        if self.inner is None:
            self.inner = make_bot(f"{SEARCH_BY_GAME[game.name]}:{self.budget}", self.seed)
        action = self.inner.choose(game, view)
        self.last_iterations = int(getattr(self.inner, "last_iterations", 0))
        return action


def _budget(spec: str) -> tuple[int | None, float | None]:
    """The iterations or seconds of an `mcts:` or `rollout:` spec, refused unless they
    are sensible."""
    kind, _, budget = spec.partition(":")
    budget = budget or "1s"
    m = _BUDGET.match(budget)
    if not m:
        raise ArgumentError(
            f"bad {kind} budget {budget!r}: write e.g. {kind}:1s, {kind}:250ms or {kind}:2000i"
        )
    amount, unit = float(m.group(1)), m.group(2)
    if unit == "i":
        if not m.group(1).isdigit() or not 1 <= amount <= MAX_ITERATIONS:
            raise ArgumentError(
                f"bad {kind} budget {budget!r}: iterations must be a whole number "
                f"from 1 to {MAX_ITERATIONS}"
            )
        return int(amount), None
    seconds = amount / 1000 if unit == "ms" else amount
    if not 0 < seconds <= MAX_SECONDS:
        raise ArgumentError(
            f"bad {kind} budget {budget!r}: the time must be more than 0 and at most "
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


def _valued(
    bot: MctsBot | RolloutBot, valued: bool, model_file: str | None, game: str | None
) -> Bot:
    """The search with the value model its spec named: loaded now if the game is known,
    else at its first decision."""
    if valued:
        bot.value_source = (model_file,)
        if game is not None:
            bot.value = load_value(game, model_file)
    return bot


@functools.lru_cache(maxsize=64)
def reads_history(spec: str, game: str | None = None) -> bool:
    """Whether the bot `spec` names reads the public history (Bot.reads_history), of
    `game` if named (a search reads either game's table; a hint the card game's only:
    bots/inference.py): a host sends it to those only."""
    bot = make_bot(spec)
    if not bot.reads_history or game is None:
        return bot.reads_history
    if getattr(bot, "model", None) is not None:  # the policy model: the card game's players
        return game == POLICY_GAME
    return game in (READABLE if isinstance(bot, HintBot) else HANDS)


def _read_of(spec: str) -> tuple[str, bool, bool]:
    """The spec without its `:read` (or `:read=policy`) part, whether it had one, and
    whether the reading weighs the other players' choices by the policy model."""
    parts = spec.strip().split(":")
    kept, reads, by_policy = [parts[0]], False, False
    for part in parts[1:]:
        if part == "read":
            reads = True
        elif part.startswith("read="):
            if part != "read=policy":
                raise ArgumentError(
                    f"{part!r}: a reading's model is 'read=policy' (bots/policy.py), or"
                    " ':read' for the greedy judgement's softmax"
                )
            reads = by_policy = True
        else:
            kept.append(part)
    return (":".join(kept) if reads else spec), reads, by_policy


def make_bot(spec: str, seed: int = 0, game: str | None = None) -> Bot:
    """A bot from its name (`random`, `greedy`, `mcts:1s`, `mcts:500i`, or a level);
    `game` names the game whose value model a `:value` search loads and whose search a
    `search:` bot (and so a strong or expert level) is (without it, both are settled at
    the bot's first decision)."""
    spec, reads, by_policy = _read_of(spec)
    spec, model_file, valued = _value_of(spec)
    spec = _normal(spec)
    if reads and not spec.startswith(("rollout", "mcts", "hint")):
        raise ArgumentError(
            f"only a rollout or mcts search or a hint reads the table (:read), not {spec!r}"
        )
    if by_policy and not spec.startswith("rollout"):
        raise ArgumentError(f"only a rollout search reads by the policy model, not {spec!r}")
    if valued and not spec.startswith(("mcts", "rollout")):
        raise ArgumentError(f"only an mcts or rollout search takes a value model, not {spec!r}")
    if spec == "random":
        return RandomBot(seed)
    if spec == "greedy":
        return GreedyBot(seed)
    if spec == "softmax" or spec.startswith("softmax:"):
        return SoftmaxBot(seed, _temperature(spec))
    if spec == "mcts" or spec.startswith("mcts:"):
        iterations, seconds = _budget(spec)
        return _valued(
            MctsBot(seed, iterations=iterations, seconds=seconds, reads=reads),
            valued,
            model_file,
            game,
        )
    if spec == "search" or spec.startswith("search:"):
        _budget(spec)
        budget = spec.partition(":")[2] or "1s"
        if game is not None:
            return make_bot(f"{SEARCH_BY_GAME[game]}:{budget}", seed, game)
        return GameSearchBot(seed, budget)
    if spec == "hint" or spec.startswith("hint:"):
        _budget(spec)
        budget = spec.partition(":")[2] or "1s"

        def search(name: str) -> Bot:
            if reads and name in READABLE:  # the card game's search, reading the table
                return make_bot(f"{SEARCH_BY_GAME[name]}:{budget}:read", seed, name)
            return make_bot(f"search:{budget}", seed, name)

        return HintBot(seed, budget, search, reads)
    if spec == "rollout" or spec.startswith("rollout:"):
        iterations, seconds = _budget(spec)
        model = shipped_policy() if by_policy else None
        bot = RolloutBot(seed, iterations=iterations, seconds=seconds, reads=reads, model=model)
        return _valued(bot, valued, model_file, game)
    raise ArgumentError(
        f"unknown bot {spec!r}: use random, softmax:<temperature>, greedy, mcts:<budget>, "
        f"rollout:<budget>, hint:<budget> or a level ({', '.join(LEVELS)})"
    )


def timeout_for(spec: str) -> float:
    """How long a host waits for one decision of `spec` before it calls the bot hung."""
    spec, reads, _ = _read_of(spec)
    if reads:  # a whole game's history read anew (a worker that did not read it before)
        return READ_SECONDS + timeout_for(spec)
    spec = _normal(_value_of(spec)[0])
    if spec == "hint" or spec.startswith("hint:"):
        # the search, then the review's check of its move (bots/hinting.py)
        return timeout_for("search:" + (spec.partition(":")[2] or "1s")) + CHECK_SECONDS
    if spec in ("mcts", "rollout", "search") or spec.startswith(("mcts:", "rollout:", "search:")):
        iterations, seconds = _budget(spec)
        if iterations is not None:
            slowest = (
                SLOWEST_ITERATIONS_PER_SECOND
                if spec.startswith("mcts")
                else SLOWEST_ROLLOUTS_PER_SECOND
            )
            return SLACK_SECONDS + iterations / slowest
        assert seconds is not None
        return SLACK_SECONDS + 2 * seconds
    return SLACK_SECONDS

"""Moves compared on the same imagined states: what the review and the hints judge with.

One decision, seen from its mover's view, and a few candidate moves. `worlds` imagines
states from that view (the hidden hands, bag or deck re-dealt, G-3, or in the card game,
with the seat's history beside the view, drawn from the table's reading: bots/inference.py;
seeded, so the judgement repeats) and every candidate is played in a copy of each of them: the moves
are compared on the same luck, and the difference of two candidates world by world
(`paired`) has a standard error far below either value's own. After the candidate,
play goes on as the greedy bot would play it, everyone (`bots.rollout.greedy_step`,
without its jitter, so a world plays out the same for every candidate), as far as a
`horizon` says:

* `SETTLE`: until the next turn's action is asked (the conflicts the move began or
  answered decided, the points and the treasures handed out);
* `REPLY`: on through the next player's turn too, the mover's own second action included,
  so that a leader left where the next player can take it, or a treasure handed
  over, shows.

What the play reached is worth the mover's chance of winning (`chance`): the result once
the game is over, else the game's value model (bots/models/) on each seat's view of the
state reached, shared out so that the chances add up to one, or, for a game without a
model, the evaluation's chance. The events on the way are counted (`Facts`: conflicts won
and lost, treasures, leaders sent home), so that a judgement can say why one move is
worse than another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from euphrates.bots.evaluation import Evaluator, evaluator_for
from euphrates.bots.inference import READABLE, read
from euphrates.bots.rollout import greedy_step
from euphrates.bots.value import MODELS, ValueModel, search_view
from euphrates.bots.value import load as load_value
from euphrates.core.protocol import GameState, View
from euphrates.core.rng import Rng
from euphrates.games import game_definition

SETTLE = 0
REPLY = 1
MAX_STEPS = 60
"""Decisions played on after a candidate, at most (a run of wars is long)."""

CONFLICT_RESULTS = frozenset({"conflict_resolved", "revolt_result", "war_result"})
CONFLICTS_BEGUN = frozenset({"revolt", "war"})
LEADER_HOME = frozenset({"leader_returned", "leader_returns"})


@dataclass
class Facts:
    """What happened to the mover while one candidate played out in one world."""

    won: int = 0
    lost: int = 0
    conflict: str = ""
    """The kind of the first conflict decided (`war`, `revolt`), else empty."""
    treasures: int = 0
    treasures_given: int = 0
    leaders_home: int = 0
    lost_in_reply: int = 0
    """Conflicts lost while another seat's turn was under way (a leader left open)."""
    replying: bool = False

    def note(self, kind: str, data: Any, seat: int) -> None:
        if kind in CONFLICT_RESULTS:
            self.conflict = self.conflict or (
                "war" if kind == "war_result" or data.get("conflict") == "war" else "revolt"
            )
            if data.get("winner") == seat:
                self.won += 1
            elif data.get("loser") == seat:
                self.lost += 1
                self.lost_in_reply += self.replying
        elif kind == "treasure_taken" or (kind == "point" and data.get("card") == "t"):
            if data.get("seat") == seat:
                self.treasures += 1
            else:
                self.treasures_given += 1
        elif (
            kind in LEADER_HOME
            and data.get("seat") == seat
            and data.get("reason") not in ("revolt lost", "war lost")
        ):
            self.leaders_home += 1


@dataclass(frozen=True)
class Judge:
    """A game's means of judging: its evaluation (the greedy play's) and its value model."""

    game: str
    evaluator: Evaluator
    model: ValueModel | None = None

    @property
    def kind(self) -> str:
        return "model" if self.model is not None else "evaluation"

    def chance(self, state: GameState[Any], seat: int) -> float:
        """`seat`'s chance of winning in `state`: the result once over, else the model's
        chances of every seat (each on its own view) shared out to one."""
        out = state.outcome()
        if out is not None:
            return 1.0 / len(out.winners) if seat in out.winners else 0.0
        if self.model is None:
            return self.evaluator.chances(state, seat)[seat]
        raw = [self.model.chance(search_view(self.game, state, s)) for s in range(state.players)]
        total = sum(raw)
        return raw[seat] / total if total > 0 else 1.0 / state.players


@lru_cache(maxsize=4)
def judge_for(game: str) -> Judge:
    """The game's shipped model where there is one, else its evaluation's chance."""
    model = load_value(game) if (MODELS / f"{game}.json").is_file() else None
    return Judge(game, evaluator_for(game), model)


def worlds(game: str, view: View, seed: int, count: int) -> list[GameState[Any]]:
    """`count` states imagined from `view`, the same for the same seed: drawn from the
    reading of the table where the view holds its seat's history and the game's
    judgements read it (bots/inference.py, READABLE), else dealt at random."""
    rng = Rng(seed)
    definition = game_definition(game)
    reading = read(definition, view) if game in READABLE else None
    if reading is not None:
        return [reading.world(rng) for _ in range(count)]
    base = definition.sample_from_view(view, rng)
    out = [base]
    seat = int(view["viewer"])
    for _ in range(count - 1):
        world = base.copy()
        world.redeal(seat, rng)
        out.append(world)
    return out


def play_on(
    state: GameState[Any], seat: int, evaluator: Evaluator, horizon: int, facts: Facts
) -> None:
    """Play on greedily, everyone, to `horizon` (see the docstring), noting `facts`."""
    active = seat
    turns = 0
    for _ in range(MAX_STEPS):
        d = state.decision()
        if d is None:
            return
        if d.kind == "action":
            if horizon == SETTLE:
                return
            if d.seat != active:
                active = d.seat
                turns += 1
                if turns > horizon:
                    return
                facts.replying = active != seat
        for e in state.apply(greedy_step(state, evaluator)):
            facts.note(e.kind, e.data, seat)


@dataclass
class Judged:
    """Each candidate's chance in each world (the same worlds, in order), and its facts."""

    values: dict[str, list[float]] = field(default_factory=dict)
    facts: dict[str, list[Facts]] = field(default_factory=dict)

    def mean(self, action: str) -> float:
        v = self.values[action]
        return sum(v) / len(v)

    def best(self) -> str:
        return max(self.values, key=self.mean)

    def ranked(self) -> list[str]:
        return sorted(self.values, key=lambda a: -self.mean(a))

    def gain(self, better: str, than: str) -> tuple[float, float]:
        """How much `better` beats `than`, world by world: the mean and its error."""
        return paired(self.values[better], self.values[than])


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of `a - b` world by world and its standard error."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(var / n)


def judge_moves(
    judge: Judge,
    states: Sequence[GameState[Any]],
    seat: int,
    actions: Sequence[str],
    horizon: int,
    into: Judged | None = None,
) -> Judged:
    """Every action of `actions` in a copy of every state of `states`, played on to
    `horizon`, and the mover's chance reached; `into` is extended where given (the worlds
    it holds already are not played again)."""
    judged = into if into is not None else Judged()
    for action in actions:
        values = judged.values.setdefault(action, [])
        facts = judged.facts.setdefault(action, [])
        for world in states[len(values) :]:
            state = world.copy()
            fact = Facts()
            for e in state.apply(action):
                fact.note(e.kind, e.data, seat)
            play_on(state, seat, judge.evaluator, horizon, fact)
            values.append(judge.chance(state, seat))
            facts.append(fact)
    return judged

"""Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse, 2012: SO-ISMCTS).

The bot sees only its view. Each iteration imagines one full state consistent with
that view (the hidden tiles or cards re-dealt at random, G-3, or drawn from a reading of
the public history: bots.inference) and walks one shared
tree with it: at every node only the actions legal in this imagined state are
available, and UCB1 uses availability counts, as the paper does. The walk adds one
node, plays a short rollout with a cheap policy, and backs up a reward per seat (the
final placing, or a logistic of the evaluation margin when the rollout stops early).

The branching factor of Tigris & Euphrates is in the hundreds, so the tree widens
progressively: at the root the candidates are the greedy bot's best actions; below,
a handful of actions ranked by the evaluation's cheap prior, more as a node is visited
more often. The budget is a number of iterations (reproducible with a seed) or seconds.
Per-game settings (below) decide the rest, among them whether small decisions under
the root (paying a point, a commitment) are branched on or answered by one ply.
"""

from __future__ import annotations

import math
import time
from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.bots.evaluation import Evaluator, evaluator_for
from euphrates.bots.greedy import GreedyBot, best_answer
from euphrates.bots.inference import read as read_table
from euphrates.bots.value import ValueModel, leaf_rewards, loaded
from euphrates.core.protocol import GameDefinition, GameState, View
from euphrates.core.rng import Rng

# Per-game settings, tuned against the greedy bot.
#
# The card game's search answers small decisions (paying a point, a commitment, a war's
# order, a ship) below the root by one ply of evaluation instead of branching on them.
# Branching there spends most iterations on obviously bad answers: a defender that
# commits too little in half of its visits makes every small attack look good, and a
# rollout that keeps its point card makes every line that scores look no better than
# one that does not. Its reward also narrows with the deck (`Evaluator.rewards`), so a
# player behind near the end no longer prefers to delay the end. The greedy judgement
# stays as a small bias at the root (reward units per point of evaluation): with one
# to two thousand iterations a second the search's estimates of near-equal actions
# are still noisy. The board game's search was measured without these and keeps its
# settings.
GAME_SETTINGS: dict[str, dict[str, float]] = {
    "board": {"root_bias": 0.0, "rollout_depth": 10, "reward_scale": 1.0},
    "cards": {
        "root_bias": 0.1,
        "rollout_depth": 2,
        "reward_scale": 4.0,
        "answer_small": 1.0,
        "by_progress": 1.0,
    },
}
# What changes in duels, measured there only (docs/bots.md, The board's tree search):
# the root's candidates are the greedy bot's best sixteen actions instead of eight. At
# four players the search keeps the width it was measured with.
DUEL_SETTINGS: dict[str, dict[str, float]] = {"board": {"root_width": 16}}


SMALL_DECISION = 6  # legal answers, at most, for a decision to count as small
READ_SHARE = 0.5
"""The share of a reading search's iterations whose state is drawn from the reading; the
rest are dealt at random, so that every hand stays possible to the search. On the
board, every state from the reading won 9 of 20 deals the search without one won 16 of
(seven lost that it won, none won that it lost); half from it won 17 (docs/bots.md,
*Reading the board*)."""


class Node:
    __slots__ = ("avail", "children", "ranked", "reward", "seat", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat  # who chose the action that leads here
        self.children: dict[Any, Node] = {}
        self.visits = 0
        self.avail = 1
        self.reward = 0.0
        self.ranked: list[Any] | None = None


class MctsBot(Bot):
    """`iterations` or `seconds` bound each decision (iterations win when both are set)."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        root_width: int = 8,
        rollout_depth: int = 10,
        exploration: float = 0.3,
        reward_scale: float = 1.0,
        full_prior_depth: int = 2,
        value: ValueModel | None = None,
        reads: bool = False,
        read_share: float = READ_SHARE,
    ) -> None:
        super().__init__(seed)
        # `mcts:2000i:read`: each iteration's imagined state drawn from a reading of the
        # public history (bots.inference) rather than dealt at random; the host sends it.
        self.reads_history = reads
        self.last_reading = 0  # imagined games the last decision's states came from
        self.read_share = read_share  # of the iterations' states, from the reading
        if iterations is None and seconds is None:
            iterations = 1000
        self.iterations = iterations
        self.seconds = seconds
        self.root_width = root_width
        self.rollout_depth = rollout_depth
        self.c = exploration
        self.reward_scale = reward_scale
        self.full_prior_depth = full_prior_depth
        self.value = value
        # Where `value` comes from when it is loaded at the first decision (the game is
        # known only then): a one-tuple of the model's file, None the shipped one.
        self.value_source: tuple[str | None] | None = None
        self._depth = rollout_depth
        self._scale = reward_scale
        self._bias: dict[Any, float] = {}
        self._answer_small = False
        self._by_progress = False
        self._game = ""
        self.last_iterations = 0
        # The tree of the last decision, kept until the next one (for inspection: a
        # compiled search calls its own methods directly, so they cannot be wrapped).
        self.last_root: Node | None = None
        self.total_iterations = 0
        self.total_seconds = 0.0

    def describe(self) -> str:
        budget = f"{self.iterations}i" if self.iterations is not None else f"{self.seconds:g}s"
        return (
            f"mcts:{budget}"
            + (":value" if self.value is not None or self.value_source is not None else "")
            + (":read" if self.reads_history else "")
        )

    # ------------------------------------------------------------------ search
    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        seat = int(view["viewer"])
        evaluator = evaluator_for(game.name)
        rng = self.rng.fork()
        base = game.sample_from_view(view, rng)
        reading = read_table(game, view) if self.reads_history else None
        self.last_reading = len(reading.states) if reading is not None else 0
        settings = GAME_SETTINGS.get(game.name, {})
        if base.players == 2:
            settings = {**settings, **DUEL_SETTINGS.get(game.name, {})}
        self._game = game.name
        self.value = loaded(self.value, self.value_source, game.name)
        self._depth = int(settings.get("rollout_depth", self.rollout_depth))
        self._scale = settings.get("reward_scale", self.reward_scale)
        self._answer_small = bool(settings.get("answer_small", 0.0))
        self._by_progress = bool(settings.get("by_progress", 0.0))
        if self.value is not None:
            self._depth = int(settings.get("value_rollout_depth", 0))
        bias_weight = settings.get("root_bias", 0.0)
        greedy = GreedyBot(rng.below(1 << 30))
        judged = greedy.ranked(game, view)
        root = Node(-1)
        self.last_root = root
        by_text = {str(a): a for a in base.legal_actions()}
        width = int(settings.get("root_width", self.root_width))
        root.ranked = [by_text[t] for _, t in judged[:width]]
        best_value = judged[0][0]
        self._bias = {by_text[t]: bias_weight * (v - best_value) for v, t in judged[:width]}
        deadline = (
            None if self.seconds is None or self.iterations is not None else start + self.seconds
        )
        limit = self.iterations if self.iterations is not None else 1 << 60
        it = 0
        while it < limit:
            if it % 8 == 0 and it:
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    break
                if it % 64 == 0 and self._decided(root, it, limit, start, now, deadline):
                    break
            if reading is not None and (
                self.read_share >= 1.0 or rng.below(1 << 20) < self.read_share * (1 << 20)
            ):
                state = reading.world(rng)
            else:
                state = base.copy()
                state.redeal(seat, rng)
            self._iterate(root, state, seat, evaluator, rng)
            it += 1
        self.last_iterations = it
        self.total_iterations += it
        self.total_seconds += time.perf_counter() - start
        if bias_weight:
            best = max(
                root.children.items(),
                key=lambda kv: kv[1].reward / kv[1].visits + self._bias.get(kv[0], 0.0),
            )
        else:
            best = max(root.children.items(), key=lambda kv: (kv[1].visits, kv[1].reward))
        return str(best[0])

    @staticmethod
    def _decided(
        root: Node, it: int, limit: int, start: float, now: float, deadline: float | None
    ) -> bool:
        """Stop early once no other root action can catch up with the most visited one
        in the iterations left (the final choice is the most visited)."""
        visits = sorted((c.visits for c in root.children.values()), reverse=True)
        if len(visits) < 2:
            return len(root.ranked or ()) <= 1
        left = limit - it
        if deadline is not None:
            left = min(left, int((deadline - now) * it / max(now - start, 1e-9)))
        return visits[0] - visits[1] > left

    def _candidates(
        self, node: Node, state: GameState[Any], evaluator: Evaluator, rng: Rng, depth: int
    ) -> list[Any]:
        if node.ranked is None:
            mover = state.to_move()
            assert mover is not None
            n = state.legal_action_count()
            if n <= 12 or depth <= self.full_prior_depth:
                pool = state.legal_actions()
            else:
                pool = list({state.random_action(rng) for _ in range(24)})
            scored = [(evaluator.prior(state, a, mover) + rng.below(1000) * 1e-6, a) for a in pool]
            scored.sort(key=lambda t: -t[0])
            node.ranked = [a for _, a in scored]
        width = len(node.ranked) if len(node.ranked) <= 12 else 3 + int(math.sqrt(node.visits))
        return [a for a in node.ranked[:width] if state.is_legal(a)]

    def _iterate(
        self, root: Node, state: GameState[Any], me: int, evaluator: Evaluator, rng: Rng
    ) -> None:
        node = root
        path = [root]
        expanded = False
        depth = 0
        while not state.is_over() and not expanded:
            if self._small(state) and node is not root:
                state.apply(best_answer(state, evaluator))
                continue
            depth += 1
            cands = self._candidates(node, state, evaluator, rng, depth)
            if not cands:
                break
            untried = None
            for a in cands:
                child = node.children.get(a)
                if child is None:
                    if untried is None:
                        untried = a
                else:
                    child.avail += 1
            mover = state.to_move()
            assert mover is not None
            if untried is not None:
                child = Node(mover)
                node.children[untried] = child
                state.apply(untried)
                node = child
                expanded = True
            else:
                log_n = 0.0
                best_a = None
                best_u = -1.0
                bias = self._bias if node is root else {}
                for a in cands:
                    ch = node.children[a]
                    log_n = math.log(ch.avail)
                    u = ch.reward / ch.visits + self.c * math.sqrt(log_n / ch.visits)
                    u += bias.get(a, 0.0)
                    if u > best_u:
                        best_u, best_a = u, a
                assert best_a is not None
                state.apply(best_a)
                node = node.children[best_a]
            path.append(node)
        self._rollout(state, evaluator, rng)
        rewards = evaluator.rewards(state, me, self._scale, self._by_progress)
        if self.value is not None and not state.is_over():
            rewards = leaf_rewards(self.value, self._game, state, rewards)
        for n in path:
            n.visits += 1
            if n.seat >= 0:
                n.reward += rewards[n.seat]

    def _small(self, state: GameState[Any]) -> bool:
        return self._answer_small and state.legal_action_count() <= SMALL_DECISION

    def _rollout(self, state: GameState[Any], evaluator: Evaluator, rng: Rng) -> None:
        """A short playout: each step the best of a few random legal actions by prior,
        or, where the game's settings say so, a small decision's best answer by one ply."""
        for _ in range(self._depth):
            if state.is_over():
                return
            mover = state.to_move()
            assert mover is not None
            if self._small(state):
                state.apply(best_answer(state, evaluator))
                continue
            best = None
            best_p = float("-inf")
            for _ in range(5):
                a = state.random_action(rng)
                p = evaluator.prior(state, a, mover)
                if p > best_p:
                    best_p, best = p, a
            state.apply(best)

"""Policy improvement by rollouts (Tesauro & Galperin, 1996), with imagined hidden
hands: the search of the strong and expert card-game bots.

The greedy bot is hard to beat in Contest of Kings because it is consistent: it
never wastes an action. Tree search over imagined deals spends its iterations on
lines no sensible player would follow, and a random or half-random playout makes
every action look alike. This bot instead asks, for each of its best few actions by
the greedy judgement, what happens if it plays that action and then everyone,
itself included, plays on as the greedy bot would until its next turn begins (the
answers of every opponent, the rest of its own turn, every conflict's commitments).
It averages the evaluation reached over many imagined deals, and plays the best.

Two things make this work where more iterations did not:

- **The same worlds for every candidate.** Each round imagines one state from the
  bot's view (the hidden hands and deck re-dealt, G-3) and plays every remaining
  candidate in a copy of it, with the same draws. The candidates are compared on
  the same luck, so a difference of a fraction of a point shows after tens of
  rounds rather than thousands.
- **Successive halving.** After each quarter of the budget the worse half of the
  candidates is dropped, so the close calls get the rollouts.
- **The greedy choice unless shown worse.** The greedy bot's own choice stays in to
  the end as the baseline, and another candidate is played only when its rewards,
  paired deal by deal with the baseline's, beat them by more than a standard error:
  a few lucky deals do not move the bot off a sound move.

A rollout's opponents play like the greedy bot because that is what a sound,
unhurried player does on a turn; it is exactly the intermediate bot, so against it
the search is a best response, and against people it is a fair model of a player
who never blunders. Rollouts see nothing the bot cannot: every world is sampled
from its own view.

The budget is rollouts (`rollout:400i`, reproducible with a seed) or seconds.
"""

from __future__ import annotations

import time
from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.bots.evaluation import Evaluator, evaluator_for
from euphrates.bots.greedy import GreedyBot, judge, turn_end
from euphrates.bots.inference import read as read_table
from euphrates.bots.policy import PolicyModel
from euphrates.bots.value import ValueModel, leaf_rewards, loaded
from euphrates.core.protocol import GameDefinition, GameState, View

# Per-game settings: the reward's scale (points of the weakest colour to an even
# chance), whether it sharpens as the game nears its end, how many candidates the
# greedy judgement hands the search, how many turns of other players a rollout runs
# through, and by how many standard errors a candidate must beat the greedy bot's
# choice on the same deals to be played instead.
GAME_SETTINGS: dict[str, dict[str, float]] = {
    "board": {"reward_scale": 1.0, "by_progress": 0.0, "width": 8, "turns": 1, "confidence": 1.0},
    "cards": {"reward_scale": 4.0, "by_progress": 1.0, "width": 8, "turns": 1, "confidence": 1.0},
}
MAX_STEPS = 40  # decisions in one rollout, at most (a run of conflicts is long)


def greedy_step(state: GameState[Any], evaluator: Evaluator) -> Any:
    """The action the greedy bot would take here (its `judge`: one ply, the mover's own
    follow-ups answered the same way, the turn's end credited alike, passing a little
    worse), without its tie-breaking jitter."""
    mover = state.to_move()
    assert mover is not None
    actions = state.legal_actions()
    if len(actions) == 1:
        return actions[0]
    best = actions[0]
    best_v = float("-inf")
    end = turn_end(state, mover, evaluator)
    for action in actions:
        v = judge(state, action, mover, evaluator, end)
        if v > best_v:
            best_v, best = v, action
    return best


def _surely_better(mine: dict[int, float], base: dict[int, float], z: float) -> bool:
    """Whether the rounds show `mine` better than `base` by more than `z` standard
    errors of their paired differences. A rollout's reward swings with the imagined
    deal far more than with the action, so a mean ahead on a few deals is mostly luck:
    the search leaves the greedy bot's choice only on evidence."""
    diffs = [r - base[k] for k, r in mine.items() if k in base]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > 0 and mean * mean * n > z * z * var


class RolloutBot(Bot):
    """`iterations` (rollouts) or `seconds` bound each decision."""

    name = "rollout"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = None,
        seconds: float | None = None,
        width: int | None = None,
        value: ValueModel | None = None,
        reads: bool = False,
        model: PolicyModel | None = None,
    ) -> None:
        super().__init__(seed)
        self.width = width  # candidates compared (None: the game's setting)
        # `rollout:400i:read`: the card game's worlds dealt from a reading of the public
        # history (bots.inference) rather than at random; the host sends the history.
        self.reads_history = reads
        self.model = model  # `:read=policy`: the other players' choices by the policy model
        self.last_reading = 0  # imagined games the last decision's worlds came from
        # The learned value at the rollouts' ends (`rollout:32i:value`), and where it is
        # loaded from at the first decision when the game was not known at construction.
        self.value = value
        self.value_source: tuple[str | None] | None = None
        if iterations is None and seconds is None:
            iterations = 400
        self.iterations = iterations
        self.seconds = seconds
        self.last_iterations = 0
        self.total_iterations = 0
        self.total_seconds = 0.0
        self.last_estimates: dict[str, float] = {}

    def describe(self) -> str:
        budget = f"{self.iterations}i" if self.iterations is not None else f"{self.seconds:g}s"
        valued = ":value" if self.value is not None or self.value_source is not None else ""
        reads = (":read=policy" if self.model else ":read") if self.reads_history else ""
        return f"rollout:{budget}{valued}{reads}"

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        start = time.perf_counter()
        seat = int(view["viewer"])
        settings = GAME_SETTINGS.get(game.name, GAME_SETTINGS["board"])
        evaluator = evaluator_for(game.name)
        self.value = loaded(self.value, self.value_source, game.name)
        rng = self.rng.fork()
        judged = GreedyBot(rng.below(1 << 30)).ranked(game, view)
        width = self.width or int(settings["width"])
        candidates = [text for _, text in judged[:width]]
        if len(candidates) == 1:
            return candidates[0]
        base = game.sample_from_view(view, rng)
        reading = read_table(game, view, model=self.model) if self.reads_history else None
        self.last_reading = len(reading.states) if reading is not None else 0
        by_text = {str(a): a for a in base.legal_actions()}
        totals = dict.fromkeys(candidates, 0.0)
        runs = dict.fromkeys(candidates, 0)
        # Each candidate's reward by round, for differences paired with the greedy
        # bot's choice (candidates[0], never dropped) on the same imagined deal.
        by_round: dict[str, dict[int, float]] = {t: {} for t in candidates}
        rounds = 0
        limit = self.iterations if self.iterations is not None else 1 << 60
        deadline = None if self.iterations is not None else start + (self.seconds or 0.0)
        scale = settings["reward_scale"]
        by_progress = bool(settings["by_progress"])
        turns = int(settings["turns"])
        alive = list(candidates)
        done = 0
        cuts = 0
        next_cut = max(limit // 4, 2 * len(alive)) if self.iterations is not None else 0
        cut_every = next_cut
        # Whole rounds only (every candidate in the same world), at least one.
        while done == 0 or done + len(alive) <= limit:
            if reading is not None:
                world = reading.world(rng)
            else:
                world = base.copy()
                world.redeal(seat, rng)
            for text in alive:
                state = world.copy()
                state.apply(by_text[text])
                self._roll(state, seat, evaluator, turns)
                rewards = evaluator.rewards(state, seat, scale, by_progress)
                if self.value is not None and not state.is_over():
                    rewards = leaf_rewards(self.value, game.name, state, rewards)
                reward = rewards[seat]
                totals[text] += reward
                by_round[text][rounds] = reward
                runs[text] += 1
                done += 1
            rounds += 1
            if deadline is not None:
                now = time.perf_counter()
                if now >= deadline:
                    break
                # With a time budget, halve at each quarter of the time.
                if len(alive) > 2 and (now - start) >= (cuts + 1) * (deadline - start) / 4:
                    alive = self._halve(alive, totals, runs)
                    cuts += 1
            elif done >= next_cut and len(alive) > 2:
                alive = self._halve(alive, totals, runs)
                next_cut = done + cut_every
        self.last_iterations = done
        self.total_iterations += done
        self.total_seconds += time.perf_counter() - start
        self.last_estimates = {t: totals[t] / runs[t] for t in candidates if runs[t]}
        best = max(alive, key=lambda t: totals[t] / max(runs[t], 1))
        if best == candidates[0] or _surely_better(
            by_round[best], by_round[candidates[0]], settings["confidence"]
        ):
            return best
        return candidates[0]

    @staticmethod
    def _halve(alive: list[str], totals: dict[str, float], runs: dict[str, int]) -> list[str]:
        """The better half by mean reward, the greedy bot's choice (`alive[0]`) kept as
        the baseline the others are compared with."""
        ranked = sorted(alive[1:], key=lambda t: -totals[t] / max(runs[t], 1))
        return [alive[0], *ranked[: max(1, len(alive) // 2 - 1)]]

    @staticmethod
    def _roll(state: GameState[Any], me: int, evaluator: Evaluator, turns: int) -> None:
        """Play on greedily, everyone, through the next `turns` turns of others: in a
        duel until the bot's own next turn begins; with more players after the next
        player's answer, because three greedy turns cost three times one and most of
        what threatens a move comes from the player after."""
        active = me  # the turn under way is the bot's (others may answer inside it)
        changes = 0
        for _ in range(MAX_STEPS):
            d = state.decision()
            if d is None:
                return
            if d.kind == "action" and d.seat != active:
                active = d.seat
                changes += 1
                if changes > turns:
                    return
            state.apply(greedy_step(state, evaluator))

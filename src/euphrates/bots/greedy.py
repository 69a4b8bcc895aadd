"""The greedy bot: one ply, every legal action, the documented evaluation.

It imagines the hidden tiles or cards (one state sampled from its own view), plays each
legal action on a copy of that state and keeps the action whose result evaluates best
for it (`board_eval` / `cards_eval`: weakest colour first, then the others, treasures,
leaders' safety, conflict odds). Ties are broken by its seeded generator.

The ply includes the bot's own follow-up decisions inside the same action (paying the
point a card just earned, choosing a ship, committing as the attacker): those are
answered greedily too before the result is judged, so a card that scores is seen to
score. Passing costs a little (`PASS_COST`): neither game ends while everyone passes, so
a bot must prefer any action that is not worse; and on the board an action that leaves
the turn open is credited with what the turn's end is worth (`turn_end`), as a pass is.
"""

from __future__ import annotations

from typing import Any

from euphrates.bots.base import Bot, legal_of
from euphrates.bots.evaluation import Evaluator, evaluator_for
from euphrates.core.protocol import GameDefinition, GameState, View

PASS_COST = 0.1
FOLLOW_UPS = 3  # own decisions answered inside one ply, at most


def best_answer(state: GameState[Any], evaluator: Evaluator) -> Any:
    """The mover's legal action whose result evaluates best for the mover (one ply)."""
    mover = state.to_move()
    assert mover is not None
    best = None
    best_v = float("-inf")
    for action in state.legal_actions():
        child = state.copy()
        child.apply(action)
        v = evaluator.value(child, mover)
        if v > best_v:
            best_v, best = v, action
    return best


def settle_own(
    state: GameState[Any], seat: int, evaluator: Evaluator, depth: int = FOLLOW_UPS
) -> None:
    """Answer `seat`'s own follow-up decisions of the current action greedily, in place."""
    for _ in range(depth):
        d = state.decision()
        if d is None or d.seat != seat or d.kind == "action":
            return
        state.apply(best_answer(state, evaluator))


def turn_end(state: GameState[Any], seat: int, evaluator: Evaluator) -> float:
    """What the end of turn is worth to `seat` by itself here: passing now, less staying.

    The end of turn scores (monument points on the board, B-17; ship points in the card
    game, C-16), and one ply credits it to a pass alone: an action that leaves the turn
    open is judged before it. On the board that made passing look better than any tile
    to both greedy players of a position with monuments, and they passed for ever with
    tiles in the bag (no tile drawn, so no end, B-19). So `judge` credits this to such an
    action too. It is measured once per decision, on the position before the action (an
    action that moves a leader off its monument is credited all the same until the next
    ply sees it): judging the end after every action cost half again as much. Only where
    the game's evaluation asks for it (`Evaluator.credits_turn_end`: the board)."""
    if not evaluator.credits_turn_end:
        return 0.0
    d = state.decision()
    if d is None or d.seat != seat or d.kind != "action":
        return 0.0
    ended = state.copy()
    ended.apply("pass")
    settle_own(ended, seat, evaluator)
    return max(0.0, evaluator.value(ended, seat) - evaluator.value(state, seat))


def judge(
    state: GameState[Any], action: Any, seat: int, evaluator: Evaluator, end: float = 0.0
) -> float:
    """The evaluation for `seat` after `action` and its own follow-ups; `end` is what the
    turn's end is worth by itself (`turn_end`), credited to an action after which the
    turn is still open, as a pass gets it."""
    child = state.copy()
    child.apply(action)
    settle_own(child, seat, evaluator)
    value = evaluator.value(child, seat)
    if str(action) == "pass":
        return value - PASS_COST
    if end:
        d = child.decision()
        if d is not None and d.seat == seat and d.kind == "action":
            value += end
    return value


class GreedyBot(Bot):
    name = "greedy"

    def ranked(
        self, game: GameDefinition[Any], view: View, samples: int = 1
    ) -> list[tuple[float, str]]:
        """Every legal action with its evaluation (averaged over `samples` imagined
        states), best first."""
        seat = view["viewer"]
        evaluator = evaluator_for(game.name)
        legal = legal_of(view)
        base = game.sample_from_view(view, self.rng.fork())
        totals = dict.fromkeys(legal, 0.0)
        for i in range(samples):
            state = base if i == 0 else base.copy()
            if i:
                state.redeal(seat, self.rng)
            end = turn_end(state, seat, evaluator)
            for action in state.legal_actions():
                totals[str(action)] += judge(state, action, seat, evaluator, end)
        jitter = {a: self.rng.below(1 << 20) for a in legal}
        return sorted(
            ((v / samples, a) for a, v in totals.items()), key=lambda t: (-t[0], jitter[t[1]])
        )

    def choose(self, game: GameDefinition[Any], view: View) -> str:
        legal = legal_of(view)
        if len(legal) == 1:
            return legal[0]
        return self.ranked(game, view)[0][1]

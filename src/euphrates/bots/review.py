"""Judging one move of a game for its review, on its mover's view alone.

`review_move(game, view, action, seed)` needs nothing but the mover's view before the
move and the move's text, never the state, which knows every hand. It compares the move
with its alternatives on the same imagined states (bots/judging.py: the same worlds for
every candidate, play going on greedily, the mover's chance of winning at the end), in
three steps, each dearer than the last and each on fewer moves:

1. **Screen** (`SCREEN`): the move and the best `width` others by the greedy
   judgement (all of a small decision), each played until the next turn's action is
   asked, on a few worlds.
2. **Reply** (`REPLY_STEP`): the move and the screen's best few, on through the next
   player's turn, so that what the next player does with the move shows.
3. **Confirm** (`CONFIRM`): where the reply step leaves the move behind, the move and
   the reply step's best few on many more worlds, through the next player's turn.

A move is flagged only by the confirmation, and only when the better move's chance beats
the move's by `LOSS` or more on average, world by world, and by more than `Z` standard
errors of those paired differences, so that a choice between alternatives whose values
differ within noise is not flagged. A forced move (one legal action) is never judged, and
a commitment in a conflict whose result no commitment changes, in any world, is never
flagged: it is judged by the conflict's outcome first, then by what the cards or tiles
left are worth. The confirmation's budget, `CONFIRM.worlds` rollouts per candidate, is
far above the strong level's (some 32 rollouts in all a decision in the card game; on
the board, ISMCTS at 2 000 iterations spread over sixteen candidates).

The reply holds the chance of the move and of the better one in the same units
(`after`, `best.after`), the best judged (`before`: what the position offered, so the
chart's drop is the move's loss), the decision's kind and, for a flagged move, why
(`why`: a key of the book's `review.why.*` and its parameters, words/advice.py says it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from euphrates.bots.greedy import GreedyBot
from euphrates.bots.judging import REPLY, SETTLE, Judge, Judged, judge_for, judge_moves, worlds
from euphrates.core.history import without_history
from euphrates.core.protocol import View
from euphrates.games import game_definition


@dataclass(frozen=True)
class Step:
    worlds: int
    width: int
    horizon: int


@dataclass(frozen=True)
class Depth:
    """The three steps' budgets, and whether the worlds are read from the table where
    the view's history allows (bots/judging.py, `worlds`)."""

    screen: Step
    reply: Step
    confirm: Step
    reads: bool = True


SCREEN = Step(worlds=8, width=8, horizon=SETTLE)
REPLY_STEP = Step(worlds=8, width=2, horizon=REPLY)
CONFIRM = Step(worlds=32, width=3, horizon=REPLY)
FULL = Depth(SCREEN, REPLY_STEP, CONFIRM)
QUICK = Depth(Step(2, 3, SETTLE), Step(2, 1, SETTLE), Step(8, 1, SETTLE), reads=False)
"""For a machine that cannot spare the full review, and for the tests of what carries a
review (the server, the replay): every move judged to the end of its own consequences
only, not through the next player's turn, on fewer worlds and candidates, dealt at
random (reading a card game's table costs some 15 times the quick review of it); what
it flags it flags by the same rule."""
DEPTHS = {"full": FULL, "quick": QUICK}
ALL_SMALL = 10
"""A decision with at most this many legal actions has all of them screened."""
LOSS = 0.05
"""Chance of winning the better move must gain, at least, for a move to be flagged."""
Z = 2.0
"""Standard errors of the paired differences the gain must exceed."""
BATCH = 8
"""Worlds the confirmation adds at a time; it stops once the verdict is sure."""
SUSPECT = 0.02
"""A loss at the reply step beyond which the confirmation is run."""


def candidates(game: str, view: View, action: str, seed: int, width: int) -> list[str]:
    """The move and the best `width` others by the greedy judgement (all of a small
    decision), the move first."""
    legal = list(view["legal"])
    if len(legal) <= ALL_SMALL:
        others = [a for a in legal if a != action]
    else:
        ranked = GreedyBot(seed).ranked(game_definition(game), view)
        others = [a for _, a in ranked if a != action][:width]
    return [action, *others]


def _conflict_open(judged: Judged, moves: list[str]) -> bool:
    """Whether some commitment changes the conflict's result in some world."""
    results = {tuple(f.won - f.lost for f in judged.facts[a]) for a in moves}
    return len(results) > 1


def review_move(
    game: str,
    view: View,
    action: str,
    seed: int,
    judge: Judge | None = None,
    depth: Depth = FULL,
) -> dict[str, Any]:
    """One move's review from the mover's view before it (see the docstring):
    {kind, forced, before, after, best, why}; `best` is None or {action, after, error}."""
    judge = judge or judge_for(game)
    seat = int(view["viewer"])
    decision = view.get("decision") or {}
    kind = str(decision.get("kind", "action"))
    legal = list(view["legal"])
    shown = view if depth.reads else without_history(view)
    imagined = worlds(
        game, shown, seed, max(depth.screen.worlds, depth.reply.worlds, depth.confirm.worlds)
    )
    if len(legal) <= 1:
        after = judge_moves(judge, imagined[:4], seat, [action], SETTLE).mean(action)
        return _reply(kind, True, after, after, None)
    moves = candidates(game, view, action, seed, depth.screen.width)
    screen = judge_moves(judge, imagined[: depth.screen.worlds], seat, moves, depth.screen.horizon)
    if kind == "commit" and not _conflict_open(screen, moves):
        after = screen.mean(action)
        return _reply(kind, False, max(after, screen.mean(screen.best())), after, None)
    step = depth.reply if kind == "action" else None
    if step is not None:
        best = [a for a in screen.ranked() if a != action][: step.width]
        judged = judge_moves(judge, imagined[: step.worlds], seat, [action, *best], step.horizon)
    else:
        judged = screen
    after = judged.mean(action)
    top = judged.best()
    before = max(after, judged.mean(top))
    if top == action or before - after < SUSPECT:
        return _reply(kind, False, before, after, None)
    best = [a for a in judged.ranked() if a != action][: depth.confirm.width]
    horizon = depth.confirm.horizon if kind == "action" else SETTLE
    confirmed = Judged()
    for end in range(BATCH, depth.confirm.worlds + 1, BATCH):
        judge_moves(judge, imagined[:end], seat, [action, *best], horizon, confirmed)
        top = confirmed.best()
        gain, error = (0.0, 0.0) if top == action else confirmed.gain(top, action)
        # stop early once the gain is surely below LOSS, or surely above it
        if gain + Z * error < LOSS or (gain >= LOSS and gain > Z * error and end >= 2 * BATCH):
            break
    after = confirmed.mean(action)
    before = max(after, confirmed.mean(top))
    if top == action or gain < LOSS or gain <= Z * error:
        return _reply(kind, False, before, after, None)
    better = {"action": top, "after": round(confirmed.mean(top), 4), "error": round(error, 4)}
    return _reply(kind, False, before, after, better, why(kind, confirmed, action, top))


def why(kind: str, judged: Judged, action: str, better: str) -> dict[str, Any]:
    """Why `better` beats `action`, as far as the events of the worlds tell: a key of the
    book (`review.why.*`) and its parameters."""
    mine, theirs = judged.facts[action], judged.facts[better]
    n = len(mine)

    def share(values: list[int]) -> float:
        return sum(values) / n

    conflict = next((f.conflict for f in mine + theirs if f.conflict), "")
    lost = share([f.lost for f in mine]) - share([f.lost for f in theirs])
    won = share([f.won for f in theirs]) - share([f.won for f in mine])
    if kind == "commit" and (lost > 0.3 or won > 0.3):
        return {"key": f"review.why.{conflict or 'revolt'}_lost", "params": {}}
    if kind == "commit":
        return {"key": "review.why.commit_waste", "params": {}}
    reply = share([f.lost_in_reply for f in mine]) - share([f.lost_in_reply for f in theirs])
    if reply > 0.3:
        return {"key": "review.why.leader_open", "params": {}}
    given = share([f.treasures_given for f in mine]) - share([f.treasures_given for f in theirs])
    if given > 0.3:
        return {"key": "review.why.treasure_given", "params": {}}
    missed = share([f.treasures for f in theirs]) - share([f.treasures for f in mine])
    if missed > 0.3:
        return {"key": "review.why.treasure_missed", "params": {}}
    if lost > 0.3 or won > 0.3:
        return {"key": f"review.why.{conflict or 'revolt'}_lost", "params": {}}
    home = share([f.leaders_home for f in mine]) - share([f.leaders_home for f in theirs])
    if home > 0.3:
        return {"key": "review.why.leader_home", "params": {}}
    return {"key": "review.why.chance", "params": {}}


def _reply(
    kind: str,
    forced: bool,
    before: float,
    after: float,
    best: dict[str, Any] | None,
    reason: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "forced": forced,
        "before": round(before, 4),
        "after": round(after, 4),
        "best": best,
        "why": reason,
    }

"""How well the review judges (`euphrates review-bench`), on positions of fresh games.

Positions come from self-play of the strong level at a fixed budget (`STRONG`), in games
dealt from `seed`, `seed + 1`, … (no one tuned the review on them: pick a fresh seed);
each game gives every decision with a choice a chance of `SAMPLE` of being taken. At
each position a **referee**, deeper than the review (`REFEREE`: more worlds, more
candidates, every kind of decision played on through the next player's turn, on worlds
of its own), judges the strong bot's move and some alternatives (the greedy judgement's
best and a few legal moves at random). Then:

* **planted blunders**: an alternative the referee rates at least `BLUNDER` below the
  strong bot's move replaces it, and the review judges it: the share flagged;
* **false flags**: the expert level's move at the same position (`EXPERT`, a fixed
  budget), judged by the review: the share flagged;
* **upheld**: of the expert's flagged moves, the share the referee upholds (it too
  rates the review's better move at least `LOSS` above the expert's, beyond `Z`
  standard errors), and the share of all expert moves flagged but not upheld;
* **agreement**: of the flags, the share whose better move is the referee's best (the
  referee's own best, judged on its worlds with the review's better move added), and the
  share whose better move the referee cannot tell from its best (within `Z` standard
  errors of their paired difference).

Each figure has its Wilson 95 % interval. The review's seconds per move are counted too.

Two switches compare the review with and without the reading of the table
(bots/inference.py) on the same positions: `read` hands the review the mover's public
history beside its view, as a server's review does in the card game; `truth` has the
referee judge on the real hands (its worlds are the real state, only the deck and the
removed cards shuffled) instead of on worlds dealt from the view. A referee that deals
from the view cannot tell a reading review from a worse one (both differ from it where
the reading says something); one that knows the hands can.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from euphrates.bots.greedy import GreedyBot
from euphrates.bots.imagined import unseen_shuffled
from euphrates.bots.inference import READABLE
from euphrates.bots.judging import REPLY, SETTLE, Judged, judge_for, judge_moves, worlds
from euphrates.bots.levels import make_bot
from euphrates.bots.review import LOSS, review_move
from euphrates.core.errors import ArgumentError
from euphrates.core.history import History, with_history, without_history
from euphrates.core.protocol import GameState, View
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.match.ratings import wilson

STRONG = {"cards": "rollout:32i", "board": "mcts:2000i"}
"""The strong level (`search:1s`) as the fixed budgets docs/bots.md measures it at."""
EXPERT = {"cards": "rollout:160i", "board": "mcts:10000i"}
"""The expert level (`search:5s`): five times the strong budget."""
SAMPLE = 6
"""One decision in this many (of those with a choice) is taken as a position."""
BLUNDER = 0.15
Z = 2.0


@dataclass(frozen=True)
class Referee:
    """The referee's budget: worlds of a first look at every candidate (to the end of
    the move's consequences), worlds of the second look (through the next player's
    turn) at the few that matter (the first look's best three and `near` of those it
    put near a blunder), candidates by the greedy judgement and at random."""

    first: int = 8
    worlds: int = 48
    greedy: int = 10
    random: int = 30
    near: int = 4


def _position_seed(seed: int, game_index: int, move: int) -> int:
    return (seed * 1_000_003 + game_index) * 4096 + move


def referee_worlds(
    game: str, view: View, truth: GameState[Any] | None, seed: int, count: int
) -> list[GameState[Any]]:
    """The referee's worlds: dealt from `view`, or, given the real state (`truth`, the
    card game's), that state with only the cards nobody holds shuffled."""
    if truth is None:
        return worlds(game, view, seed ^ 0xA5A5A5A5, count)
    rng = Rng(seed ^ 0xA5A5A5A5)
    return [unseen_shuffled(truth, rng) for _ in range(count)]


def referee(
    game: str,
    view: View,
    chosen: str,
    seed: int,
    budget: Referee,
    imagined: list[GameState[Any]],
) -> tuple[Judged, list[str]]:
    """The referee's judgement of `chosen` and its alternatives on its worlds
    (`imagined`), and the blunders among them (at least `BLUNDER` below `chosen`)."""
    judge = judge_for(game)
    seat = int(view["viewer"])
    legal = list(view["legal"])
    ranked = [a for _, a in GreedyBot(seed).ranked(game_definition(game), view)]
    pool = [chosen, *[a for a in ranked if a != chosen][: budget.greedy]]
    rest = [a for a in legal if a not in pool]
    rng = Rng(seed ^ 0x5EED)
    rng.shuffle(rest)
    pool += rest[: budget.random]
    # a first look at the whole pool, to the end of the move's consequences
    judged = judge_moves(judge, imagined[: budget.first], seat, pool, SETTLE)
    base = judged.mean(chosen)
    near = [a for a in pool if base - judged.mean(a) >= BLUNDER - 0.05]
    rng.shuffle(near)
    keep = [chosen, *judged.ranked()[:3], *near[: budget.near]]
    deep = Judged()
    judge_moves(judge, imagined, seat, list(dict.fromkeys(keep)), REPLY, deep)
    base = deep.mean(chosen)
    blunders = [a for a in deep.values if a != chosen and base - deep.mean(a) >= BLUNDER]
    return deep, blunders


def verdict(
    game: str, view: View, judged: Judged, imagined: list[GameState[Any]], better: str
) -> tuple[bool, bool]:
    """Whether the review's `better` is the referee's best, and whether the referee cannot
    tell it from its best; `better` is judged on the referee's worlds if it was not."""
    if better not in judged.values:
        judge_moves(judge_for(game), imagined, int(view["viewer"]), [better], REPLY, judged)
    best = judged.best()
    if best == better:
        return True, True
    gain, error = judged.gain(best, better)
    return False, gain <= Z * error


def confirmed(
    game: str,
    view: View,
    judged: Judged,
    imagined: list[GameState[Any]],
    move: str,
    better: str,
) -> bool:
    """Whether the referee, on its own worlds, also rates `better` at least the review's
    LOSS above `move`, beyond `Z` standard errors: a flag the deeper judgement upholds."""
    missing = [a for a in (move, better) if a not in judged.values]
    if missing:
        judge_moves(judge_for(game), imagined, int(view["viewer"]), missing, REPLY, judged)
    gain, error = judged.gain(better, move)
    return gain >= LOSS and gain > Z * error


@dataclass(frozen=True)
class Position:
    read_view: View
    """The mover's view with its history beside it (for a review that reads the table)."""
    chosen: str
    seed: int
    state: GameState[Any]
    """The real state (for a referee that knows the hands)."""

    @property
    def view(self) -> View:
        """The mover's view alone, as the self-play's bots and the referee see it."""
        return without_history(self.read_view)


def positions(game: str, players: int, seed: int, strong: str) -> Callable[[], Position]:
    """Positions of strong self-play, one at a time."""
    definition = game_definition(game)
    state: Any = None
    bots: list[Any] = []
    history = History()
    rng = Rng(seed)
    game_index = -1
    move = 0

    def next_position() -> Position:
        nonlocal state, bots, history, rng, game_index, move
        while True:
            if state is None or state.is_over():
                game_index += 1
                state = definition.new_game(players, seed + game_index)
                bots = [make_bot(strong, (seed + game_index) * 8 + s, game) for s in range(players)]
                history = History()
                rng = Rng(seed + game_index)
                move = 0
            seat = state.to_move()
            view = state.view(seat)
            action = bots[seat].choose(definition, view)
            taken = len(view["legal"]) > 1 and rng.below(SAMPLE) == 0
            here = _position_seed(seed, game_index, move)
            found = None
            if taken:
                found = Position(with_history(view, history), action, here, state.copy())
            history.play(state, action)
            move += 1
            if found is not None:
                return found

    return next_position


def run_review_bench(
    game: str,
    count: int,
    seed: int,
    players: int = 2,
    strong: str | None = None,
    expert: str | None = None,
    budget: Referee | None = None,
    log: Callable[[dict[str, Any]], None] | None = None,
    read: bool = False,
    truth: bool = False,
) -> dict[str, Any]:
    """The figures on `count` positions (see the docstring)."""
    if (read or truth) and game not in READABLE:
        raise ArgumentError(
            f"the review reads the table of the card game only, not of {game!r} (read, truth)"
        )
    budget = budget or Referee()
    strong = strong or STRONG[game]
    expert = expert or EXPERT[game]
    definition = game_definition(game)
    take = positions(game, players, seed, strong)
    rows: list[dict[str, Any]] = []
    review_seconds = 0.0
    reviews = 0
    start = time.perf_counter()

    def reviewed(position: Position, move: str) -> dict[str, Any]:
        nonlocal review_seconds, reviews
        t = time.perf_counter()
        shown = position.read_view if read else position.view
        judgement = review_move(game, shown, move, position.seed)
        review_seconds += time.perf_counter() - t
        reviews += 1
        return judgement

    for _ in range(count):
        position = take()
        view, chosen, here = position.view, position.chosen, position.seed
        row: dict[str, Any] = {"seed": here, "kind": view["decision"]["kind"], "chosen": chosen}
        imagined = referee_worlds(
            game, view, position.state if truth else None, here, budget.worlds
        )
        judged, blunders = referee(game, view, chosen, here, budget, imagined)
        if blunders:
            planted = blunders[Rng(here).below(len(blunders))]
            judgement = reviewed(position, planted)
            row["planted"] = planted
            row["planted_loss"] = round(judged.mean(chosen) - judged.mean(planted), 4)
            row["planted_flagged"] = judgement["best"] is not None
            if judgement["best"] is not None:
                better = judgement["best"]["action"]
                row["planted_agree"] = verdict(game, view, judged, imagined, better)
        move = make_bot(expert, here, game).choose(definition, view)
        judgement = reviewed(position, move)
        row["expert"] = move
        row["expert_flagged"] = judgement["best"] is not None
        if judgement["best"] is not None:
            better = judgement["best"]["action"]
            row["expert_better"] = better
            row["expert_agree"] = verdict(game, view, judged, imagined, better)
            row["expert_confirmed"] = confirmed(game, view, judged, imagined, move, better)
        rows.append(row)
        if log is not None:
            log(row)
    result = figures(rows)
    seconds = time.perf_counter() - start
    return {
        "game": game,
        "players": players,
        "seed": seed,
        "positions": len(rows),
        "strong": strong,
        "expert": expert,
        "review_reads": read,
        "referee": {
            "worlds": budget.worlds,
            "first": budget.first,
            "greedy": budget.greedy,
            "random": budget.random,
            "near": budget.near,
            "knows_the_hands": truth,
        },
        **result,
        "review_seconds_per_move": round(review_seconds / max(reviews, 1), 3),
        "seconds": round(seconds, 1),
    }


def _share(hits: int, total: int) -> dict[str, Any]:
    lo, hi = wilson(hits, total) if total else (0.0, 1.0)
    rate = hits / total if total else None
    return {
        "hits": hits,
        "of": total,
        "rate": None if rate is None else round(rate, 4),
        "wilson95": [round(lo, 4), round(hi, 4)],
    }


def figures(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The three figures from the positions' rows (see the docstring)."""
    planted = [r for r in rows if "planted" in r]
    flagged = [r for r in planted if r["planted_flagged"]]
    false = [r for r in rows if r.get("expert_flagged")]
    verdicts = [r["planted_agree"] for r in flagged] + [r["expert_agree"] for r in false]
    experts = sum(1 for r in rows if "expert" in r)
    upheld = sum(1 for r in false if r.get("expert_confirmed"))
    return {
        "planted_flagged": _share(len(flagged), len(planted)),
        "expert_flagged": _share(len(false), experts),
        "expert_flags_upheld": _share(upheld, len(false)),
        "expert_flagged_not_upheld": _share(len(false) - upheld, experts),
        "agreement": _share(sum(1 for strict, _ in verdicts if strict), len(verdicts)),
        "agreement_within_noise": _share(sum(1 for _, tie in verdicts if tie), len(verdicts)),
    }


def line_writer(path: str | None) -> Callable[[dict[str, Any]], None] | None:
    """A log that appends each position's row to `path` as a JSON line."""
    if path is None:
        return None

    def write(row: dict[str, Any]) -> None:
        with open(path, "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")

    return write

"""A game's review: for each move, the mover's chance of winning before and after, as
the mover could judge it then, and the best alternative where a move lost much.

`review(record)` replays the record and hands each move's view (the mover's, never
the state) to `bots.review.review_move`, as a server hands it to its bot workers, one
move at a time; the result is JSON, the same document a server stores with the game,
for the terminal (`euphrates review RECORD`). Which estimate each game uses (a value
model, or the evaluation's chance) is said in bots/review.py.
"""

from __future__ import annotations

from typing import Any

from euphrates.bots.review import estimate_for, review_move
from euphrates.bots.value import ValueModel
from euphrates.match.records import GameRecord


def review(record: GameRecord, model: ValueModel | None = None) -> dict[str, Any]:
    """The review of `record` as JSON: one entry per move, each judged on its mover's
    view alone (what a server hands its workers, one move at a time)."""
    estimate = estimate_for(record.game, model)
    state = record.new_game()
    moves: list[dict[str, Any]] = []
    for i, text in enumerate(record.actions):
        decision = state.decision()
        assert decision is not None
        seat = decision.seat
        judged = review_move(estimate, state.view(seat), text, i)
        moves.append({"index": i, "seat": seat, "action": text, **judged})
        state.apply(text)
    return document(record.game, record.players, estimate.kind, moves)


def document(game: str, players: int, estimate: str, moves: list[dict[str, Any]]) -> dict[str, Any]:
    """The review's JSON, the same from the terminal and from a server."""
    return {"game": game, "players": players, "estimate": estimate, "moves": moves}


def render(doc: dict[str, Any]) -> str:
    """The review as terminal lines: move, seat, chance before → after, the better move."""
    how = "a learned value model" if doc.get("estimate") == "model" else "the bots' evaluation"
    lines = [f"{doc['game']}, {doc['players']} players: each mover's chance of winning ({how})"]
    for m in doc["moves"]:
        line = (
            f"{m['index'] + 1:4d}  seat {m['seat']}  {m['action']:<14} "
            f"{100 * m['before']:5.1f} % -> {100 * m['after']:5.1f} %"
        )
        if m["best"] is not None:
            line += f"   better: {m['best']['action']} ({100 * m['best']['after']:.1f} %)"
        lines.append(line)
    return "\n".join(lines)

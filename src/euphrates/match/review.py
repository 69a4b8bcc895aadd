"""A game's review for the terminal (`euphrates review RECORD`): each move judged from
its mover's view alone, the moves that lost a clear chance of winning flagged with the
better move, both chances, and why.

`review(record)` replays the record (`reviewdoc.moves`) and judges each move in this
process with `bots.review.review_move`, the move's number as the seed, exactly as a
server's bot workers judge it (bots/worker.py); the rows and the document are
`reviewdoc`'s, the server's too, so both give the same review of the same record. How a
move is judged is said in bots/review.py.
"""

from __future__ import annotations

from typing import Any

from euphrates.bots.judging import judge_for
from euphrates.bots.review import DEPTHS, review_move
from euphrates.match.records import GameRecord
from euphrates.match.reviewdoc import document, moves, render, row, seat_name

__all__ = ["render", "review"]


def review(record: GameRecord, depth: str = "full") -> dict[str, Any]:
    """The review of `record` as JSON (reviewdoc.py's document), at `depth` (DEPTHS)."""
    judge = judge_for(record.game)
    rows = []
    for i, seat, view, text in moves(record):
        judged = review_move(record.game, view, text, i, judge, DEPTHS[depth])
        rows.append(row(record.game, i, seat, seat_name(record, seat), view, text, judged))
    return document(record.game, record.players, judge.kind, rows)

"""A game's review as a document: the same for the terminal and for a server.

Both replay the record (`moves`), have each move judged from its mover's view alone by
`bots.review.review_move` with the move's number as the seed (the terminal in its own
process, a server on its bot workers), and build the rows and the document here, so
that a record gets the same review from `euphrates review` and from a server. In the
card game the mover's public history goes beside its view (core.history, G-3): the
review imagines the hidden cards as the mover could have read them from the table
(bots/inference.py), not as if the other players' choices told nothing.

A row names the mover (`seat`, `name`), the move (`action`), its decision's kind, the
move's chance of winning (`after`) and the best judged (`before`), and, where the review
flags the move, the better move and its chance in the same units (`best`), and `words`:
the move, the better move and why, in each language of the book.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from euphrates.bots.inference import READABLE
from euphrates.core.history import History, with_history
from euphrates.core.protocol import View
from euphrates.match.records import GameRecord
from euphrates.words.advice import review_words
from euphrates.words.book import book

FORMAT = 3
"""The document's format: 2 since rows name their mover and a flag says why, 3 since a
card game's moves are judged on hands read from the table (older reviews are redone)."""


def moves(record: GameRecord) -> Iterator[tuple[int, int, View, str]]:
    """(number, mover, the mover's view before the move, the move) for each move; in a
    game whose table a search reads, the view holds the mover's history."""
    state = record.new_game()
    history = History() if record.game in READABLE else None
    for i, text in enumerate(record.actions):
        decision = state.decision()
        if decision is None:
            raise ValueError(f"move {i + 1} of the record has no mover")
        view = state.view(decision.seat)
        yield i, decision.seat, view if history is None else with_history(view, history), text
        if history is None:
            state.apply(text)
        else:
            history.play(state, text)


def seat_name(record: GameRecord, seat: int) -> str:
    return record.seats[seat] if seat < len(record.seats) and record.seats[seat] else f"seat {seat}"


def row(
    game: str, index: int, seat: int, name: str, view: View, action: str, judged: Mapping[str, Any]
) -> dict[str, Any]:
    """One move's row from its judgement (`review_move`'s reply, `estimate` aside)."""
    best = judged.get("best")
    context = (view.get("decision") or {}).get("context") or {}
    better = best["action"] if best else None
    return {
        "index": index,
        "seat": seat,
        "name": name,
        "action": action,
        "kind": judged.get("kind", "action"),
        "forced": bool(judged.get("forced", False)),
        "before": judged["before"],
        "after": judged["after"],
        "best": best,
        "words": review_words(game, action, context, better, judged.get("why") if best else None),
    }


def document(game: str, players: int, estimate: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The review's JSON, the same from the terminal and from a server."""
    return {
        "format": FORMAT,
        "game": game,
        "players": players,
        "estimate": estimate,
        "flagged": sum(1 for r in rows if r["best"] is not None),
        "moves": rows,
    }


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def render(doc: Mapping[str, Any], lang: str = "en") -> str:
    """The review as terminal lines: every move with its chance, and for each flagged
    move the mover, the better move, both chances and why, in words."""
    by = "the value model" if doc.get("estimate") == "model" else "the bots' evaluation"
    lines = [
        f"{doc['game']}, {doc['players']} players: each mover's chance of winning after "
        f"each move, by {by}; {doc.get('flagged', 0)} flagged"
    ]
    texts = book(lang)
    for m in doc["moves"]:
        line = f"{m['index'] + 1:4d}  {m.get('name', m['seat'])}  {m['action']:<14} "
        line += f"{_pct(m['after'])}"
        best = m.get("best")
        words = (m.get("words") or {}).get(lang) or {}
        if best is not None:
            line += "\n      " + texts.t(
                "review.row",
                name=m.get("name", m["seat"]),
                move=words.get("move", m["action"]),
                after=_pct(m["after"]),
                better=words.get("better", best["action"]),
                best=_pct(best["after"]),
                why=words.get("why", ""),
            )
        lines.append(line)
    return "\n".join(lines)

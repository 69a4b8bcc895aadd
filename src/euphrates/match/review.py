"""A game's review: for each move, the mover's chance of winning before and after, as
the mover could judge it then, and the best alternative where a move lost much.

`review(record)` replays the record and, at each decision, takes only the mover's view
(never the state, which knows every hand): the chance before is the value model's
(`bots.value`) on that view; for the move played and for its alternatives, a state is
imagined from the same view (`sample_from_view`, seeded, so the review repeats), the
move applied, and the model asked about the mover's view of the result. So the chance
after is what the mover could foresee when choosing, not what the next draw revealed.
Where the move played loses more than `LOSS` of a chance, every legal alternative is
judged the same way and the best named. The result is JSON, for the terminal
(`euphrates review RECORD`) and for a server to store with the record.
"""

from __future__ import annotations

from typing import Any

from euphrates.bots.value import ValueModel
from euphrates.bots.value import load as load_value
from euphrates.core.protocol import GameDefinition, View
from euphrates.core.rng import Rng
from euphrates.games import game_definition
from euphrates.match.records import GameRecord

LOSS = 0.05
SAMPLES = 2
MAX_ALTERNATIVES = 200


def _after(
    definition: GameDefinition[Any], model: ValueModel, view: View, action: str, seed: int
) -> float:
    """The mover's chance after `action`, averaged over states imagined from `view`."""
    seat = int(view["viewer"])
    total = 0.0
    for k in range(SAMPLES):
        state = definition.sample_from_view(view, Rng(seed * 31 + k))
        state.apply(action)
        if state.is_over():
            out = state.outcome()
            assert out is not None
            total += 1.0 / len(out.winners) if seat in out.winners else 0.0
        else:
            total += model.chance(state.view(seat))
    return total / SAMPLES


def review(record: GameRecord, model: ValueModel | None = None) -> dict[str, Any]:
    """The review of `record` as JSON: one entry per move."""
    model = model or load_value(record.game)
    definition = game_definition(record.game)
    state = record.new_game()
    moves: list[dict[str, Any]] = []
    for i, text in enumerate(record.actions):
        decision = state.decision()
        assert decision is not None
        seat = decision.seat
        view = state.view(seat)
        before = model.chance(view)
        after = _after(definition, model, view, text, i)
        entry: dict[str, Any] = {
            "index": i,
            "seat": seat,
            "action": text,
            "before": round(before, 4),
            "after": round(after, 4),
            "best": None,
        }
        legal = view.get("legal") or []
        if after < before - LOSS and 1 < len(legal) <= MAX_ALTERNATIVES:
            judged = [(_after(definition, model, view, a, i), a) for a in legal]
            value, best = max(judged, key=lambda t: t[0])
            if best != text and value > after:
                entry["best"] = {"action": best, "after": round(value, 4)}
        moves.append(entry)
        state.apply(text)
    return {"game": record.game, "players": record.players, "moves": moves}


def render(doc: dict[str, Any]) -> str:
    """The review as terminal lines: move, seat, chance before → after, the better move."""
    lines = [f"{doc['game']}, {doc['players']} players: each mover's chance of winning"]
    for m in doc["moves"]:
        line = (
            f"{m['index'] + 1:4d}  seat {m['seat']}  {m['action']:<14} "
            f"{100 * m['before']:5.1f} % -> {100 * m['after']:5.1f} %"
        )
        if m["best"] is not None:
            line += f"   better: {m['best']['action']} ({100 * m['best']['after']:.1f} %)"
        lines.append(line)
    return "\n".join(lines)

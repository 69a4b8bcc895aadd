"""The move log: one entry per action, in words from the events the person's seat may
see (never from another seat's action text, which can name secret tiles or a face-down
bridge's colour, G-3, C-11): the answer to the pending decision, then the results it
brought (conflicts, points, treasures, monuments)."""

from __future__ import annotations

from collections.abc import Sequence

from euphrates.core.protocol import Decision, Event, Seat
from euphrates.match.narrate import Words, describe

_ANSWERS = {
    # decision kind -> the event kinds that answer it, in the order they are tried
    "action": (
        "tile_placed leader_placed leader_moved leader_withdrawn catastrophe swapped passed "
        "card bridge leader pass"
    ),
    "commit": "committed commit",
    "war_order": "war",
    "monument": "monument_built monument_declined",
    "treasure": "treasure_taken",
    "exchange": "exchange exchange_none",
    "ship": "ship",
}
_SILENT = {
    "point": "took no point",
    "ship_point": "took no ship point",
    "ship": "built no ship",
}
# What a log entry adds after the move itself: results everyone wants to see again.
_HIGHLIGHTS = frozenset(
    {
        "revolt",
        "war",
        "conflict_resolved",
        "revolt_result",
        "war_result",
        "scored",
        "point",
        "treasure_taken",
        "monument_built",
        "leader_returned",
        "leader_returns",
        "bridge_up",
        "ship",
        "game_over",
        "bag_empty",
        "treasures_low",
    }
)


def entry_parts(
    game: str,
    decision: Decision,
    events: Sequence[Event],
    viewer: Seat | None,
    names: Sequence[str] | None = None,
) -> tuple[str, list[str]]:
    """A move-log entry for one action, as the answer to the decision and the results it
    brought, both from the events the viewer may see (never from the action text)."""
    w = Words(viewer, names)
    kinds = _ANSWERS.get(decision.kind, "").split()
    if decision.kind in ("point", "ship_point"):
        kinds = ["point"]
    visible = [e for e in events if e.visible_to(viewer)]
    main: Event | None = None
    for e in visible:
        if e.kind in kinds and e.data.get("seat", decision.seat) == decision.seat:
            main = e
            break
    if main is None:
        head = f"{w.who(decision.seat)} {_SILENT.get(decision.kind, 'answered ' + decision.kind)}"
    else:
        head = describe(game, main, viewer, names) or ""
    rest = [
        text
        for e in visible
        if e is not main and e.kind in _HIGHLIGHTS
        for text in [describe(game, e, viewer, names)]
        if text
    ]
    return head, rest

"""The move log: one entry per action, in words from the events the person's seat may
see (never from another seat's action text, which can name secret tiles or a face-down
bridge's colour, G-3, C-11): the answer to the pending decision, then the results it
brought (conflicts, points, treasures, monuments)."""

from __future__ import annotations

from collections.abc import Sequence

from euphrates.core.protocol import Decision, Event
from euphrates.words import Voice, describe, tell

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
    "ship": "ship ship_declined",
    "point": "point point_declined",
    "ship_point": "point point_declined",
}
_SILENT = ("point", "ship_point", "ship")  # a "no" with no event of its own (cards.log.declined)
# What a log entry adds after the move itself: results everyone wants to see again.
_HIGHLIGHTS = frozenset(
    {
        "revolt",
        "war",
        "conflict_resolved",
        "revolt_result",
        "war_result",
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
    game: str, decision: Decision, events: Sequence[Event], v: Voice
) -> tuple[str, list[str]]:
    """A move-log entry for one action, as the answer to the decision and the results it
    brought (the points scored last), both from the events the voice's viewer may see
    (never from the action text)."""
    kinds = _ANSWERS.get(decision.kind, "").split()
    visible = [e.to_json() for e in events if e.visible_to(v.viewer)]
    main = next(
        (
            e
            for e in visible
            if e["kind"] in kinds and e.get("seat", decision.seat) == decision.seat
        ),
        None,
    )
    if main is None:
        declined = decision.kind if decision.kind in _SILENT else "any"
        head = v.say(f"cards.log.declined.{declined}", {"who": decision.seat})
    elif main["kind"] == "point":  # a point paid is told as the points are
        head = tell(game, [main], v).scores[0]
    else:
        head = describe(game, main, v) or ""
    rest = [
        text
        for e in visible
        if e is not main and e["kind"] in _HIGHLIGHTS
        for text in [describe(game, e, v)]
        if text
    ]
    return head, rest + tell(game, [e for e in visible if e is not main], v).scores

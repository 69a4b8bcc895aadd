"""The board game's events in words (docs/board.md, "Events"), as its browser log words
them (`web/js/board/words.js`): the same keys with the same parameters, so that the
terminal and the browser say the same (tests/web/test_book.py compares them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from euphrates.words.book import shown
from euphrates.words.voice import (
    COLOURS,
    LEADERS,
    LETTER_COLOUR,
    Voice,
    as_colour,
    counted,
    is_seat,
    leader_words,
    returning,
)

KINDS = frozenset(
    [
        "tile_placed",
        "leader_placed",
        "leader_moved",
        "leader_withdrawn",
        "leader_returned",
        "catastrophe",
        "swapped",
        "discarded",
        "drew",
        "drew_tiles",
        "passed",
        "revolt",
        "war",
        "wars",
        "unification",
        "unification_removed",
        "committed",
        "conflict_resolved",
        "tiles_removed",
        "scored",
        "monument_built",
        "monument_declined",
        "treasure_taken",
        "turn_started",
        "bag_empty",
        "treasures_low",
        "game_over",
    ]
)
"""Every event kind the board engine emits: each has words here."""

TURN = "turn_started"


def _tiles(v: Voice, tiles: Any) -> str:
    """`2 temples, 1 farm`."""
    counts = counted(tiles or [])
    return ", ".join(
        f"{k} {v.t(f'tile.{c}' if k == 1 else f'tiles.{c}')}" for c, k in counts.items()
    )


def monument_colours(code: str) -> tuple[str, str]:
    """A monument's two colours from its name (`red-blue`) or code (`rb`)."""
    parts = code.split("-") if "-" in code else [LETTER_COLOUR.get(x, "") for x in code]
    first = as_colour(parts[0] if parts else "") or "red"
    second = as_colour(parts[1] if len(parts) > 1 else "") or "blue"
    return first, second


def describe(v: Voice, e: Mapping[str, Any]) -> str | None:
    """One event the viewer may see, in words; None for those told elsewhere (the turn,
    points) or not at all (the viewer's own public count of a draw)."""
    seat = e.get("seat")
    who = {"who": seat if is_seat(seat) else None}
    sq = e.get("square")
    match e.get("kind"):
        case "turn_started" | "scored":
            return None
        case "tile_placed":
            c = e.get("colour")
            return v.say("log.tile", who, colour=v.t(f"colour_n.{c}"), tile=v.t(f"tile.{c}"), sq=sq)
        case "leader_placed" | "leader_withdrawn" as kind:
            return v.say(
                f"log.{kind}", who, leader=leader_words(v, e.get("leader"), "leader_acc"), sq=sq
            )
        case "leader_moved":
            leader = leader_words(v, e.get("leader"), "leader_acc")
            return v.say("log.leader_moved", who, leader=leader, sq=sq, **{"from": e.get("from")})
        case "leader_returned":
            return v.say("log.leader_returned", who, sq=sq, **returning(v, e.get("leader")))
        case "catastrophe":
            return v.say("log.catastrophe", who, sq=sq)
        case "swapped":
            return v.say("log.swapped", who, n=e.get("count"))
        case "discarded":
            return v.t("log.discarded", tiles=_tiles(v, e.get("tiles")))
        case "drew":
            return None if seat == v.viewer else v.say("log.drew", who, n=e.get("count"))
        case "drew_tiles":
            return v.say("log.drew_tiles", who, tiles=_tiles(v, e.get("tiles")))
        case "passed":
            return v.say("log.passed", who)
        case "revolt" | "war" as kind:
            return v.say(
                f"log.{kind}",
                {"a": e.get("attacker"), "d": e.get("defender")},
                leader=leader_words(v, e.get("leader"), "leader"),
                **{"as": e.get("attacker_strength"), "ds": e.get("defender_strength")},
            )
        case "wars":
            names = [
                v.t(f"leaders.{LEADERS[COLOURS.index(c)]}") if as_colour(c) else v.t(f"colour.{c}")
                for c in e.get("colours") or []
            ]
            return v.t("log.wars", list=v.listing(names))
        case "unification":
            return v.t("log.unification", sq=sq)
        case "unification_removed":
            return v.t("log.unification_removed")
        case "committed":
            return v.say("log.committed", who, n=e.get("count"))
        case "conflict_resolved":
            return v.say(
                "log.resolved",
                {"who": e.get("winner")},
                at=e.get("attacker_total"),
                dt=e.get("defender_total"),
            )
        case "tiles_removed":
            n = len(e.get("squares") or [])
            colour = e.get("colour")
            return v.t("log.tiles_removed", n=n, tiles=v.t(f"tile{'' if n == 1 else 's'}.{colour}"))
        case "monument_built":
            a, b = monument_colours(shown(e.get("monument") or ""))
            return v.t("log.monument_built", a=v.t(f"colour.{a}"), b=v.t(f"colour.{b}"), sq=sq)
        case "monument_declined":
            return v.say("log.monument_declined", who)
        case "treasure_taken":
            return v.say("log.treasure_taken", who, sq=sq)
        case "bag_empty":
            return v.say("log.bag_empty", who)
        case "treasures_low":
            return v.t("log.treasures_low", n=e.get("left"))
        case "game_over":
            return v.t("log.game_over")
        case "undo":
            return v.say("log.undo", who)
        case kind:
            return v.t("log.other", kind=shown(kind))


def scores(v: Voice, events: list[Mapping[str, Any]]) -> list[str]:
    """The points of a step, one text each: `+2 red for Ann`."""
    return [
        v.say(
            "log.scored",
            {"who": e.get("seat")},
            n=e.get("points"),
            colour=v.t(f"colour.{e.get('colour')}"),
        )
        for e in events
        if e.get("kind") == "scored"
    ]

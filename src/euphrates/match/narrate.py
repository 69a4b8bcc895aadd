"""Events in words, for one seat.

A client tells a player what happened only from the events that seat may see
(`Event.visible_to`), never from another seat's action text: a swap's text names the
discarded tiles and a bridge's text its colour, both secret (G-3, C-11, C-19). The
events carry everything public — who moved what where, every commitment, conflict
strengths and winners, every point as it is scored (G-3, B-33) — so the words can be
complete without revealing anything.

`describe(game, event, viewer)` words one event; `narrate` words an action's events for
a viewer, leaving out what the viewer may not see. Words follow the rules: squares as on the map (A1..P11), card-game spots as
columns, rows and bridges (docs/cards.md), colours and leaders by name.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES, parse_colour, parse_leader
from euphrates.core.protocol import Event, Seat

TILE_WORDS = {"red": "temple", "blue": "farm", "green": "market", "black": "settlement"}


class Words:
    """How seats are called for one viewer: `you` for the viewer, a name for the rest."""

    def __init__(self, viewer: Seat | None, names: Sequence[str] | None = None) -> None:
        self.viewer = viewer
        self.names = names

    def who(self, seat: Any) -> str:
        if seat == self.viewer:
            return "you"
        if isinstance(seat, int) and self.names and 0 <= seat < len(self.names):
            return self.names[seat]
        return f"seat {seat}"

    def whose(self, seat: Any) -> str:
        return "your" if seat == self.viewer else f"{self.who(seat)}'s"

    def their(self, seat: Any) -> str:
        return "your" if seat == self.viewer else "their"


def colour_word(value: Any) -> str:
    """A colour by name from an index, a letter (`g`, `k`) or a name; `t` is a treasure."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return COLOUR_NAMES[value]
    if isinstance(value, str):
        if value.lower() == "t":
            return "treasure"
        c = parse_colour(value)
        if c is not None:
            return COLOUR_NAMES[c]
    return str(value)


def leader_word(value: Any) -> str:
    """A leader by name from a colour index, a letter (`T`) or a name."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return LEADER_NAMES[value]
    if isinstance(value, str):
        c = parse_leader(value)
        if c is not None:
            return LEADER_NAMES[c]
    return str(value)


def plural(n: Any, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def colour_list(items: Iterable[Any], noun: str) -> str:
    """`2 red and 1 blue tile(s)` from a list or string of colours."""
    counts = Counter(colour_word(c) for c in items)
    if not counts:
        return f"no {noun}s"
    order = {name: i for i, name in enumerate((*COLOUR_NAMES, "treasure"))}
    parts = [f"{n} {c}" for c, n in sorted(counts.items(), key=lambda kv: order.get(kv[0], 9))]
    total = sum(counts.values())
    head = ", ".join(parts[:-1])
    joined = f"{head} and {parts[-1]}" if head else parts[0]
    return f"{joined} {noun}" + ("s" if total != 1 else "")


def and_list(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def spot_words(spot: Any) -> str:
    """A card-game spot: `3.0` the head of column 3, `3.2` column 3 row 2, `3-4` a bridge."""
    text = str(spot)
    if "-" in text:
        a, _, b = text.partition("-")
        return f"the bridge between columns {a} and {b}"
    col, _, row = text.partition(".")
    if row in ("", "0"):
        return f"the head of column {col}"
    return f"column {col}, row {row}"


def gap_words(gap: Any) -> str:
    a, _, b = str(gap).partition("-")
    return f"columns {a} and {b}"


def winners_words(w: Words, places: Sequence[int]) -> str:
    """Who won, for the viewer of `w`: "you won", "seat 2 won" or "… share first place"."""
    firsts = [s for s, p in enumerate(places) if p == 1]
    if len(firsts) == 1:
        return f"{w.who(firsts[0])} won" if firsts[0] != w.viewer else "you won"
    return f"{and_list([w.who(s) for s in firsts])} share first place"


# --- the board game (docs/board.md "Events") --------------------------------------------
_RETURN_REASONS = {
    "revolt lost": "after losing the revolt",
    "war lost": "after losing the war",
    "no temple": "with no temple left beside it (B-10)",
}
_SCORE_REASONS = {
    "tile": "for a tile",
    "revolt": "for the revolt",
    "war": "for the war",
    "monument": "from a monument",
}


def _b_tile_placed(w: Words, d: Mapping[str, Any]) -> str:
    colour = colour_word(d["colour"])
    tile = TILE_WORDS.get(colour, "tile")
    return f"{w.who(d['seat'])} placed a {colour} tile ({tile}) on {d['square']}"


def _b_leader_placed(w: Words, d: Mapping[str, Any]) -> str:
    s = d["seat"]
    return f"{w.who(s)} placed {w.their(s)} {leader_word(d['leader'])} on {d['square']}"


def _b_leader_moved(w: Words, d: Mapping[str, Any]) -> str:
    s = d["seat"]
    return (
        f"{w.who(s)} moved {w.their(s)} {leader_word(d['leader'])} "
        f"from {d['from']} to {d['square']}"
    )


def _b_leader_withdrawn(w: Words, d: Mapping[str, Any]) -> str:
    s = d["seat"]
    return f"{w.who(s)} withdrew {w.their(s)} {leader_word(d['leader'])} from {d['square']}"


def _b_leader_returned(w: Words, d: Mapping[str, Any]) -> str:
    s = d["seat"]
    why = _RETURN_REASONS.get(str(d.get("reason")), f"({d.get('reason')})")
    return f"{w.whose(s)} {leader_word(d['leader'])} on {d['square']} went back {why}"


def _b_catastrophe(w: Words, d: Mapping[str, Any]) -> str:
    text = f"{w.who(d['seat'])} put a catastrophe on {d['square']}"
    if d.get("destroyed"):
        text += f", destroying a {d['destroyed']}"
    return text


def _b_swapped(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} swapped {plural(d['count'], 'tile')}"


def _b_discarded(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} discarded {colour_list(d['tiles'], 'tile')}"


def _b_drew(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} drew {plural(d['count'], 'tile')}"


def _b_drew_tiles(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} drew {colour_list(d['tiles'], 'tile')}"


def _b_passed(w: Words, d: Mapping[str, Any]) -> str:
    taken = d.get("actions_taken")
    after = " without an action" if taken == 0 else " after one action" if taken == 1 else ""
    return f"{w.who(d['seat'])} passed{after}"


def _b_revolt(w: Words, d: Mapping[str, Any]) -> str:
    leader = leader_word(d["leader"])
    return (
        f"revolt: {w.whose(d['attacker'])} {leader} on {d['attacker_square']} against "
        f"{w.whose(d['defender'])} {leader} on {d['defender_square']}; temples beside them "
        f"{d['attacker_strength']} against {d['defender_strength']}"
    )


def _b_war(w: Words, d: Mapping[str, Any]) -> str:
    leader = leader_word(d["leader"])
    colour = COLOUR_NAMES[LEADER_NAMES.index(leader)] if leader in LEADER_NAMES else leader
    return (
        f"{colour} war: {w.whose(d['attacker'])} {leader} on {d['attacker_square']} attacks "
        f"{w.whose(d['defender'])} {leader} on {d['defender_square']}; {colour} tiles on "
        f"their sides {d['attacker_strength']} against {d['defender_strength']}"
    )


def _b_wars(w: Words, d: Mapping[str, Any]) -> str:
    colours = [colour_word(c) for c in d["colours"]]
    return f"the joined kingdom has two leaders of {and_list(colours)}: " + (
        "a war" if len(colours) == 1 else f"{len(colours)} wars"
    )


def _b_unification(w: Words, d: Mapping[str, Any]) -> str:
    return f"the tile on {d['square']} joined two kingdoms"


def _b_unification_removed(w: Words, d: Mapping[str, Any]) -> str:
    return f"the kingdoms joined at {d['square']} are one"


def _b_committed(w: Words, d: Mapping[str, Any]) -> str:
    role = d.get("role")
    as_role = f" as {role}" if role else ""
    n = d["count"]
    what = f"no {colour_word(d['colour'])} tiles" if n == 0 else f"{n} {colour_word(d['colour'])}"
    if n:
        what += " tile" if n == 1 else " tiles"
    return f"{w.who(d['seat'])} committed {what}{as_role}"


def _b_conflict_resolved(w: Words, d: Mapping[str, Any]) -> str:
    colour = colour_word(d.get("colour"))
    name = f"{colour} war" if d.get("conflict") == "war" else f"revolt of the {_leaders(colour)}"
    att, dfn = d["attacker_total"], d["defender_total"]
    tie = " (a tie goes to the defender)" if att == dfn else ""
    return (
        f"{w.who(d['winner'])} won the {name} against {w.who(d['loser'])}, "
        f"{max(att, dfn)} to {min(att, dfn)}{tie}"
    )


def _leaders(colour: str) -> str:
    """`priests` for red: a revolt on the board is between leaders of one colour."""
    return f"{LEADER_NAMES[COLOUR_NAMES.index(colour)]}s" if colour in COLOUR_NAMES else colour


def _b_tiles_removed(w: Words, d: Mapping[str, Any]) -> str:
    squares = list(d["squares"])
    colour = colour_word(d["colour"])
    return f"{plural(len(squares), colour + ' tile')} left the board: {', '.join(squares)}"


def _b_scored(w: Words, d: Mapping[str, Any]) -> str:
    why = _SCORE_REASONS.get(str(d.get("reason")), f"({d.get('reason')})")
    return f"{w.who(d['seat'])} scored {d['points']} {colour_word(d['colour'])} {why}"


def _b_monument_built(w: Words, d: Mapping[str, Any]) -> str:
    return f"a {d['monument']} monument was built on the block at {d['square']}"


def _b_monument_declined(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} built no monument"


def _b_treasure_taken(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} took the treasure on {d['square']}"


def _turn(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.whose(d['seat'])} turn"


def _b_bag_empty(w: Words, d: Mapping[str, Any]) -> str:
    return f"the bag ran out as {w.who(d['seat'])} drew: the game ends (B-31)"


def _b_treasures_low(w: Words, d: Mapping[str, Any]) -> str:
    return f"only {plural(d['left'], 'treasure')} left on the board: the game ends (B-19, B-31)"


def _game_over(w: Words, d: Mapping[str, Any]) -> str:
    places = d.get("places")
    if not isinstance(places, list):
        return "the game is over"
    return f"the game is over: {winners_words(w, places)}"


# --- the card game (docs/cards.md) ------------------------------------------------------
_POINT_REASONS = {
    "column": "for the card added",
    "revolt": "for the revolt",
    "war": "from the war",
    "exchange": "for a treasure exchange",
    "ship": "for a ship",
}
_END_REASONS = {
    "deck": "the deck could not refill every hand (C-17)",
    "treasures": "at most one treasure card is left in the layout (C-17)",
    "stalled": "no card can ever leave a hand again",
}


def _c_bridge(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} laid a face-down bridge between {gap_words(d['gap'])}"


def _c_bridge_colour(w: Words, d: Mapping[str, Any]) -> str:
    return f"the face-down bridge between {gap_words(d['gap'])} is {colour_word(d['card'])}"


def _c_bridge_up(w: Words, d: Mapping[str, Any]) -> str:
    return f"the bridge between {gap_words(d['gap'])} was turned face up: {colour_word(d['card'])}"


def _c_card(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} added a {colour_word(d['card'])} card to column {d['column']}"


def _c_catastrophe(w: Words, d: Mapping[str, Any]) -> str:
    return (
        f"{w.who(d['seat'])} put the catastrophe on {spot_words(d['spot'])}, removing a "
        f"{colour_word(d['card'])} card"
    )


def _c_commit(w: Words, d: Mapping[str, Any]) -> str:
    n = d["count"]
    colour = colour_word(d["colour"])
    what = f"no {colour} cards" if n == 0 else plural(n, f"{colour} card")
    role = d.get("role")
    return f"{w.who(d['seat'])} committed {what}" + (f" as {role}" if role else "")


def _c_draw(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} drew {colour_list(d['cards'], 'card')}"


def _c_exchange(w: Words, d: Mapping[str, Any]) -> str:
    return (
        f"{w.who(d['seat'])} took the treasure card heading column {d['column']}, "
        "leaving a red card in its place"
    )


def _c_exchange_none(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} exchanged no further treasure card"


def _c_leader(w: Words, d: Mapping[str, Any]) -> str:
    s = d["seat"]
    leader = leader_word(d["leader"])
    if d.get("source"):
        return (
            f"{w.who(s)} moved {w.their(s)} {leader} from {spot_words(d['source'])} "
            f"to {spot_words(d['to'])}"
        )
    return f"{w.who(s)} placed {w.their(s)} {leader} on {spot_words(d['to'])}"


def _c_leader_returns(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.whose(d['seat'])} {leader_word(d['leader'])} went back under the new ship"


def _c_pass(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} passed"


def _c_point(w: Words, d: Mapping[str, Any]) -> str:
    card = colour_word(d["card"])
    why = _POINT_REASONS.get(str(d.get("reason")), f"({d.get('reason')})")
    what = "a treasure card" if card == "treasure" else f"a {card} point"
    return f"{w.who(d['seat'])} scored {what} {why}"


def _c_point_declined(w: Words, d: Mapping[str, Any]) -> str:
    why = _POINT_REASONS.get(str(d.get("reason")), f"({d.get('reason')})")
    return f"{w.who(d['seat'])} paid no {colour_word(d['colour'])} point {why}"


def _c_ship_declined(w: Words, d: Mapping[str, Any]) -> str:
    return f"{w.who(d['seat'])} built no ship in column {d['column']}"


def _c_refill(w: Words, d: Mapping[str, Any]) -> str:
    counts = d.get("counts") or []
    drawn = [f"{w.who(s)} {plural(n, 'card')}" for s, n in enumerate(counts) if n]
    head = f"refill: {', '.join(drawn)}" if drawn else "refill: no one needed a card"
    return f"{head}; {plural(d.get('deck'), 'card')} left in the deck"


def _c_revolt(w: Words, d: Mapping[str, Any]) -> str:
    leader = leader_word(d["leader"])
    head = f"revolt: {w.whose(d['attacker'])} {leader} against {w.whose(d['defender'])} {leader}"
    strength = d.get("strength")
    if isinstance(strength, list) and len(strength) == 2:
        head += f", {strength[0]} to {strength[1]} on red cards before commitments"
    return head


def _c_conflict_result(kind: str) -> Callable[[Words, Mapping[str, Any]], str]:
    def words(w: Words, d: Mapping[str, Any]) -> str:
        att, dfn = d["strength"]
        colour = colour_word(d["colour"])
        tie = " (a tie goes to the defender)" if att == dfn else ""
        name = f"{colour} war" if kind == "war" else "revolt"
        return (
            f"{w.who(d['winner'])} won the {name} against {w.who(d['loser'])}, "
            f"{max(att, dfn)} to {min(att, dfn)}{tie}"
        )

    return words


def _c_ship(w: Words, d: Mapping[str, Any]) -> str:
    ship = str(d["ship"])
    colours = "-".join(colour_word(c) for c in ship) if len(ship) == 2 else ship
    return f"{w.who(d['seat'])} built the {colours} ship in column {d['column']}"


def _c_war(w: Words, d: Mapping[str, Any]) -> str:
    colour = colour_word(d["colour"])
    att, dfn = d["strength"]
    return (
        f"{colour} war: {w.who(d['attacker'])} attacks {w.who(d['defender'])}; "
        f"{colour} cards on their sides {att} against {dfn}"
    )


def _c_game_over(w: Words, d: Mapping[str, Any]) -> str:
    why = _END_REASONS.get(str(d.get("reason")), str(d.get("reason")))
    return f"{_game_over(w, d)}; {why}"


Narrator = Callable[[Words, Mapping[str, Any]], str]

NARRATORS: dict[str, dict[str, Narrator]] = {
    "board": {
        "tile_placed": _b_tile_placed,
        "leader_placed": _b_leader_placed,
        "leader_moved": _b_leader_moved,
        "leader_withdrawn": _b_leader_withdrawn,
        "leader_returned": _b_leader_returned,
        "catastrophe": _b_catastrophe,
        "swapped": _b_swapped,
        "discarded": _b_discarded,
        "drew": _b_drew,
        "drew_tiles": _b_drew_tiles,
        "passed": _b_passed,
        "revolt": _b_revolt,
        "war": _b_war,
        "wars": _b_wars,
        "unification": _b_unification,
        "unification_removed": _b_unification_removed,
        "committed": _b_committed,
        "conflict_resolved": _b_conflict_resolved,
        "tiles_removed": _b_tiles_removed,
        "scored": _b_scored,
        "monument_built": _b_monument_built,
        "monument_declined": _b_monument_declined,
        "treasure_taken": _b_treasure_taken,
        "turn_started": _turn,
        "bag_empty": _b_bag_empty,
        "treasures_low": _b_treasures_low,
        "game_over": _game_over,
    },
    "cards": {
        "bridge": _c_bridge,
        "bridge_colour": _c_bridge_colour,
        "bridge_up": _c_bridge_up,
        "card": _c_card,
        "catastrophe": _c_catastrophe,
        "commit": _c_commit,
        "draw": _c_draw,
        "exchange": _c_exchange,
        "exchange_none": _c_exchange_none,
        "game_over": _c_game_over,
        "leader": _c_leader,
        "leader_returns": _c_leader_returns,
        "pass": _c_pass,
        "point": _c_point,
        "point_declined": _c_point_declined,
        "refill": _c_refill,
        "revolt": _c_revolt,
        "revolt_result": _c_conflict_result("revolt"),
        "ship": _c_ship,
        "ship_declined": _c_ship_declined,
        "turn": _turn,
        "war": _c_war,
        "war_result": _c_conflict_result("war"),
    },
}

# A private event and its public twin: the viewer who sees the private one reads that.
_TWINS = {"drew": "drew_tiles", "swapped": "discarded", "bridge": "bridge_colour"}

FALLBACK_PREFIX = "event "


def describe(
    game: str, event: Event, viewer: Seat | None, names: Sequence[str] | None = None
) -> str | None:
    """The event in words for `viewer`, or None when the viewer may not see it. An event
    kind without words (an engine newer than this module) is shown by its public data
    rather than lost; `FALLBACK_PREFIX` marks that text."""
    if not event.visible_to(viewer):
        return None
    w = Words(viewer, names)
    words = NARRATORS.get(game, {}).get(event.kind)
    if words is not None:
        try:
            return words(w, event.data)
        except (KeyError, TypeError, ValueError, IndexError):
            pass  # renamed data: fall through to the plain form
    shown = ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in event.data.items())
    return f"{FALLBACK_PREFIX}{event.kind.replace('_', ' ')}" + (f": {shown}" if shown else "")


def narrate(
    game: str, events: Sequence[Event], viewer: Seat | None, names: Sequence[str] | None = None
) -> list[str]:
    """One line per event the viewer may see, in order; a public count is left out when
    the same viewer also sees its private twin (your own draw or swap)."""
    private = {
        (e.kind, e.data.get("seat"), e.data.get("gap"))
        for e in events
        if e.audience is not None and e.visible_to(viewer)
    }
    lines = []
    for e in events:
        twin = _TWINS.get(e.kind)
        if twin and (twin, e.data.get("seat"), e.data.get("gap")) in private:
            continue
        if twin and e.kind == "bridge" and (twin, None, e.data.get("gap")) in private:
            continue
        text = describe(game, e, viewer, names)
        if text is not None:
            lines.append(text)
    return lines

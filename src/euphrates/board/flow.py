"""The order of steps inside each action (B-7) and the checks that refuse an action.

Every action is validated completely before anything changes, so a refused action
leaves the state as it was; the error names what is wrong and the ruling.
"""

from __future__ import annotations

from typing import Final

import euphrates.board.legal as legal
import euphrates.board.monuments as monuments
import euphrates.board.revolt as revolt
import euphrates.board.treasures as treasures
import euphrates.board.turn as turn
import euphrates.board.war as war
from euphrates.board.actions import (
    MONUMENT_CODES,
    TABLE_IDS,
    BoardAction,
    BuildMonument,
    ChooseWar,
    Commit,
    Decline,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakeTreasure,
    WithdrawLeader,
    check_action,
)
from euphrates.board.data import BoardData, occupied_squares
from euphrates.board.geometry import NEIGHBOURS, SQUARE_BITS, square_name, squares_of
from euphrates.board.phases import ACTION, MONUMENT, REVOLT, TREASURE, WAR, WAR_ORDER
from euphrates.core.colours import BLUE, COLOUR_NAMES, LEADER_NAMES, TILE_NAMES
from euphrates.core.errors import IllegalActionError
from euphrates.core.events import event
from euphrates.core.protocol import Event

_EXPECTED = {
    REVOLT: "a commitment ('commit N')",
    WAR: "a commitment ('commit N')",
    WAR_ORDER: "the choice of the next war ('war C')",
    MONUMENT: "a monument ('monument CC SQUARE') or 'decline'",
    TREASURE: "the choice of a treasure ('treasure SQUARE')",
}
_TURN_ACTIONS: Final = (PlaceTile, PlaceLeader, WithdrawLeader, PlaceCatastrophe, Swap, Pass)


def play(st: BoardData, action: BoardAction) -> list[Event]:
    """`apply`, then the next version: what `BoardState._apply` does, here so that it
    runs compiled."""
    events: list[Event] = []
    apply(st, action, events)
    st._version += 1
    st._masks = None
    st._table = None
    return events


def apply(st: BoardData, action: BoardAction, events: list[Event]) -> None:
    if id(action) not in TABLE_IDS:  # the move generator's own actions need no check
        check_action(action)
    p = st.phase
    if p == ACTION:
        if not isinstance(action, _TURN_ACTIONS):
            raise IllegalActionError(
                f"{action} is not a turn action: no conflict, monument or treasure choice is pending",
                "B-7",
            )
        _turn_action(st, action, events)
        return
    if isinstance(action, _TURN_ACTIONS):
        raise IllegalActionError(
            f"{action} cannot be played now: the pending decision is {_EXPECTED[p]} "
            f"of seat {st.decision_seat()}",
            "G-2",
        )
    if p in (REVOLT, WAR):
        if not isinstance(action, Commit):
            raise IllegalActionError(f"{action} does not answer {_EXPECTED[p]}", "G-1")
        _commit(st, action.count, events)
    elif p == WAR_ORDER:
        if not isinstance(action, ChooseWar):
            raise IllegalActionError(f"{action} does not answer {_EXPECTED[p]}", "B-22")
        if action.colour not in st.wars:
            raise IllegalActionError(
                f"there is no {COLOUR_NAMES[action.colour]} war; the wars are "
                + ", ".join(COLOUR_NAMES[c] for c in st.wars),
                "B-22",
            )
        war.begin(st, action.colour, events)
    elif p == MONUMENT:
        if isinstance(action, Decline):
            events.append(event("monument_declined", {"seat": st.active}))
        elif isinstance(action, BuildMonument):
            if (action.monument, action.square) not in st.monument_options:
                raise IllegalActionError(
                    f"{action} is not possible; the choices are "
                    + ", ".join(
                        f"monument {MONUMENT_CODES[m]} {square_name(s)}"
                        for m, s in st.monument_options
                    )
                    + " or decline",
                    "B-28",
                )
            monuments.build(st, action.monument, action.square, events)
        else:
            raise IllegalActionError(f"{action} does not answer {_EXPECTED[p]}", "B-28")
        st.monument_options = []
        _after_monument(st, events)
    elif p == TREASURE:
        if not isinstance(action, TakeTreasure):
            raise IllegalActionError(f"{action} does not answer {_EXPECTED[p]}", "B-30")
        if not st.treasure_choices >> action.square & 1:
            raise IllegalActionError(
                f"the treasure on {square_name(action.square)} cannot be taken now; take one of "
                + ", ".join(square_name(s) for s in squares_of(st.treasure_choices))
                + " (bordered treasures first)",
                "B-30",
            )
        treasures.take(st, st.treasure_owner, action.square, events)
        st.treasure_choices = 0
        st.treasure_owner = -1
        _after_treasures(st, events)
    else:  # pragma: no cover - apply() refuses actions once the game is over
        raise IllegalActionError("the game is over", "B-31")


# ---------------------------------------------------------------------- turn actions
def _turn_action(st: BoardData, action: BoardAction, events: list[Event]) -> None:
    seat = st.active
    if isinstance(action, PlaceTile):
        _check_tile(st, action)
        _place_tile(st, action.colour, action.square, events)
    elif isinstance(action, PlaceLeader):
        _check_leader(st, action)
        _place_leader(st, action.colour, action.square, events)
    elif isinstance(action, WithdrawLeader):
        if st.leader_sq[seat][action.colour] < 0:
            raise IllegalActionError(
                f"your {LEADER_NAMES[action.colour]} is not on the board, so it cannot be withdrawn",
                "B-8",
            )
        sq = st.leader_sq[seat][action.colour]
        st.leader_sq[seat][action.colour] = -1
        BoardData.lift(st, 1 << sq)
        events.append(
            event(
                "leader_withdrawn",
                {"seat": seat, "leader": LEADER_NAMES[action.colour], "square": square_name(sq)},
            )
        )
        _after_treasures_check(st, events)
    elif isinstance(action, PlaceCatastrophe):
        _check_catastrophe(st, action.square)
        _place_catastrophe(st, action.square, events)
        turn.end_action(st, events)
    elif isinstance(action, Swap):
        _swap(st, action, events)
    elif isinstance(action, Pass):
        events.append(event("passed", {"seat": seat, "actions_taken": st.actions_done}))
        turn.end_turn(st, events)


def _check_tile(st: BoardData, a: PlaceTile) -> None:
    seat, sq = st.active, a.square
    b = 1 << sq
    if st.hands[seat][a.colour] > 0:
        land, river, _, _ = legal.masks(st)
        if (river if a.colour == BLUE else land) & b:
            return
    # Not legal: find the reason to report.
    name = square_name(sq)
    if st.hands[seat][a.colour] <= 0:
        raise IllegalActionError(f"you hold no {COLOUR_NAMES[a.colour]} tile", "B-7")
    if (occupied_squares(st) | st.catas) & b:
        raise IllegalActionError(f"{name} is not empty", "B-12")
    if a.colour == BLUE:
        raise IllegalActionError(f"a blue tile goes only on a river square; {name} is land", "B-12")
    if st.map.river & b:
        raise IllegalActionError(
            f"a {COLOUR_NAMES[a.colour]} tile goes only on land; {name} is a river square", "B-12"
        )
    raise IllegalActionError(f"a tile on {name} would join three or more kingdoms", "B-12")


def _check_leader(st: BoardData, a: PlaceLeader) -> None:
    seat, sq = st.active, a.square
    b = 1 << sq
    if legal.leader_targets(st, a.colour) & b:
        return
    # Not legal: find the reason to report.
    name = square_name(sq)
    old = st.leader_sq[seat][a.colour]
    if old == sq:
        raise IllegalActionError(
            f"your {LEADER_NAMES[a.colour]} is already on {name}; a move must end elsewhere", "B-8"
        )
    occupied = occupied_squares(st) & ~(1 << old if old >= 0 else 0)
    if st.map.river & b:
        raise IllegalActionError(f"a leader cannot stand on the river ({name})", "B-8")
    if (occupied | st.catas) & b:
        raise IllegalActionError(f"{name} is not empty", "B-8")
    if not NEIGHBOURS[sq] & st.tiles[0]:
        raise IllegalActionError(f"{name} does not touch a temple", "B-8")
    raise IllegalActionError(f"a leader on {name} would join two kingdoms", "B-9")


def _check_catastrophe(st: BoardData, sq: int) -> None:
    seat = st.active
    name = square_name(sq)
    b = 1 << sq
    if st.catas_left[seat] <= 0:
        raise IllegalActionError("you have no catastrophe tile left", "B-15")
    if st.leader_bits & b:
        raise IllegalActionError(f"a catastrophe cannot go on a leader ({name})", "B-15")
    if st.catas & b:
        raise IllegalActionError(f"{name} already holds a catastrophe", "B-15")
    if st.treasures & b:
        raise IllegalActionError(f"the tile on {name} holds a treasure", "B-15")
    if st.flipped & b:
        raise IllegalActionError(f"{name} is part of a monument", "B-29")


def _place_tile(st: BoardData, colour: int, sq: int, events: list[Event]) -> None:
    """B-7 tile steps: place; score or war; monument; treasures."""
    seat = st.active
    b = SQUARE_BITS[sq]
    nb = NEIGHBOURS[sq]
    touching = [k for k in BoardData.kingdoms(st) if k & nb]
    st.hands[seat][colour] -= 1
    st.tiles[colour] |= b
    BoardData.grow(st, b, leader=False)
    st.placed = sq
    events.append(
        event(
            "tile_placed", {"seat": seat, "colour": COLOUR_NAMES[colour], "square": square_name(sq)}
        )
    )
    if len(touching) == 1:
        # B-13: the leader of the tile's colour, else the king, else no one.
        k = touching[0]
        owners = BoardData.leaders_in(st, k, colour)
        if not owners:
            owners = BoardData.leaders_in(st, k, 3)
        if owners:
            BoardData.score(st, owners[0], colour, 1, "tile", events)
    elif len(touching) == 2:
        st.unification = sq
        events.append(event("unification", {"square": square_name(sq)}))
        st.wars = war.war_colours(st, range(4))
        if st.wars:
            events.append(event("wars", {"colours": [COLOUR_NAMES[c] for c in st.wars]}))
        _next_war(st, events)
        return
    _after_wars(st, events)


def _next_war(st: BoardData, events: list[Event]) -> None:
    """B-22, B-27: fight the wars that still exist, asking for the order when two or
    more remain; then take the unification tile away."""
    st.wars = war.war_colours(st, st.wars)
    if not st.wars:
        events.append(event("unification_removed", {"square": square_name(st.unification)}))
        st.unification = -1
        _after_wars(st, events)
    elif len(st.wars) == 1:
        war.begin(st, st.wars[0], events)
    else:
        st.phase = WAR_ORDER


def _after_wars(st: BoardData, events: list[Event]) -> None:
    opts = monuments.options(st)
    if opts:
        st.monument_options = opts
        st.phase = MONUMENT
        return
    _after_monument(st, events)


def _after_monument(st: BoardData, events: list[Event]) -> None:
    st.placed = -1
    _after_treasures_check(st, events)


def _after_treasures_check(st: BoardData, events: list[Event]) -> None:
    if treasures.settle(st, events):
        return
    turn.end_action(st, events)


def _after_treasures(st: BoardData, events: list[Event]) -> None:
    _after_treasures_check(st, events)


def _place_leader(st: BoardData, colour: int, sq: int, events: list[Event]) -> None:
    seat = st.active
    old = st.leader_sq[seat][colour]
    b = SQUARE_BITS[sq]
    if old >= 0:
        BoardData.lift(st, SQUARE_BITS[old])
    st.leader_sq[seat][colour] = sq
    st.leader_bits |= b
    BoardData.grow(st, b, leader=True)
    data = {"seat": seat, "leader": LEADER_NAMES[colour], "square": square_name(sq)}
    if old >= 0:
        data["from"] = square_name(old)
        events.append(event("leader_moved", data))
    else:
        events.append(event("leader_placed", data))
    for kingdom in BoardData.kingdoms(st):
        if kingdom & b:
            for other in range(st.players):
                there = st.leader_sq[other][colour]
                if other != seat and there >= 0 and kingdom & SQUARE_BITS[there]:
                    revolt.start(st, seat, colour, other, events)  # B-11
                    return
            break
    _after_treasures_check(st, events)


def _place_catastrophe(st: BoardData, sq: int, events: list[Event]) -> None:
    seat = st.active
    b = 1 << sq
    colour = BoardData.tile_colour_at(st, sq)
    st.catas_left[seat] -= 1
    st.catas |= b
    if colour >= 0:
        st.tiles[colour] &= ~b
        st.removed[colour] += 1
    BoardData.board_changed(st)
    data: dict[str, object] = {"seat": seat, "square": square_name(sq)}
    if colour >= 0:
        data["destroyed"] = TILE_NAMES[colour]
    events.append(event("catastrophe", data))
    if colour == 0:
        BoardData.return_leaders_without_temple(st, NEIGHBOURS[sq], events)


def _swap(st: BoardData, a: Swap, events: list[Event]) -> None:
    seat = st.active
    hand = st.hands[seat]
    n = sum(a.counts)
    if n == 0:
        raise IllegalActionError("a swap discards at least one tile", "B-16")
    for c, k in enumerate(a.counts):
        if k > hand[c]:
            raise IllegalActionError(
                f"you cannot discard {k} {COLOUR_NAMES[c]} tiles: you hold {hand[c]}", "B-16"
            )
    for c, k in enumerate(a.counts):
        hand[c] -= k
        st.discarded[seat][c] += k
    events.append(event("swapped", {"seat": seat, "count": n}))
    events.append(
        event(
            "discarded",
            {
                "seat": seat,
                "tiles": [COLOUR_NAMES[c] for c in range(4) for _ in range(a.counts[c])],
            },
            seat,
        )
    )
    short = n > len(st.bag)
    BoardData.draw(st, seat, n, events)
    if short:
        events.append(event("bag_empty", {"seat": seat}))
        BoardData.finish(st, events)
        return
    turn.end_action(st, events)


# ---------------------------------------------------------------------- conflicts
def _commit(st: BoardData, n: int, events: list[Event]) -> None:
    colour = st.support_colour
    seat = st.attacker if st.att_commit < 0 else st.defender
    ruling = "B-20" if st.phase == REVOLT else "B-24"
    have = st.hands[seat][colour]
    if n > have:
        raise IllegalActionError(
            f"seat {seat} cannot commit {n} {COLOUR_NAMES[colour]} tiles: the hand holds {have}",
            ruling,
        )
    st.hands[seat][colour] -= n
    st.removed[colour] += n
    role = "attacker" if st.att_commit < 0 else "defender"
    events.append(
        event("committed", {"seat": seat, "role": role, "colour": COLOUR_NAMES[colour], "count": n})
    )
    if st.att_commit < 0:
        st.att_commit = n
        return
    if st.phase == REVOLT:
        revolt.resolve(st, n, events)
        _clear_conflict(st)
        _after_treasures_check(st, events)
    else:
        war.resolve(st, n, events)
        _clear_conflict(st)
        _next_war(st, events)


def _clear_conflict(st: BoardData) -> None:
    st.conflict_colour = -1
    st.attacker = st.defender = -1
    st.att_sq = st.def_sq = -1
    st.att_base = st.def_base = 0
    st.att_commit = -1
    st.phase = ACTION

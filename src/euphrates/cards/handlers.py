"""Applying one action: every check against the state comes first, then the flow in turn.py.

Each handler refuses an action the rules forbid now with an IllegalActionError naming
the card game's ruling (C-n, G-n) before anything changes, so a refused action leaves
the state exactly as it was. `check_action` has checked every field's type and range
before a handler runs, so the handlers test only the rules. Handlers are plain functions of (state, action, events),
looked up by the action's type: the cheapest dispatch on apply's hot path.
"""

from __future__ import annotations

from typing import Any

import euphrates.cards.kinds as kinds
import euphrates.cards.turn as turn
from euphrates.cards.actions import (
    BuildShip,
    CardsAction,
    Catastrophe,
    ChooseWar,
    Commit,
    Decline,
    Exchange,
    Pass,
    PayPoint,
    PlaceLeader,
    PlayCard,
)
from euphrates.cards.data import CardsData, leave_hand
from euphrates.cards.kinds import ACTION, COMMIT, EXCHANGE, POINT, SHIP, SHIP_POINT, WAR_ORDER
from euphrates.cards.layout import BRIDGE_MIN, EMPTY, GAP_BASE, MAX_CARDS, SHIP_BASE, spot_name
from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES, RED
from euphrates.core.errors import IllegalActionError
from euphrates.core.events import event
from euphrates.core.protocol import Event

Events = list[Event]

# What to type instead of a bare "decline" at a decision that is not the ship's (C-15).
_SAY_NO = {
    POINT: "'point none' to pay no point card",
    SHIP_POINT: "'point none' to pay no ship point",
    EXCHANGE: "'exchange none' to take no (more) treasure cards",
    COMMIT: "'commit 0' to commit no cards",
    ACTION: "'pass' to end the turn (G-2)",
}


def pending_name(s: CardsData) -> str:
    return kinds.KIND_NAMES[s.kind] if s.kind >= 0 else "nothing"


def need_action(s: CardsData, a: object) -> None:
    if s.kind != ACTION:
        raise IllegalActionError(
            f"{a} is a turn action, but a {pending_name(s)} decision of seat {s.seat} is pending",
            "G-2",
        )


def need(s: CardsData, kind: int, a: object) -> None:
    if s.kind != kind:
        raise IllegalActionError(
            f"{a} answers a {kinds.KIND_NAMES[kind]} decision, but a "
            f"{pending_name(s)} decision is pending",
            "G-1",
        )


def card_on(s: CardsData, a: CardsAction, pos: int, ruling: str) -> int:
    """The card on spot `pos` (a head reads as red), refusing a spot that is not in the
    layout now: a gap without a bridge, a row below the last card."""
    if pos >= GAP_BASE:
        if s.gaps[pos - GAP_BASE] < 0:
            raise IllegalActionError(f"{a}: there is no bridge in gap {spot_name(pos)}", ruling)
        return s.gaps[pos - GAP_BASE]
    c, r = pos >> 4, pos & 15
    if r > len(s.cols[c]):
        raise IllegalActionError(f"{a}: column {c + 1} has only {len(s.cols[c])} cards", ruling)
    return RED if r == 0 else s.cols[c][r - 1]


def do_leader(s: CardsData, a: PlaceLeader, events: Events) -> None:
    need_action(s, a)
    pos = a.pos
    if pos in s.lpos:
        raise IllegalActionError(f"{a}: {spot_name(pos)} already carries a leader", "C-5")
    card = card_on(s, a, pos, "C-5")
    if card >= SHIP_BASE:
        raise IllegalActionError(f"{a}: leaders may not stand on a ship", "C-5")
    turn.move_leader(s, a.colour, pos, events)


def do_card(s: CardsData, a: PlayCard, events: Events) -> None:
    need_action(s, a)
    colour, t = a.colour, a.target
    if s.hands[s.active][colour] <= 0:
        raise IllegalActionError(f"{a}: no {COLOUR_NAMES[colour]} card in hand", "C-6")
    if t >= GAP_BASE:
        g = t - GAP_BASE
        if s.gaps[g] >= 0:
            raise IllegalActionError(f"{a}: gap {g + 1}-{g + 2} already holds a bridge", "C-6")
        if len(s.cols[g]) < BRIDGE_MIN or len(s.cols[g + 1]) < BRIDGE_MIN:
            raise IllegalActionError(
                f"{a}: a bridge needs at least 3 cards in columns {g + 1} and {g + 2}",
                "C-6",
            )
        turn.lay_bridge(s, colour, g, events)
    else:
        if len(s.cols[t]) >= MAX_CARDS:
            raise IllegalActionError(f"{a}: column {t + 1} already holds 8 cards", "C-6")
        turn.append_card(s, colour, t, events)


def do_catastrophe(s: CardsData, a: Catastrophe, events: Events) -> None:
    need_action(s, a)
    if not s.cats[s.active]:
        raise IllegalActionError(f"{a}: the catastrophe card is already used", "C-7")
    pos = a.pos
    if pos in s.lpos:
        raise IllegalActionError(f"{a}: a card carrying a leader cannot be removed", "C-7")
    card = card_on(s, a, pos, "C-7")
    if pos < GAP_BASE and pos & 15 == 0:
        raise IllegalActionError(f"{a}: a head cannot be removed", "C-7")
    if card >= SHIP_BASE:
        raise IllegalActionError(f"{a}: a ship cannot be removed", "C-7")
    turn.catastrophe(s, pos, events)


def do_pass(s: CardsData, a: Pass, events: Events) -> None:
    need_action(s, a)
    events.append(event("pass", {"seat": s.active}))
    turn.end_turn(s, events)


def do_commit(s: CardsData, a: Commit, events: Events) -> None:
    need(s, COMMIT, a)
    have = s.hands[s.seat][s.colour]
    if a.count > have:
        ruling = "C-12" if s.is_war else "C-10"
        raise IllegalActionError(
            f"{a}: the hand holds {have} {COLOUR_NAMES[s.colour]} cards", ruling
        )
    turn.commit(s, a.count, events)


def do_war(s: CardsData, a: ChooseWar, events: Events) -> None:
    need(s, WAR_ORDER, a)
    if a.colour not in s.wars:
        wars = ", ".join(f"war {COLOUR_NAMES[w]}" for w in s.wars)
        raise IllegalActionError(f"{a}: that war is not on; choose one of {wars}", "C-11")
    turn.start_war(s, a.colour, events)


def do_point(s: CardsData, a: PayPoint, events: Events) -> None:
    if s.kind != POINT and s.kind != SHIP_POINT:
        need(s, POINT, a)
    want = s.colour
    ruling = "C-16" if s.kind == SHIP_POINT else ("C-9", "C-10", "C-13")[s.reason]
    if a.colour >= 0:
        if a.colour != want:
            raise IllegalActionError(
                f"{a}: this point must be paid in {COLOUR_NAMES[want]}"
                + (" (the king is no substitute)" if s.kind == SHIP_POINT else ""),
                ruling,
            )
        if not s.hands[s.seat][want]:
            raise IllegalActionError(f"{a}: no {COLOUR_NAMES[want]} card in hand", ruling)
    if a.colour < 0:
        # Saying no is public (G-1, G-3): the log tells it like a payment, and every
        # card in hand now was held at the decline (CardsData.declined).
        hand = s.hands[s.seat]
        s.declined[s.seat][want] = hand[0] + hand[1] + hand[2] + hand[3]
        why = "ship" if s.kind == SHIP_POINT else kinds.REASON_NAMES[s.reason]
        events.append(
            event("point_declined", {"seat": s.seat, "colour": COLOUR_LETTERS[want], "reason": why})
        )
    if s.kind == SHIP_POINT:
        if a.colour >= 0:
            leave_hand(s, s.seat, want, 1)
            turn.score(s, events, s.seat, want, "ship")
        s.ship_queue.pop(0)
        turn.next_ship_point(s, events)
        return
    reason = s.reason
    if a.colour >= 0:
        leave_hand(s, s.seat, want, 1)
        turn.score(s, events, s.seat, want, kinds.REASON_NAMES[reason])
    s.reason = 0
    if reason == kinds.FOR_COLUMN:
        s.colour = EMPTY
        turn.after_column_point(s, events)
    else:
        turn.after_conflict(s, events)


def do_exchange(s: CardsData, a: Exchange, events: Events) -> None:
    need(s, EXCHANGE, a)
    if a.column < 0:
        events.append(event("exchange_none", {"seat": s.seat}))
        turn.end_exchange(s, events)
        return
    if a.column not in s.exchange_columns():
        raise IllegalActionError(
            f"{a}: column {a.column + 1} is not headed by an original treasure card "
            "of the joined kingdom",
            "C-14",
        )
    if not s.hands[s.seat][RED]:
        raise IllegalActionError(f"{a}: a red card from hand must replace it", "C-14")
    turn.exchange(s, a.column, events)


def do_ship(s: CardsData, a: BuildShip, events: Events) -> None:
    need(s, SHIP, a)
    if a.ship not in s.ship_opts:
        raise IllegalActionError(f"{a}: that ship cannot be built here", "C-15")
    turn.build_ship(s, a.ship, events)


def do_decline(s: CardsData, a: Decline, events: Events) -> None:
    """`decline` answers the ship decision only (C-15); at any other decision the error
    says what to type there instead."""
    if s.kind != SHIP:
        instead = _SAY_NO.get(s.kind)
        hint = f"; to say no here, type {instead}" if instead else ""
        raise IllegalActionError(
            f"decline answers a ship decision only, but a {pending_name(s)} decision is "
            f"pending{hint}",
            "C-15",
        )
    events.append(event("ship_declined", {"seat": s.active, "column": s.ship_col + 1}))
    s.ship_col = EMPTY
    s.ship_opts = []
    turn.action_done(s, events)


HANDLERS: dict[type, Any] = {
    PlaceLeader: do_leader,
    PlayCard: do_card,
    Catastrophe: do_catastrophe,
    Pass: do_pass,
    Commit: do_commit,
    ChooseWar: do_war,
    PayPoint: do_point,
    Exchange: do_exchange,
    BuildShip: do_ship,
    Decline: do_decline,
}

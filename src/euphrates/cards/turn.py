"""The flow of a turn: what follows each step and whose decision comes next (C-8, C-17).

Every function here runs after an action or a decision has been validated and continues
the game until the next decision is pending; it never raises for a legal input. The
pending decision is kept in ``s.kind``/``s.seat`` plus a few context fields, so the
whole flow survives a position round trip (an action is never half-applied).
"""

from __future__ import annotations

from typing import Any

import euphrates.cards.revolt as revolt
import euphrates.cards.scoring as scoring
import euphrates.cards.ships as ships
import euphrates.cards.treasures as treasures
import euphrates.cards.war as war
from euphrates.cards.data import CardsData, clear_conflict, leave_hand
from euphrates.cards.kinds import (
    ACTION,
    COMMIT,
    EXCHANGE,
    FOR_COLUMN,
    FOR_REVOLT,
    FOR_WAR,
    OVER,
    POINT,
    SHIP,
    SHIP_POINT,
    WAR_ORDER,
)
from euphrates.cards.layout import (
    BRIDGE_MIN,
    EMPTY,
    GAP_BASE,
    HAND_SIZE,
    MAX_CARDS,
    SHIP_BASE,
    SUPPLY,
    TREASURE,
    extent,
    gap_name,
    remove_card,
    ship_code_name,
    ship_colours,
    spot_name,
)
from euphrates.core.colours import COLOUR_LETTERS, RED
from euphrates.core.events import event
from euphrates.core.protocol import Event

Events = list[Event]


def _ev(events: Events, kind: str, audience: int | None = None, **data: Any) -> None:
    events.append(event(kind, data, audience))


# --- the turn ----------------------------------------------------------------------
def action_done(s: CardsData, events: Events) -> None:
    """An action with everything it triggered is finished (C-8)."""
    s.actions_left -= 1
    if s.actions_left > 0:
        s.kind = ACTION
        s.seat = s.active
    else:
        end_turn(s, events)


def end_turn(s: CardsData, events: Events) -> None:
    """C-17 (1): ship points, one decision per qualifying leader; then refills."""
    s.actions_left = 0
    s.ship_queue = ships.ship_point_colours(s.cols, s.gaps, s.lpos, s.active)
    next_ship_point(s, events)


def next_ship_point(s: CardsData, events: Events) -> None:
    if s.ship_queue:
        s.kind = SHIP_POINT
        s.seat = s.active
        s.colour = s.ship_queue[0]
        return
    s.colour = EMPTY
    refill(s, events)


def refill(s: CardsData, events: Events) -> None:
    """C-17 (2) and (3): everyone draws to 8 from the active player on, or the game ends
    when the deck cannot cover all hands; then the treasure end check."""
    n = s.players
    hands = s.hands
    deck = s.deck
    need = 0
    for h in hands:
        need += HAND_SIZE - h[0] - h[1] - h[2] - h[3]
    enough = len(deck) >= need
    counts = [0] * n
    for i in range(n):
        p = (s.active + i) % n
        h = hands[p]
        k = HAND_SIZE - h[0] - h[1] - h[2] - h[3]
        if k > len(deck):
            k = len(deck)
        if k:
            drawn = deck[-k:]
            del deck[-k:]
            for card in drawn:
                h[card] += 1
            counts[p] = k
            _ev(events, "draw", p, seat=p, cards="".join(COLOUR_LETTERS[c] for c in drawn))
    _ev(events, "refill", counts=counts, deck=len(deck))
    if not enough:
        finish(s, events, "deck")
    elif sum(s.orig) <= 1:
        finish(s, events, "treasures")
    elif stalled(s):
        finish(s, events, "stalled")
    else:
        s.active = (s.active + 1) % n
        s.actions_left = 2
        s.kind = ACTION
        s.seat = s.active
        _ev(events, "turn", seat=s.active)


def stalled(s: CardsData) -> bool:
    """No card can ever leave a hand again, so the deck can never run short and the game
    would never end (docs/cards.md, "Choices where the rules are silent"): no column or
    gap can take a card, no catastrophe is left to open one, no hand holds a red card (a
    revolt's only currency) or a colour shown by a ship in the layout (C-16)."""
    if any(s.cats):
        return False
    cols = s.cols
    for c in range(len(cols)):
        if len(cols[c]) < MAX_CARDS:
            return False
    for g in range(len(s.gaps)):
        if s.gaps[g] < 0 and len(cols[g]) >= BRIDGE_MIN and len(cols[g + 1]) >= BRIDGE_MIN:
            return False
    shown = {RED}
    for col in cols:
        for card in col:
            if card >= SHIP_BASE:
                shown.update(ship_colours(card))
    return not any(h[c] for h in s.hands for c in shown)


def finish(s: CardsData, events: Events, why: str) -> None:
    s.kind = OVER
    s.seat = EMPTY
    s.result = scoring.result(s.piles)
    _ev(events, "game_over", reason=why, places=list(s.result.places))


def score(s: CardsData, events: Events, seat: int, card: int, why: str) -> None:
    """A card reaches a point pile: always a public event (C-9, G-3)."""
    s.piles[seat].append(card)
    letter = "t" if card == TREASURE else COLOUR_LETTERS[card]
    _ev(events, "point", seat=seat, card=letter, reason=why)


# --- card into a column (C-9, C-15) ------------------------------------------------
def append_card(s: CardsData, colour: int, col: int, events: Events) -> None:
    leave_hand(s, s.active, colour, 1)
    s.cols[col].append(colour)
    _ev(events, "card", seat=s.active, card=COLOUR_LETTERS[colour], column=col + 1)
    s.ship_col = col
    owner = scoring.point_owner(s.lpos, s.gaps, col, colour)
    if owner >= 0:
        s.kind = POINT
        s.seat = owner
        s.colour = colour
        s.reason = FOR_COLUMN
        return
    after_column_point(s, events)


def after_column_point(s: CardsData, events: Events) -> None:
    opts = ships.ship_options(s.cols[s.ship_col], s.ships)
    if opts:
        s.kind = SHIP
        s.seat = s.active
        s.ship_opts = opts
        return
    s.ship_col = EMPTY
    action_done(s, events)


def build_ship(s: CardsData, code: int, events: Events) -> None:
    """C-15: the lowest four cards of the run leave for the discard pile, leaders on them
    return, the ship takes their place."""
    c = s.ship_col
    col = s.cols[c]
    colour = col[-1]
    first = len(col) - 3  # the row of the highest of the four
    lo, hi = c * 16 + first, c * 16 + len(col)
    lpos = s.lpos
    for lid, pos in enumerate(lpos):
        if lo <= pos <= hi:
            lpos[lid] = SUPPLY
            _ev(events, "leader_returns", seat=lid >> 2, leader=lid & 3)
    del col[-4:]
    col.append(code)
    s.discard[colour] += 4
    s.ships.remove(code)
    _ev(events, "ship", seat=s.active, ship=ship_code_name(code), column=c + 1)
    s.ship_col = EMPTY
    s.ship_opts = []
    action_done(s, events)


# --- leaders and revolts (C-5, C-10) -----------------------------------------------
def move_leader(s: CardsData, colour: int, pos: int, events: Events) -> None:
    lid = s.active * 4 + colour
    old = s.lpos[lid]
    s.lpos[lid] = pos
    _ev(
        events,
        "leader",
        seat=s.active,
        leader=colour,
        to=spot_name(pos),
        source=None if old < 0 else spot_name(old),
    )
    other = revolt.rival(s.lpos, s.gaps, lid)
    if other < 0:
        action_done(s, events)
        return
    s.is_war = False
    s.colour = RED
    s.att_lid, s.def_lid = lid, other
    s.att_base = revolt.on_red(s.cols, s.gaps, pos)
    s.def_base = revolt.on_red(s.cols, s.gaps, s.lpos[other])
    s.att_commit = s.def_commit = EMPTY
    s.kind = COMMIT
    s.seat = s.active
    _ev(
        events,
        "revolt",
        attacker=s.active,
        defender=other >> 2,
        leader=colour,
        strength=[s.att_base, s.def_base],
    )


def commit(s: CardsData, n: int, events: Events) -> None:
    leave_hand(s, s.seat, s.colour, n)
    _ev(events, "commit", seat=s.seat, colour=COLOUR_LETTERS[s.colour], count=n)
    if s.att_commit < 0:
        s.att_commit = n
        s.seat = s.def_lid >> 2
        return
    s.def_commit = n
    resolve(s, events)


def resolve(s: CardsData, events: Events) -> None:
    """Tie goes to the defender; the loser's leader returns first (C-10, C-13)."""
    att = s.att_base + s.att_commit
    dfn = s.def_base + s.def_commit
    if att > dfn:
        win, lose = s.att_lid, s.def_lid
        s.spoils_lo, s.spoils_hi = s.def_lo, s.def_hi
    else:
        win, lose = s.def_lid, s.att_lid
        s.spoils_lo, s.spoils_hi = s.att_lo, s.att_hi
    winner = win >> 2
    s.winner = winner
    s.lpos[lose] = SUPPLY
    colour = s.colour
    _ev(
        events,
        "war_result" if s.is_war else "revolt_result",
        winner=winner,
        loser=lose >> 2,
        colour=COLOUR_LETTERS[colour],
        strength=[att, dfn],
    )
    total = s.att_commit + s.def_commit
    if total:
        score(s, events, winner, colour, "war" if s.is_war else "revolt")
        s.discard[colour] += total - 1
        after_conflict(s, events)
    else:
        s.kind = POINT
        s.seat = winner
        s.reason = FOR_WAR if s.is_war else FOR_REVOLT
        # s.colour stays the conflict colour


def after_conflict(s: CardsData, events: Events) -> None:
    if not s.is_war:
        clear_conflict(s)
        action_done(s, events)
        return
    taken = war.strip_side(s.cols, s.gaps, s.lpos, s.spoils_lo, s.spoils_hi, s.colour)
    for card in taken:
        score(s, events, s.winner, card, "war")
    clear_conflict(s)
    next_war(s, events)


# --- bridges and wars (C-11..C-14) -------------------------------------------------
def lay_bridge(s: CardsData, colour: int, gap: int, events: Events) -> None:
    leave_hand(s, s.active, colour, 1)
    s.gaps[gap] = colour
    s.down = gap
    _ev(events, "bridge", seat=s.active, gap=gap_name(gap))
    _ev(events, "bridge_colour", s.active, gap=gap_name(gap), card=COLOUR_LETTERS[colour])
    lo, hi = extent(s.gaps, gap)
    s.wars = war.wars_in(s.lpos, lo, hi)
    next_war(s, events)


def next_war(s: CardsData, events: Events) -> None:
    """Before each war the active player picks among those still on (C-11, C-13)."""
    s.wars = [w for w in s.wars if war.still_on(s.lpos, s.gaps, s.down, w)]
    if not s.wars:
        turn_up(s, events)
    elif len(s.wars) == 1:
        start_war(s, s.wars[0], events)
    else:
        s.kind = WAR_ORDER
        s.seat = s.active


def start_war(s: CardsData, colour: int, events: Events) -> None:
    s.wars.remove(colour)
    pair = war.combatants(s.lpos, s.gaps, s.down, colour)
    a, d = war.attacker_first(pair, s.active, s.players)
    s.is_war = True
    s.colour = colour
    s.att_lid, s.def_lid = a, d
    s.att_lo, s.att_hi = war.side(s.lpos, s.gaps, s.down, a)
    s.def_lo, s.def_hi = war.side(s.lpos, s.gaps, s.down, d)
    s.att_base = war.strength(s.cols, s.gaps, s.att_lo, s.att_hi, colour)
    s.def_base = war.strength(s.cols, s.gaps, s.def_lo, s.def_hi, colour)
    s.att_commit = s.def_commit = EMPTY
    s.kind = COMMIT
    s.seat = a >> 2
    _ev(
        events,
        "war",
        attacker=a >> 2,
        defender=d >> 2,
        colour=COLOUR_LETTERS[colour],
        strength=[s.att_base, s.def_base],
    )


def turn_up(s: CardsData, events: Events) -> None:
    """No war left: the bridge is turned face up, then the treasure exchange (C-14)."""
    gap = s.down
    s.down = EMPTY
    s.wars = []
    _ev(events, "bridge_up", gap=gap_name(gap), card=COLOUR_LETTERS[s.gaps[gap]])
    lo, hi = treasures.exchange_kingdom(s.gaps, gap)
    owner = treasures.trader_owner(s.lpos, lo, hi)
    if owner >= 0 and len(treasures.originals(s.orig, lo, hi)) >= 2:
        s.kind = EXCHANGE
        s.seat = owner
        s.exch_gap = gap
        return
    action_done(s, events)


def exchange(s: CardsData, col: int, events: Events) -> None:
    leave_hand(s, s.seat, RED, 1)
    s.orig[col] = False
    _ev(events, "exchange", seat=s.seat, column=col + 1)
    score(s, events, s.seat, TREASURE, "exchange")
    lo, hi = treasures.exchange_kingdom(s.gaps, s.exch_gap)
    if len(treasures.originals(s.orig, lo, hi)) < 2:
        end_exchange(s, events)


def end_exchange(s: CardsData, events: Events) -> None:
    s.exch_gap = EMPTY
    action_done(s, events)


# --- catastrophe (C-7) -------------------------------------------------------------
def catastrophe(s: CardsData, pos: int, events: Events) -> None:
    if pos >= GAP_BASE:
        g = pos - GAP_BASE
        card = s.gaps[g]
        s.gaps[g] = EMPTY
    else:
        card = remove_card(s.cols, s.lpos, pos >> 4, pos & 15)
    s.out[card] += 1
    s.cats[s.active] = False
    _ev(events, "catastrophe", seat=s.active, spot=spot_name(pos), card=COLOUR_LETTERS[card])
    action_done(s, events)

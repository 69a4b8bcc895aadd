"""How good a Contest of Kings position is for each player, and a cheap guess at how
promising an action is.

The same scale as the board game's evaluation (points of the weakest colour):

1. **Weakest colour first, then the others.** Each point pile counted by colour, its
   treasure cards as wildcards (C-18), weighted 1, 0.5, 0.3, 0.2 from the weakest up:
   flatter than the board game's, because every card in a pile stays a point for good
   while the order of the colours keeps changing.
2. **Leaders' safety.** 0.8 for each leader in the layout, 0.2 more on a red card (the
   revolt's +1, C-10), 0.03 per card of its colour in its kingdom (war strength, C-12),
   0.4 for a ship of its colour in its kingdom (C-16).
3. **Treasures.** A trader in a kingdom with two or more original treasure cards:
   0.35 per card it could exchange (C-14).
4. **Hand.** Cards pay for points: 0.02 for a card of a colour that one of the player's
   leaders scores, 0.01 otherwise, red cards a quarter more (revolts). A card is
   always worth less than the point it can buy (at least 0.03), so the bot never hoards:
   with the deck empty, only cards leaving hands let the game end (C-17).
5. **Conflict odds.** As in the board game: known commitments, otherwise the expected
   support from the hand, through a logistic; the stake is the loser's leader and the
   winner's point cards.

A player's value is their own score minus the best opponent's.
"""

from __future__ import annotations

import math

from euphrates.bots.board_eval import LEADER_VALUE, relative, standing
from euphrates.cards.actions import (
    BuildShip,
    CardsAction,
    Catastrophe,
    Exchange,
    Pass,
    PayPoint,
    PlaceLeader,
    PlayCard,
)
from euphrates.cards.data import CardsData
from euphrates.cards.kinds import COMMIT, OVER
from euphrates.cards.layout import (
    CARD_TOTALS,
    COLUMNS,
    GAP_BASE,
    HAND_SIZE,
    MAX_CARDS,
    REMOVED_TWO_PLAYERS,
    SHIP_BASE,
    card_at,
    extent,
    spot_column,
)
from euphrates.cards.scoring import tallies
from euphrates.core.colours import BLACK, GREEN, RED

RANK_WEIGHTS = (1.0, 0.5, 0.3, 0.2)
ON_RED = 0.2
SUPPORT_CARD = 0.03
SHIP_HOPE = 0.4
EXCHANGE_HOPE = 0.35
CARD_USEFUL = 0.02
CARD_SPARE = 0.01
RED_IN_HAND = 1.25  # a red card in hand is worth this much more (revolts, C-10)
CONFLICT_SLOPE = 1.2  # the logistic of a conflict's expected margin
CONFLICT_EDGE = 0.5  # the defender wins ties (C-10, C-12)
SHARE = tuple(n / sum(CARD_TOTALS) for n in CARD_TOTALS)


def _kingdom_cards(s: CardsData, lo: int, hi: int, colour: int) -> int:
    n = 0
    for c in range(lo, hi + 1):
        n += s.cols[c].count(colour)
    for g in range(lo, hi):
        if s.gaps[g] == colour and g != s.down:
            n += 1
    return n


def _kingdom_facts(s: CardsData, lo: int, hi: int) -> tuple[list[int], int]:
    """Cards per colour in the kingdom (columns and face-up bridges) and the colours
    its ships show, as a bit set: one pass, shared by every leader standing in it."""
    counts = [0, 0, 0, 0]
    ships = 0
    for c in range(lo, hi + 1):
        for card in s.cols[c]:
            if card >= SHIP_BASE:
                ships |= 2 | (1 << (card - SHIP_BASE))
            else:
                counts[card] += 1
    for g in range(lo, hi):
        card = s.gaps[g]
        if 0 <= card < 4 and g != s.down:
            counts[card] += 1
    return counts, ships


def _leader_terms(
    s: CardsData, seat: int, facts: dict[int, tuple[int, list[int], int, int]]
) -> float:
    """`facts` caches, by a kingdom's leftmost column, its rightmost column, its cards
    per colour, its ships' colours and its original treasure cards, for the one
    position being judged."""
    value = 0.0
    useful = [False, False, False, False]
    for colour in range(4):
        pos = s.lpos[seat * 4 + colour]
        if pos < 0:
            continue
        value += LEADER_VALUE
        useful[colour] = True
        if colour == BLACK:
            useful = [True, True, True, True]
        if card_at(s.cols, s.gaps, pos) == RED:
            value += ON_RED
        col = spot_column(pos)
        lo, hi = extent(s.gaps, col)
        known = facts.get(lo)
        if known is None:
            counts, ships = _kingdom_facts(s, lo, hi)
            originals = sum(1 for c in range(lo, hi + 1) if s.orig[c])
            known = (hi, counts, ships, originals)
            facts[lo] = known
        _, counts, ships, originals = known
        value += SUPPORT_CARD * min(counts[colour], 10)
        if ships >> colour & 1:
            value += SHIP_HOPE
        if colour == GREEN and originals >= 2:
            value += EXCHANGE_HOPE * (originals - 1)
    hand = s.hands[seat]
    for colour in range(4):
        per = CARD_USEFUL if useful[colour] else CARD_SPARE
        value += per * hand[colour] * (RED_IN_HAND if colour == RED else 1.0)
    return value


def _expected(s: CardsData, seat: int, colour: int, viewer: int) -> float:
    hand = s.hands[seat]
    return float(hand[colour]) if seat == viewer else sum(hand) * SHARE[colour]


def scores(s: CardsData, viewer: int) -> list[float]:
    """The constants above are read at each call, so an experiment can set them on the
    module (`examples/evaluation_constants.py`; docs/bots.md, *The evaluation's
    constants*)."""
    out: list[float] = []
    worths: list[list[float]] = []
    facts: dict[int, tuple[int, list[int], int, int]] = {}
    for seat in range(s.players):
        points, wild = tallies(s.piles[seat])
        v, w = standing(points, wild, RANK_WEIGHTS)
        if s.kind != OVER:
            v += _leader_terms(s, seat, facts)
        out.append(v)
        worths.append(w)
    if s.kind == COMMIT and s.att_lid >= 0:
        c = s.colour
        att, dfn = s.att_lid >> 2, s.def_lid >> 2
        a = s.att_base + (s.att_commit if s.att_commit >= 0 else _expected(s, att, c, viewer))
        d = s.def_base + _expected(s, dfn, c, viewer)
        p = 1.0 / (1.0 + math.exp(-(a - d - CONFLICT_EDGE) * CONFLICT_SLOPE))
        # In a war the winner also takes the loser's side's cards of the colour (C-13).
        gain_att = 1.0 + (_kingdom_cards(s, s.def_lo, s.def_hi, c) if s.is_war else 0.0)
        gain_def = 1.0 + (_kingdom_cards(s, s.att_lo, s.att_hi, c) if s.is_war else 0.0)
        out[att] += p * gain_att * worths[att][c] - (1 - p) * LEADER_VALUE
        out[dfn] += (1 - p) * gain_def * worths[dfn][c] - p * LEADER_VALUE
    return out


def value(s: CardsData, seat: int) -> float:
    return relative(scores(s, seat), seat)


def prior(s: CardsData, action: CardsAction, seat: int) -> float:
    """A cheap guess (no move is played) at how good `action` is for the mover."""
    if isinstance(action, PlayCard):
        t, c = action.target, action.colour
        if t >= GAP_BASE:
            return 0.5
        lo, hi = extent(s.gaps, t)
        col = s.cols[t]
        bonus = 0.6 if len(col) >= 3 and col[-3:] == [c, c, c] else 0.0
        for colour in (c, BLACK):
            for who in range(s.players):
                pos = s.lpos[who * 4 + colour]
                if pos >= 0 and lo <= spot_column(pos) <= hi:
                    if colour == BLACK and any(
                        s.lpos[o * 4 + c] >= 0 and lo <= spot_column(s.lpos[o * 4 + c]) <= hi
                        for o in range(s.players)
                    ):
                        continue
                    return (2.0 if who == seat else 0.1) + bonus
        return 0.4 + bonus - (0.3 if len(col) >= MAX_CARDS - 1 else 0.0)
    if isinstance(action, PlaceLeader):
        pos = action.pos
        lo, hi = extent(s.gaps, spot_column(pos))
        on_red = 0.2 if card_at(s.cols, s.gaps, pos) == RED else 0.0
        for who in range(s.players):
            other = s.lpos[who * 4 + action.colour]
            if who != seat and other >= 0 and lo <= spot_column(other) <= hi:
                return 1.2 if s.hands[seat][RED] >= 3 else -0.5
        fresh = 1.2 if s.lpos[seat * 4 + action.colour] < 0 else 0.2
        return fresh + on_red + 0.03 * _kingdom_cards(s, lo, hi, action.colour)
    if isinstance(action, PayPoint):
        return 1.5
    if isinstance(action, Exchange):
        return 1.2
    if isinstance(action, BuildShip):
        return 1.0
    if isinstance(action, Catastrophe):
        return -1.0
    if isinstance(action, Pass):
        return -1.5
    return 0.0


def remaining(s: CardsData) -> float:
    """The share of the game still to come: the game ends when the deck cannot refill
    the hands or at most one original treasure card is left (C-17)."""
    start = (
        sum(CARD_TOTALS) - HAND_SIZE * s.players - (REMOVED_TWO_PLAYERS if s.players == 2 else 0)
    )
    deck = len(s.deck) / start
    treasures = (sum(s.orig) - 1) / (COLUMNS - 1)
    return max(0.0, min(deck, treasures))

"""How good a Tigris & Euphrates position is for each player, and a cheap guess at how
promising an action is, for the greedy and search bots.

The evaluation, in points of the weakest colour (the currency of B-32):

1. **Weakest colour first, then the others.** Each player's totals are their points
   plus their treasures assigned as wildcards (B-32); sorted from weakest up they are
   weighted 1, 0.3, 0.1, 0.03, so a point in the weakest colour is worth most.
2. **Leaders' safety.** A leader on the board earns future points: 0.8 each, plus 0.15
   for a second adjacent temple (revolt defence, B-20) and 0.03 per tile of its colour
   in its kingdom (war strength, B-24).
3. **Treasures.** A trader in a kingdom that holds a treasure: 0.3 (B-30).
4. **Hand.** Tiles are conflict support: 0.04 per tile, red counting double.
5. **Conflict odds.** With a revolt or war pending, each side's chance of winning is a
   logistic of the strength difference (known commitments, else the expected support
   from the hand), and the stake (the loser's leader, the winner's points, the
   supporters removed) is weighed by that chance.

A player's value is their own score minus the best opponent's, so the bots play for
rank, not for points.
"""

from __future__ import annotations

import math

from euphrates.board.actions import (
    BoardAction,
    BuildMonument,
    Commit,
    Pass,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    WithdrawLeader,
)
from euphrates.board.data import BoardData
from euphrates.board.geometry import NEIGHBOURS, flood
from euphrates.board.phases import OVER, REVOLT, TILE_COUNTS, WAR
from euphrates.core.colours import BLACK, GREEN, RED
from euphrates.core.scoring import assign_wildcards

RANK_WEIGHTS = (1.0, 0.3, 0.1, 0.03)
LEADER_VALUE = 0.8
SECOND_TEMPLE = 0.15
SUPPORT_TILE = 0.03
TREASURE_HOPE = 0.3
HAND_TILE = 0.04
TILE_SHARE = tuple(n / sum(TILE_COUNTS) for n in TILE_COUNTS)


def standing(
    points: list[int], wildcards: int, weights: tuple[float, ...] = RANK_WEIGHTS
) -> tuple[float, list[float]]:
    """(weighted score, marginal worth of one more point per colour)."""
    given = assign_wildcards(points, wildcards)
    totals = [p + g for p, g in zip(points, given, strict=True)]
    order = sorted(range(4), key=lambda c: (totals[c], c))
    score = 0.0
    worth = [0.0] * 4
    for rank, c in enumerate(order):
        score += weights[rank] * totals[c]
        worth[c] = weights[rank]
    return score, worth


def _leader_terms(st: BoardData, seat: int, kingdoms: list[int]) -> float:
    value = 0.0
    temples = st.tiles[RED]
    for colour in range(4):
        sq = st.leader_sq[seat][colour]
        if sq < 0:
            continue
        value += LEADER_VALUE
        if (NEIGHBOURS[sq] & temples).bit_count() >= 2:
            value += SECOND_TEMPLE
        for k in kingdoms:
            if k >> sq & 1:
                value += SUPPORT_TILE * min((k & st.tiles[colour]).bit_count(), 10)
                if colour == GREEN and k & st.treasures:
                    value += TREASURE_HOPE
                break
    hand = st.hands[seat]
    value += HAND_TILE * (hand[0] * 2 + hand[1] + hand[2] + hand[3])
    return value


def _expected_support(st: BoardData, seat: int, colour: int, viewer: int) -> float:
    hand = st.hands[seat]
    if seat == viewer:
        return float(hand[colour])
    return sum(hand) * TILE_SHARE[colour]


def _conflict_terms(
    st: BoardData, scores: list[float], worths: list[list[float]], viewer: int
) -> None:
    """Weigh a pending conflict's stake by each side's chance (in place on `scores`)."""
    c = st.conflict_colour
    support = st.support_colour  # red in a revolt (B-20)
    att, dfn = st.attacker, st.defender
    a = st.att_base + (
        st.att_commit if st.att_commit >= 0 else _expected_support(st, att, support, viewer)
    )
    d = st.def_base + _expected_support(st, dfn, support, viewer)
    p_att = 1.0 / (1.0 + math.exp(-(a - d - 0.5) * 1.2))
    if st.phase == REVOLT:
        gain = 1.0
    else:
        within = st.occupied & ~(1 << st.unification) if st.unification >= 0 else st.occupied
        gain_att = 1.0 + (flood(1 << st.def_sq, within) & st.tiles[c]).bit_count()
        gain_def = 1.0 + (flood(1 << st.att_sq, within) & st.tiles[c]).bit_count()
        scores[att] += p_att * gain_att * worths[att][c] - (1 - p_att) * LEADER_VALUE
        scores[dfn] += (1 - p_att) * gain_def * worths[dfn][c] - p_att * LEADER_VALUE
        return
    scores[att] += p_att * gain * worths[att][RED] - (1 - p_att) * LEADER_VALUE
    scores[dfn] += (1 - p_att) * gain * worths[dfn][RED] - p_att * LEADER_VALUE


def scores(st: BoardData, viewer: int) -> list[float]:
    """Each player's absolute score by the evaluation above (viewer's knowledge)."""
    kingdoms = st.kingdoms()
    out: list[float] = []
    worths: list[list[float]] = []
    for seat in range(st.players):
        s, w = standing(st.points[seat], st.held[seat])
        if st.phase != OVER:
            s += _leader_terms(st, seat, kingdoms)
        out.append(s)
        worths.append(w)
    if st.phase in (REVOLT, WAR):
        _conflict_terms(st, out, worths, viewer)
    return out


def relative(values: list[float], seat: int) -> float:
    best_other = max(v for s, v in enumerate(values) if s != seat)
    return values[seat] - best_other


def value(st: BoardData, seat: int) -> float:
    """The evaluation for `seat`: own score minus the best opponent's."""
    return relative(scores(st, seat), seat)


def prior(st: BoardData, action: BoardAction, seat: int) -> float:
    """A cheap guess (no move is played) at how good `action` is for the mover."""
    if isinstance(action, PlaceTile):
        sq, c = action.square, action.colour
        nb = NEIGHBOURS[sq]
        touching = [k for k in st.kingdoms() if k & nb]
        if len(touching) == 1:
            k = touching[0]
            owners = st.leaders_in(k, c) or st.leaders_in(k, BLACK)
            if owners and owners[0] == seat:
                return 2.0 + (0.5 if c != RED else 0.0)
            if owners:
                return 0.2
            return 0.6
        if len(touching) == 2:
            return 0.8
        return 0.1 if nb & st.tiles[RED] else 0.0
    if isinstance(action, PlaceLeader):
        sq, c = action.square, action.colour
        temples = (NEIGHBOURS[sq] & st.tiles[RED]).bit_count()
        base = 1.2 if st.leader_sq[seat][c] < 0 else 0.3
        for k in st.kingdoms():
            if k & NEIGHBOURS[sq]:
                rivals = [s for s in st.leaders_in(k, c) if s != seat]
                if rivals:
                    mine = temples + st.hands[seat][RED]
                    theirs = (
                        NEIGHBOURS[st.leader_sq[rivals[0]][c]] & st.tiles[RED]
                    ).bit_count() + 2
                    return 1.5 if mine > theirs else -0.5
                return base + 0.3 * temples + 0.02 * (k & st.tiles[c]).bit_count()
        return base * 0.6 + 0.2 * temples
    if isinstance(action, Commit):
        return 0.0
    if isinstance(action, BuildMonument):
        return 1.0
    if isinstance(action, (WithdrawLeader, PlaceCatastrophe)):
        return -1.0
    if isinstance(action, Swap):
        return -0.8
    if isinstance(action, Pass):
        return -1.5
    return 0.0

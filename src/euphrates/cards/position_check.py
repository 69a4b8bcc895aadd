"""What every state a game can reach satisfies, checked when a state is read from outside.

Playing keeps these invariants by construction (the handlers and turn.py), so the hot
paths never test them; a position document or a view could break any of them, and a
broken one would make the engine misbehave later (a leader on a missing card, a revolt
of a leader against itself, a ship decision with no run of four). `check_state` refuses
such a state with a RecordError naming the field and the ruling it breaks.
"""

from __future__ import annotations

import euphrates.cards.kinds as kinds
import euphrates.cards.revolt as revolt
import euphrates.cards.ships as ships
import euphrates.cards.treasures as treasures
import euphrates.cards.war as war
from euphrates.cards.data import CardsData
from euphrates.cards.layout import (
    CARD_TOTALS,
    EMPTY,
    GAP_BASE,
    HAND_SIZE,
    REMOVED_TWO_PLAYERS,
    SHIP_BASE,
    SHIPS,
    TREASURE_CARDS,
    extent,
    kingdoms,
    ship_code_name,
    spot_column,
    spot_name,
)
from euphrates.cards.scoring import point_owner, tallies
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES, RED
from euphrates.core.errors import RecordError


def census(s: CardsData) -> tuple[list[int], int]:
    """Every coloured card and every treasure card, wherever it is (C-1): (per colour,
    treasure cards). Cards committed to a pending conflict are counted too."""
    counts = [0, 0, 0, 0]
    for col in s.cols:
        for card in col:
            if card < SHIP_BASE:
                counts[card] += 1
    for g in s.gaps:
        if g >= 0:
            counts[g] += 1
    counts[0] += sum(1 for o in s.orig if not o)  # replacement heads are red cards
    for h in s.hands:
        for c in range(4):
            counts[c] += h[c]
    for card in s.deck:
        counts[card] += 1
    for card in s.removed:
        counts[card] += 1
    treasures_seen = sum(s.orig)
    for pile in s.piles:
        ts, t = tallies(pile)
        treasures_seen += t
        for c in range(4):
            counts[c] += ts[c]
    for c in range(4):
        counts[c] += s.discard[c] + s.out[c]
    if s.att_lid >= 0 and s.colour >= 0:
        counts[s.colour] += max(s.att_commit, 0) + max(s.def_commit, 0)
    return counts, treasures_seen


def check_state(s: CardsData, root: str = "position") -> None:
    """Refuse a state no game can reach (RecordError naming the field and the ruling)."""
    _check_material(s, root)
    _check_leaders(s, root)
    _check_pending(s, root)
    _check_kingdoms(s, root)


# --- material ----------------------------------------------------------------------------
def _check_material(s: CardsData, root: str) -> None:
    for p, h in enumerate(s.hands):
        if sum(h) > HAND_SIZE:
            raise RecordError(
                f"{root}.hands[{p}] holds {sum(h)} cards; a hand holds at most 8 (C-3, C-17)"
            )
        if max(s.declined[p]) > sum(h):
            raise RecordError(
                f"{root}.declined[{p}]: more cards held since a decline than the hand's "
                f"{sum(h)} (G-1)"
            )
    counts, t = census(s)
    if counts != list(CARD_TOTALS) or t != TREASURE_CARDS:
        raise RecordError(
            f"{root} does not account for every card (C-1): colours {counts} "
            f"(expected {list(CARD_TOTALS)}), treasure cards {t} (expected 8)"
        )
    if not any(s.orig):
        raise RecordError(
            f"{root}.layout.heads: an original treasure card always remains, since the "
            "exchange stops while two remain in the kingdom (C-14)"
        )
    want = REMOVED_TWO_PLAYERS if s.players == 2 else 0
    if len(s.removed) != want:
        raise RecordError(
            f"{root}.removed holds {len(s.removed)} cards; a {s.players}-player game "
            f"removes {want} (C-3)"
        )
    used = s.cats.count(False)
    if sum(s.out) != used:
        raise RecordError(
            f"{root}.out holds {sum(s.out)} cards but {used} catastrophes were used: each "
            "removes exactly one card from the game (C-7)"
        )
    in_layout: list[int] = []
    for c, col in enumerate(s.cols):
        for card in col:
            if card >= SHIP_BASE:
                if card in in_layout:
                    raise RecordError(
                        f"{root}.layout.columns: the ship {ship_code_name(card)} lies in the "
                        "layout twice (C-1: one card per ship)"
                    )
                in_layout.append(card)
                if card in s.ships:
                    raise RecordError(
                        f"{root}.ships offers the ship {ship_code_name(card)}, which already "
                        f"lies in column {c + 1} (C-15)"
                    )
    if len(in_layout) + len(s.ships) != len(SHIPS):
        missing = [ship_code_name(x) for x in SHIPS if x not in in_layout and x not in s.ships]
        raise RecordError(
            f"{root}: the ship {', '.join(missing)} is neither available ({root}.ships) "
            "nor in the layout; every built ship lies in the layout (C-15)"
        )


# --- leaders -----------------------------------------------------------------------------
def _leader_field(lid: int, root: str) -> str:
    return f"{root}.leaders[{lid >> 2}].{'PFTK'[lid & 3]}"


def _check_leaders(s: CardsData, root: str) -> None:
    """C-5: each leader in the layout stands alone on a head, a column card that is not
    a ship, or a bridge; never on the face-down bridge (its gap was empty until now)."""
    seen: dict[int, int] = {}
    for lid, pos in enumerate(s.lpos):
        if pos < 0:
            continue
        where = _leader_field(lid, root)
        if pos in seen:
            raise RecordError(
                f"{where}: {spot_name(pos)} already carries {_leader_field(seen[pos], root)} (C-5)"
            )
        seen[pos] = lid
        if pos >= GAP_BASE:
            g = pos - GAP_BASE
            if s.gaps[g] < 0:
                raise RecordError(f"{where}: the gap {spot_name(pos)} holds no bridge (C-5)")
            if g == s.down:
                raise RecordError(
                    f"{where}: no leader can stand on the face-down bridge {spot_name(pos)} (C-11)"
                )
        else:
            col, row = s.cols[pos >> 4], pos & 15
            if row > len(col):
                raise RecordError(
                    f"{where}: column {(pos >> 4) + 1} has no card in row {row} (C-5)"
                )
            if row and col[row - 1] >= SHIP_BASE:
                raise RecordError(f"{where}: a leader may not stand on a ship (C-5)")


def _check_kingdoms(s: CardsData, root: str) -> None:
    """Two leaders of one colour share a kingdom only while their conflict is pending:
    the revolt just begun (C-10), or the wars of the face-down bridge (C-11, C-13), whose
    two sides, the bridge left out, hold no such pair."""
    gaps = s.gaps
    if s.down >= 0:
        gaps = gaps[:]
        gaps[s.down] = EMPTY
    revolt_pair = (
        {s.att_lid, s.def_lid} if s.kind == kinds.COMMIT and s.att_lid >= 0 and not s.is_war else ()
    )
    for lo, hi in kingdoms(gaps):
        by_colour: dict[int, int] = {}
        for lid, pos in enumerate(s.lpos):
            if pos < 0 or not lo <= spot_column(pos) <= hi:
                continue
            other = by_colour.get(lid & 3)
            if other is not None and not (lid in revolt_pair and other in revolt_pair):
                raise RecordError(
                    f"{_leader_field(lid, root)}: the kingdom of columns {lo + 1}-{hi + 1} already "
                    f"holds {_leader_field(other, root)}, and no conflict between them is pending "
                    "(C-10, G-5)"
                )
            by_colour[lid & 3] = lid
    if s.down < 0:
        return
    lo, hi = extent(s.gaps, s.down)
    pairs = sorted(c for c in range(4) if war.still_on(s.lpos, s.gaps, s.down, c))
    expected = set(s.wars)
    if s.kind == kinds.COMMIT:
        expected.add(s.colour)
    if pairs != sorted(expected):
        raise RecordError(
            f"{root}.pending.wars: the kingdom joined by the face-down bridge {spot_name(GAP_BASE + s.down)}"
            f" holds two leaders of {_names(pairs)}, but the wars pending are of "
            f"{_names(sorted(expected))} (C-11, C-13)"
        )


def _names(colours: list[int]) -> str:
    return ", ".join(COLOUR_NAMES[c] for c in colours) or "no colour"


# --- the pending decision --------------------------------------------------------------------
def _fail(field: str, message: str) -> RecordError:
    return RecordError(f"{field}: {message}")


def _check_pending(s: CardsData, root: str) -> None:
    k = s.kind
    name = "over" if k < 0 else kinds.KIND_NAMES[k]
    conflict = s.att_lid >= 0
    wants_conflict = k == kinds.COMMIT or (k == kinds.POINT and s.reason != kinds.FOR_COLUMN)
    if conflict != wants_conflict:
        raise _fail(
            f"{root}.pending.conflict",
            f"a {name} decision "
            + ("has no conflict" if conflict else "needs the conflict it belongs to")
            + " (C-8)",
        )
    if s.reason != kinds.FOR_COLUMN and k != kinds.POINT:
        raise _fail(
            f"{root}.pending.reason",
            f"only a point decision has a reason, not a {name} one (C-9, C-10, C-13)",
        )
    if s.down >= 0 and s.gaps[s.down] < 0:
        raise _fail(
            f"{root}.layout.face_down",
            f"the gap {spot_name(GAP_BASE + s.down)} holds no bridge to lie face down (C-11)",
        )
    war_pending = k == kinds.WAR_ORDER or (conflict and s.is_war)
    if (s.down >= 0) != war_pending:
        raise _fail(
            f"{root}.layout.face_down",
            "a bridge lies face down exactly while its wars are pending (C-11)",
        )
    if s.wars and not war_pending:
        raise _fail(f"{root}.pending.wars", f"no war is pending at a {name} decision (C-11)")
    column_point = k == kinds.POINT and s.reason == kinds.FOR_COLUMN
    if (s.ship_col >= 0) != (k == kinds.SHIP or column_point):
        raise _fail(
            f"{root}.pending.ship_column",
            "names the column just played to, only at its point or ship decision (C-8)",
        )
    if bool(s.ship_opts) != (k == kinds.SHIP):
        raise _fail(
            f"{root}.pending.ship_options",
            "lists the ships to build, only at a ship decision (C-15)",
        )
    if bool(s.ship_queue) != (k == kinds.SHIP_POINT):
        raise _fail(
            f"{root}.pending.ship_points",
            "lists ship points to ask, only at a ship_point decision (C-16)",
        )
    if (s.exch_gap >= 0) != (k == kinds.EXCHANGE):
        raise _fail(
            f"{root}.pending.exchange_gap", "names the bridge of an exchange decision only (C-14)"
        )
    if (s.colour >= 0) != (k in (kinds.COMMIT, kinds.POINT, kinds.SHIP_POINT)):
        raise _fail(
            f"{root}.pending.colour",
            f"a {name} decision has no colour; commitments and points have one (C-9, C-10, C-16)",
        )
    after_actions = k in (kinds.OVER, kinds.SHIP_POINT)
    if after_actions and s.actions_left != 0:
        raise _fail(f"{root}.actions_left", f"is 0 once the turn's actions are over ({name}, C-17)")
    if not after_actions and s.actions_left == 0:
        raise _fail(
            f"{root}.actions_left", f"a {name} decision comes during an action, so 1 or 2 (G-2)"
        )
    if conflict:
        _check_conflict(s, root)
    if k in (kinds.ACTION, kinds.WAR_ORDER, kinds.SHIP, kinds.SHIP_POINT) and s.seat != s.active:
        raise _fail(
            f"{root}.pending.seat", f"a {name} decision belongs to the active player {s.active}"
        )
    if k == kinds.WAR_ORDER and len(s.wars) < 2:
        raise _fail(
            f"{root}.pending.wars",
            "the war order is asked only while two or more wars are on (C-11, G-1)",
        )
    if column_point:
        _check_column_point(s, root)
    elif k == kinds.SHIP:
        opts = ships.ship_options(s.cols[s.ship_col], s.ships)
        if sorted(s.ship_opts) != sorted(opts) or not opts:
            raise _fail(
                f"{root}.pending.ship_options",
                f"column {s.ship_col + 1} allows the ships "
                f"[{', '.join(ship_code_name(c) for c in opts)}], not "
                f"[{', '.join(ship_code_name(c) for c in s.ship_opts)}] (C-15)",
            )
    elif k == kinds.SHIP_POINT:
        due = ships.ship_point_colours(s.cols, s.gaps, s.lpos, s.active)
        queue = s.ship_queue
        if queue != due[len(due) - len(queue) :] or s.colour != queue[0]:
            raise _fail(
                f"{root}.pending.ship_points",
                f"the active player's ship points still to ask are a tail of "
                f"{_names(due)} in that order, the first one pending (C-16)",
            )
    elif k == kinds.EXCHANGE:
        _check_exchange(s, root)


def _check_column_point(s: CardsData, root: str) -> None:
    col = s.cols[s.ship_col]
    if not col or col[-1] != s.colour:
        raise _fail(
            f"{root}.pending.colour",
            f"a point for a card in column {s.ship_col + 1} is in that card's colour (C-9)",
        )
    owner = point_owner(s.lpos, s.gaps, s.ship_col, s.colour)
    if owner < 0 or owner != s.seat:
        who = "no one" if owner < 0 else f"seat {owner}"
        raise _fail(
            f"{root}.pending.seat",
            f"the point for a {COLOUR_NAMES[s.colour]} card in column {s.ship_col + 1} is "
            f"{who}'s to decide (C-9)",
        )


def _check_exchange(s: CardsData, root: str) -> None:
    g = s.exch_gap
    if s.gaps[g] < 0:
        raise _fail(
            f"{root}.pending.exchange_gap", f"the gap {g + 1}-{g + 2} holds no bridge (C-14)"
        )
    lo, hi = treasures.exchange_kingdom(s.gaps, g)
    owner = treasures.trader_owner(s.lpos, lo, hi)
    if owner != s.seat:
        raise _fail(
            f"{root}.pending.seat",
            f"the exchange in columns {lo + 1}-{hi + 1} is the decision of its trader's "
            "owner (C-14)",
        )
    if len(treasures.originals(s.orig, lo, hi)) < 2:
        raise _fail(
            f"{root}.pending.exchange_gap",
            f"columns {lo + 1}-{hi + 1} hold fewer than two original treasure cards (C-14)",
        )


def _check_conflict(s: CardsData, root: str) -> None:
    att, dfn = s.att_lid, s.def_lid
    a_seat, d_seat = att >> 2, dfn >> 2
    if att & 3 != dfn & 3:
        raise _fail(
            f"{root}.pending.conflict",
            f"a {LEADER_NAMES[att & 3]} cannot fight a {LEADER_NAMES[dfn & 3]}: a conflict is "
            "between two leaders of one colour (C-10, C-11)",
        )
    if att == dfn:
        raise _fail(f"{root}.pending.conflict", "a leader cannot fight itself (G-5)")
    if a_seat == d_seat:
        raise _fail(f"{root}.pending.conflict", "a conflict is between two different players (G-5)")
    want = att & 3 if s.is_war else RED
    if s.colour != want:
        raise _fail(
            f"{root}.pending.colour",
            f"the cards of this {'war' if s.is_war else 'revolt'} are "
            f"{COLOUR_NAMES[want]} ({'C-12' if s.is_war else 'C-10'})",
        )
    on = [s.lpos[att] >= 0, s.lpos[dfn] >= 0]
    if s.kind == kinds.COMMIT:
        if not all(on):
            raise _fail(
                f"{root}.pending.conflict",
                "both leaders of a pending conflict stand in the layout (C-10, C-12)",
            )
        if s.def_commit >= 0 or s.winner >= 0 or s.spoils_lo >= 0:
            raise _fail(
                f"{root}.pending.conflict",
                "a conflict is decided as soon as the defender commits, so no defender "
                "commitment, winner or spoils while a commitment is asked (G-1)",
            )
        owner = a_seat if s.att_commit < 0 else d_seat
        if s.seat != owner:
            role = "attacker" if s.att_commit < 0 else "defender"
            raise _fail(f"{root}.pending.seat", f"the {role} commits now: seat {owner} (G-1)")
        if s.att_commit >= 0 and s.att_commit + sum(s.hands[a_seat]) > HAND_SIZE:
            raise _fail(
                f"{root}.pending.conflict.attacker_commit",
                "the attacker's commitment came from a hand of at most 8 cards (C-3)",
            )
    else:
        if s.att_commit != 0 or s.def_commit != 0:
            raise _fail(
                f"{root}.pending.conflict",
                "a point for a won conflict is asked only when nothing was committed (C-10, C-13)",
            )
        winner = a_seat if s.att_base > s.def_base else d_seat  # a tie goes to the defender
        if s.winner != winner or s.seat != winner:
            raise _fail(
                f"{root}.pending.conflict.winner",
                f"with strengths {s.att_base} to {s.def_base} and nothing committed seat "
                f"{winner} won, and decides the point (C-10, C-13)",
            )
        if on != [winner == a_seat, winner == d_seat]:
            raise _fail(
                f"{root}.pending.conflict",
                "the loser's leader has returned and the winner's stands (C-10, C-13)",
            )
    if s.is_war:
        _check_war(s, root)
    else:
        _check_revolt(s, root)


def _check_revolt(s: CardsData, root: str) -> None:
    att, dfn = s.att_lid, s.def_lid
    if att >> 2 != s.active:
        raise _fail(
            f"{root}.pending.conflict.attacker",
            "the attacker of a revolt is the active player, who moved in (C-10)",
        )
    if s.att_lo >= 0 or s.def_lo >= 0 or s.spoils_lo >= 0:
        raise _fail(
            f"{root}.pending.conflict", "a revolt has no sides or spoils; only wars do (C-13)"
        )
    if s.kind == kinds.COMMIT and revolt.rival(s.lpos, s.gaps, att) != dfn:
        raise _fail(
            f"{root}.pending.conflict", "the two leaders of a revolt stand in one kingdom (C-10)"
        )
    for lid, base, field in (
        (att, s.att_base, "attacker_base"),
        (dfn, s.def_base, "defender_base"),
    ):
        pos = s.lpos[lid]
        real = revolt.on_red(s.cols, s.gaps, pos) if pos >= 0 else base
        if base != real or base > 1:
            raise _fail(
                f"{root}.pending.conflict.{field}",
                f"a revolt's base strength is 1 on a red card or a head, else 0; the layout "
                f"gives {real if pos >= 0 else '0 or 1'}, not {base} (C-10)",
            )


def _check_war(s: CardsData, root: str) -> None:
    att, dfn, down = s.att_lid, s.def_lid, s.down
    if war.attacker_first([att, dfn], s.active, s.players) != (att, dfn):
        raise _fail(
            f"{root}.pending.conflict.attacker",
            "the attacker is the active player if involved, else the involved owner first "
            "clockwise after the active player (C-11)",
        )
    lo, hi = extent(s.gaps, down)
    halves = {extent(s.gaps, down, down), extent(s.gaps, down + 1, down)}
    sides = ((att, s.att_lo, s.att_hi, "attacker"), (dfn, s.def_lo, s.def_hi, "defender"))
    for lid, side_lo, side_hi, role in sides:
        pos = s.lpos[lid]
        if pos >= 0:
            if not lo <= spot_column(pos) <= hi:
                raise _fail(
                    f"{root}.pending.conflict.{role}",
                    f"stands outside the kingdom of columns {lo + 1}-{hi + 1} joined by the "
                    "face-down bridge (C-11)",
                )
            real = extent(s.gaps, spot_column(pos), down)
        else:
            real = (side_lo, side_hi)
        if (side_lo, side_hi) != real or real not in halves:
            raise _fail(
                f"{root}.pending.conflict.{role}_side",
                "a side is the leader's kingdom with the face-down bridge left out (C-12)",
            )
    if (s.att_lo, s.att_hi) == (s.def_lo, s.def_hi):
        raise _fail(
            f"{root}.pending.conflict",
            "the two sides of a war lie on either side of the face-down bridge (C-12)",
        )
    for side_lo, side_hi, base, field in (
        (s.att_lo, s.att_hi, s.att_base, "attacker_base"),
        (s.def_lo, s.def_hi, s.def_base, "defender_base"),
    ):
        strength = war.strength(s.cols, s.gaps, side_lo, side_hi, s.colour)
        if base != strength:
            raise _fail(
                f"{root}.pending.conflict.{field}",
                f"the layout gives this side {strength} face-up {COLOUR_NAMES[s.colour]} cards, "
                f"not {base} (C-12)",
            )
    if s.kind == kinds.POINT:
        loser = (s.def_lo, s.def_hi) if s.winner == att >> 2 else (s.att_lo, s.att_hi)
        if (s.spoils_lo, s.spoils_hi) != loser:
            raise _fail(
                f"{root}.pending.conflict.spoils_side", "the spoils are the loser's side (C-13)"
            )
    if s.colour in s.wars:
        raise _fail(
            f"{root}.pending.wars", "lists the war being fought among those still to fight (C-11)"
        )

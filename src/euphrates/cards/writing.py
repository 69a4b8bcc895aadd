"""The state written out: the JSON position format and the view of one seat (docs/cards.md).

Writing needs only the state's data, so the facade (`state.CardsState.view`) and the
readers above it (`position.from_position`, `views.sample_from_view`) share this one
writer and the formats cannot drift apart.
"""

from __future__ import annotations

from euphrates.cards.context import decision_context
from euphrates.cards.data import CardsData
from euphrates.cards.kinds import KIND_NAMES, REASON_NAMES
from euphrates.cards.layout import (
    CARD_TOTALS,
    GAPS,
    SHIP_BASE,
    TREASURE,
    card_letter,
    gap_name,
    ship_code_name,
    spot_name,
)
from euphrates.cards.scoring import tallies
from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES, LEADER_LETTERS, RED
from euphrates.core.protocol import Json, View

# 2: `declined` (G-1) joined the position and the view.
FORMAT = 2
HIDDEN = "?"
COMMON_KEYS = ("format", "game", "players", "options", "version", "first", "active", "actions_left")
"""The fields a position and a view share, in the order `common_json` writes them."""


# --- writing -------------------------------------------------------------------------------
def cards_text(counts: list[int]) -> str:
    """Colour counts as letters in colour order: [2, 0, 1, 0] -> ``rrg``."""
    return "".join(COLOUR_LETTERS[c] * n for c, n in enumerate(counts))


def pile_text(pile: list[int]) -> str:
    return "".join("t" if c == TREASURE else COLOUR_LETTERS[c] for c in pile)


def _lid_json(lid: int) -> Json | None:
    return None if lid < 0 else {"seat": lid >> 2, "leader": LEADER_LETTERS[lid & 3]}


def _side(lo: int, hi: int) -> list[int] | None:
    return None if lo < 0 else [lo + 1, hi + 1]


def pending_json(s: CardsData) -> Json:
    """The pending decision with the internal context needed to continue the action
    (conflict, remaining wars, ship options, ship points still to ask, exchange gap)."""
    return {
        "kind": "over" if s.kind < 0 else KIND_NAMES[s.kind],
        "seat": None if s.kind < 0 else s.seat,
        "colour": None if s.colour < 0 else COLOUR_LETTERS[s.colour],
        "reason": REASON_NAMES[s.reason],
        "conflict": None
        if s.att_lid < 0
        else {
            "type": "war" if s.is_war else "revolt",
            "attacker": _lid_json(s.att_lid),
            "defender": _lid_json(s.def_lid),
            "attacker_base": s.att_base,
            "defender_base": s.def_base,
            "attacker_commit": None if s.att_commit < 0 else s.att_commit,
            "defender_commit": None if s.def_commit < 0 else s.def_commit,
            "attacker_side": _side(s.att_lo, s.att_hi),
            "defender_side": _side(s.def_lo, s.def_hi),
            "spoils_side": _side(s.spoils_lo, s.spoils_hi),
            "winner": None if s.winner < 0 else s.winner,
        },
        "wars": "".join(COLOUR_LETTERS[w] for w in s.wars),
        "ship_column": None if s.ship_col < 0 else s.ship_col + 1,
        "ship_options": [ship_code_name(c) for c in s.ship_opts],
        "ship_points": "".join(COLOUR_LETTERS[c] for c in s.ship_queue),
        "exchange_gap": None if s.exch_gap < 0 else gap_name(s.exch_gap),
        "context": decision_context(s),
    }


def layout_json(s: CardsData, hide_down: bool) -> Json:
    bridges: list[str | None] = []
    for g in range(GAPS):
        card = s.gaps[g]
        if card < 0:
            bridges.append(None)
        elif g == s.down and hide_down:
            bridges.append(HIDDEN)
        else:
            bridges.append(COLOUR_LETTERS[card])
    return {
        "heads": "".join("t" if o else "r" for o in s.orig),
        "columns": [[card_letter(c) for c in col] for col in s.cols],
        "bridges": bridges,
        "face_down": None if s.down < 0 else gap_name(s.down),
    }


def common_json(s: CardsData) -> Json:
    """The fields a position and a view share."""
    return {
        "format": FORMAT,
        "game": "cards",
        "players": s.players,
        "options": {"open_piles": s.open_piles},
        "version": s._version,
        "first": s.first,
        "active": s.active,
        "actions_left": s.actions_left,
    }


def leaders_json(s: CardsData) -> list[Json]:
    return [
        {
            LEADER_LETTERS[c]: (None if s.lpos[p * 4 + c] < 0 else spot_name(s.lpos[p * 4 + c]))
            for c in range(4)
        }
        for p in range(s.players)
    ]


def declined_json(s: CardsData) -> list[Json]:
    """Per player and colour, how many cards in hand were held, at least, when the
    player last declined a point of that colour (G-1): public, and what search reads
    to imagine a hand without that colour (`data.deal_hand`)."""
    return [{COLOUR_LETTERS[c]: d[c] for c in range(4)} for d in s.declined]


def to_position(s: CardsData) -> Json:
    doc = common_json(s)
    doc.update(
        {
            "rng": s.rng,
            "layout": layout_json(s, hide_down=False),
            "leaders": leaders_json(s),
            "hands": [cards_text(h) for h in s.hands],
            "catastrophes": list(s.cats),
            "ships": [ship_code_name(c) for c in s.ships],
            "deck": "".join(COLOUR_LETTERS[c] for c in s.deck),
            "removed": "".join(COLOUR_LETTERS[c] for c in s.removed),
            "discard": cards_text(s.discard),
            "out": cards_text(s.out),
            "piles": [pile_text(p) for p in s.piles],
            "declined": declined_json(s),
            "pending": pending_json(s),
        }
    )
    return doc


# --- views ---------------------------------------------------------------------------------
def pile_summary(s: CardsData) -> list[Json]:
    """C-9: closed piles show their top card and height; open piles every colour. Once
    the game is over the scoring has turned every pile over (C-9, C-18), so every pile
    reads as open, whatever the option."""
    out: list[Json] = []
    opened = s.open_piles or s.is_over()
    for pile in s.piles:
        if opened:
            counts, t = tallies(pile)
            out.append({**{COLOUR_LETTERS[c]: counts[c] for c in range(4)}, "t": t})
        else:
            top = None if not pile else ("t" if pile[-1] == TREASURE else COLOUR_LETTERS[pile[-1]])
            out.append({"top": top, "height": len(pile)})
    return out


def not_seen(s: CardsData) -> Json:
    """Cards of each colour not yet seen in the open (C-1): the colour's total less the
    face-up cards of the layout (a red head that replaced a treasure included, C-14),
    the discard (C-10, C-13, C-15), the cards out of the game (C-7), the point piles
    (every card reaching one is public, C-9) and the cards committed to a pending
    conflict. A face-down bridge counts as not seen for everyone, its player included
    (C-11), so the figure is the same for every seat and for spectators; the rest lie
    in the deck, in hands, or were removed unseen (C-3)."""
    seen = [0, 0, 0, 0]
    for col in s.cols:
        for card in col:
            if card < SHIP_BASE:
                seen[card] += 1
    for g, card in enumerate(s.gaps):
        if card >= 0 and g != s.down:
            seen[card] += 1
    seen[RED] += sum(1 for o in s.orig if not o)
    for pile in s.piles:
        counts, _ = tallies(pile)
        for c in range(4):
            seen[c] += counts[c]
    for c in range(4):
        seen[c] += s.discard[c] + s.out[c]
    if s.att_lid >= 0 and s.colour >= 0:
        seen[s.colour] += max(s.att_commit, 0) + max(s.def_commit, 0)
    return {COLOUR_NAMES[c]: CARD_TOTALS[c] - seen[c] for c in range(4)}


def view_json(s: CardsData, viewer: int | None, decided: Json) -> View:
    """What ``viewer`` may see (None: a spectator), C-19 and G-3. `decided` holds the
    protocol's part of every view (`core.protocol.decision_fields`), which the facade
    computes; the facade has checked the viewer."""
    hide_down = s.down >= 0 and viewer != s.active
    v = common_json(s)
    v.update(
        {
            "layout": layout_json(s, hide_down),
            "leaders": leaders_json(s),
            "hand": None if viewer is None else cards_text(s.hands[viewer]),
            "hand_counts": [sum(h) for h in s.hands],
            "catastrophes": list(s.cats),
            "ships": [ship_code_name(c) for c in s.ships],
            "deck_count": len(s.deck),
            "removed_count": len(s.removed),
            "discard": cards_text(s.discard),
            "out": cards_text(s.out),
            "piles": pile_summary(s),
            # The record of every scoring event, public by G-3; a client shows `piles`.
            "scored": [pile_text(p) for p in s.piles],
            "declined": declined_json(s),
            "pending": pending_json(s),
            "over": s.kind < 0,
            "outcome": None if s.result is None else s.result.to_json(),
            "not_seen": not_seen(s),
        }
    )
    v.update(decided)
    return v

"""The public context of the pending decision, in the vocabulary both games share.

A host, a browser table or a bot reads `decision().context` the same way in either
game: colours and leaders by name, seats as ints, where a leader stands as a spot
(``3.2``, ``3-4``). The table of keys per decision kind is in docs/cards.md; only public
facts appear here (G-1, G-3): the defender learns the attacker's commitment, nobody
learns a hand or the colour of a face-down bridge.
"""

from __future__ import annotations

from typing import Any

import euphrates.cards.kinds as kinds
import euphrates.cards.treasures as treasures
from euphrates.cards.data import CardsData
from euphrates.cards.layout import ship_code_name, spot_name
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES

REASON_SHIP = "ship"
"""A ship point's reason (C-16): `point` decisions carry "column", "revolt" or "war"."""


def decision_context(s: CardsData) -> dict[str, Any]:
    k = s.kind
    if k == kinds.ACTION:
        return {"action": 3 - s.actions_left, "actions_left": s.actions_left}
    if k == kinds.COMMIT:
        return conflict_context(s)
    if k == kinds.WAR_ORDER:
        return {"wars": [COLOUR_NAMES[w] for w in s.wars]}
    if k == kinds.POINT:
        return {"colour": COLOUR_NAMES[s.colour], "reason": kinds.REASON_NAMES[s.reason]}
    if k == kinds.SHIP_POINT:
        return {
            "colour": COLOUR_NAMES[s.colour],
            "reason": REASON_SHIP,
            "leader": LEADER_NAMES[s.colour],
        }
    if k == kinds.EXCHANGE:
        lo, hi = treasures.exchange_kingdom(s.gaps, s.exch_gap)
        return {
            "kingdom": [lo + 1, hi + 1],
            "treasures": [c + 1 for c in treasures.originals(s.orig, lo, hi)],
        }
    if k == kinds.SHIP:
        return {"column": s.ship_col + 1, "ships": [ship_code_name(c) for c in s.ship_opts]}
    return {}


def conflict_context(s: CardsData) -> dict[str, Any]:
    """A commitment: a revolt is fought by leaders of any one colour with red cards
    (C-10), a war with cards of the leaders' colour (C-12), so `colour` and
    `commit_colour` differ only in revolts of farmers, traders and kings."""
    att, dfn = s.att_lid, s.def_lid
    return {
        "conflict": "war" if s.is_war else "revolt",
        "colour": COLOUR_NAMES[att & 3],
        "commit_colour": COLOUR_NAMES[s.colour],
        "attacker": att >> 2,
        "defender": dfn >> 2,
        "role": "attacker" if s.att_commit < 0 else "defender",
        "attacker_leader": spot_name(s.lpos[att]),
        "defender_leader": spot_name(s.lpos[dfn]),
        "attacker_strength": s.att_base,
        "defender_strength": s.def_base,
        "attacker_commit": None if s.att_commit < 0 else s.att_commit,
    }

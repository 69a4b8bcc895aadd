"""Views (what one seat may see, C-19, G-3) and full states sampled from a view.

A view is the position with the secret parts replaced by counts: other hands, the
deck and its order, the 30 removed cards, the colour of a face-down bridge the viewer
did not lay, and the generator's state (from which the deck order would follow). The
point piles are summarised as C-9 says (open for everyone once the game is over), with
the public record of every point kept in `scored`. Since the view keeps everything
public, dealing the unseen cards back at random gives a full state with that very view:
what information-set search needs.

A view handed back to `sample_from_view` comes from outside (a bot, a client), so it is
read as strictly as a position, and the sample must reproduce the view exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from euphrates.cards.data import deal_hand
from euphrates.cards.layout import (
    CARD_TOTALS,
    CIVILISATION_CARDS,
    GAPS,
    HAND_SIZE,
    REMOVED_TWO_PLAYERS,
)
from euphrates.cards.position import (
    FORMAT,
    HIDDEN,
    LAYOUT_KEYS,
    PILE_LETTERS,
    cards_text,
    counts_of,
    finish_reading,
    kind_of,
    need_int,
    need_keys,
    need_list,
    need_mapping,
    parse_gap,
    read_fields,
    same_json,
    sequence_of,
    shown,
)
from euphrates.cards.position_check import census
from euphrates.cards.state import CardsState
from euphrates.cards.writing import COMMON_KEYS
from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES, RED
from euphrates.core.errors import RecordError
from euphrates.core.history import HISTORY_KEY, without_history
from euphrates.core.protocol import View
from euphrates.core.rng import Rng

VIEW_KEYS = (
    *COMMON_KEYS,
    "layout",
    "leaders",
    "hand",
    "hand_counts",
    "catastrophes",
    "ships",
    "deck_count",
    "removed_count",
    "discard",
    "out",
    "piles",
    "scored",
    "declined",
    "pending",
    "over",
    "outcome",
    "not_seen",
    "viewer",
    "decision",
    "legal",
)
_COPIED = (
    *COMMON_KEYS,
    "leaders",
    "catastrophes",
    "ships",
    "discard",
    "out",
    "declined",
    "pending",
)


def sample_from_view(value: object, rng: Rng) -> CardsState:
    """A full state consistent with the view: the unseen cards (other hands, the deck, the
    cards removed in a two-player game, a face-down bridge the viewer did not lay) are
    shuffled and dealt back in the counts the view shows, a player's cards held since
    declining a point of a colour without that colour where the unseen cards allow
    (`data.deal_hand`, G-1). RecordError if the view is
    malformed, shows more cards than exist, or does not add up (C-1), or if no state has
    exactly this view."""
    v = need_mapping(value, "view")
    if HISTORY_KEY in v:  # a bot's public history, beside the view (core.history)
        v = without_history(v)
    if v.get("game") != "cards":
        raise RecordError(
            f"view: not of the card game (game must be 'cards', not {shown(v.get('game'))})"
        )
    need_keys(v, VIEW_KEYS, VIEW_KEYS, "view")
    n = need_int(v["players"], 2, 4, "view.players")
    seat = v["viewer"]
    if seat is not None:
        seat = need_int(seat, 0, n - 1, "view.viewer")
    lay = need_mapping(v["layout"], "view.layout")
    need_keys(lay, LAYOUT_KEYS, LAYOUT_KEYS, "view.layout")
    bridges = list(need_list(lay["bridges"], "view.layout.bridges", GAPS))
    hidden = [g for g, b in enumerate(bridges) if isinstance(b, str) and b == HIDDEN]
    if hidden and (
        len(hidden) > 1 or parse_gap(lay["face_down"], "view.layout.face_down") != hidden[0]
    ):
        raise RecordError("view.layout.bridges: only the face-down bridge can be hidden (C-19)")
    for g in hidden:
        bridges[g] = COLOUR_LETTERS[RED]  # a stand-in until the unseen cards are dealt
    counts = need_list(v["hand_counts"], "view.hand_counts", n)
    sizes = [need_int(k, 0, HAND_SIZE, f"view.hand_counts[{p}]") for p, k in enumerate(counts)]
    if seat is None:
        if v["hand"] is not None:
            raise RecordError("view.hand: a spectator's view holds no hand (C-19)")
        own = ""
    else:
        own = cards_text(counts_of(v["hand"], HAND_SIZE, "view.hand"))
        if own != v["hand"] or len(own) != sizes[seat]:
            raise RecordError(
                f"view.hand must list the viewer's {sizes[seat]} cards in colour order (r b g k)"
            )
    scored = need_list(v["scored"], "view.scored", n)
    for i, pile in enumerate(scored):
        sequence_of(pile, CIVILISATION_CARDS, f"view.scored[{i}]", PILE_LETTERS)
    deck_count = need_int(v["deck_count"], 0, CIVILISATION_CARDS, "view.deck_count")
    removed_count = need_int(v["removed_count"], 0, REMOVED_TWO_PLAYERS, "view.removed_count")
    doc: dict[str, Any] = {k: v[k] for k in _COPIED}
    doc.update(
        {
            "rng": 0,
            "layout": {**lay, "bridges": bridges},
            "hands": [own if p == seat else "" for p in range(n)],
            "deck": "",
            "removed": "",
            "piles": v["scored"],
        }
    )
    s, context = read_fields(doc, "view")
    pool = _unseen(s, len(hidden))
    wanted = sum(sizes) - len(own) + len(hidden) + removed_count + deck_count
    if len(pool) != wanted:
        raise RecordError(
            f"view does not account for every card (C-1): {len(pool)} cards are unseen, but "
            f"the other hands ({sum(sizes) - len(own)}), the deck ({deck_count}), the removed "
            f"cards ({removed_count}) and hidden bridges ({len(hidden)}) hold {wanted}"
        )
    # The same order of draws as ever, so a seeded search samples as before.
    rng.shuffle(pool)
    i = 0
    for p in range(n):
        if p != seat:
            s.hands[p] = deal_hand(pool, i, sizes[p], s.declined[p])
            i += sizes[p]
    rest = pool[i:]
    for g in hidden:
        s.gaps[g] = rest.pop()
    s.removed = rest[:removed_count]
    s.deck = rest[removed_count:]
    s.rng = rng.next64()
    finish_reading(s, context, "view")
    _same_view(s.view(seat), v)
    return s


def _unseen(s: CardsState, stand_ins: int) -> list[int]:
    """The cards the view does not show, in colour order (the read state holds only what
    the view shows, plus one red stand-in per hidden bridge)."""
    seen, _ = census(s)
    seen[RED] -= stand_ins
    pool: list[int] = []
    for c in range(4):
        if seen[c] > CARD_TOTALS[c]:
            raise RecordError(
                f"view shows {seen[c]} {COLOUR_NAMES[c]} cards, but only {CARD_TOTALS[c]} "
                "exist (C-1)"
            )
        pool.extend([c] * (CARD_TOTALS[c] - seen[c]))
    return pool


def _same_view(mine: View, given: Mapping[str, Any]) -> None:
    """Every field the view derives (pile summaries, the decision, the legal actions,
    the outcome) must be what its own layout, hands and pending decision give, with
    JSON's types: `"over": 0` or `true` for a 1 in the decision's context equal the
    engine's values in Python, but no state shows them."""
    for key, value in mine.items():
        if key not in given or not same_json(given[key], value):
            raise RecordError(
                f"view.{key} does not match the rest of the view (it should read "
                f"{_short(value)}, not {_short(given.get(key))})"
            )


def _short(value: object) -> str:
    try:
        text = repr(value)
    except (RecursionError, ValueError):  # a nested structure too deep to show
        return kind_of(value)
    return text if len(text) <= 80 else text[:77] + "..."


def check_view(value: object) -> None:
    """Refuse a view that no state of the card game shows to its viewer (RecordError)."""
    sample_from_view(value, Rng(0))


__all__ = ["FORMAT", "VIEW_KEYS", "check_view", "sample_from_view"]

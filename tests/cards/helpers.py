"""Build card-game positions by hand, for scenario tests.

`position(...)` takes the public layout and the hands that matter and fills the deck
with every card not placed elsewhere, so the result always accounts for all 193 cards.
"""

from __future__ import annotations

from typing import Any

from euphrates.cards import CARDS, CardsState
from euphrates.cards.layout import CARD_TOTALS
from euphrates.cards.position import to_position

LETTERS = "rbgk"
ACTION_PENDING: dict[str, Any] = {
    "kind": "action",
    "seat": 0,
    "colour": None,
    "reason": "column",
    "conflict": None,
    "wars": "",
    "ship_column": None,
    "ship_options": [],
    "ship_points": "",
    "exchange_gap": None,
}
"""An action decision's `pending`, every field as `to_position` writes it (all are
required; `context` may be left out)."""


def _count(text: str) -> list[int]:
    return [text.count(ch) for ch in LETTERS]


def position(
    *,
    players: int = 3,
    columns: list[str] | None = None,
    heads: str = "tttttttt",
    bridges: list[str | None] | None = None,
    face_down: str | None = None,
    leaders: dict[tuple[int, str], str] | None = None,
    hands: list[str] | None = None,
    piles: list[str] | None = None,
    active: int = 0,
    actions_left: int = 2,
    catastrophes: list[bool] | None = None,
    ships: list[str] | None = None,
    discard: str = "",
    out: str = "",
    deck: str | None = None,
    removed: str = "",
    pending: dict[str, Any] | None = None,
    open_piles: bool = False,
    rest: str = "deck",
) -> dict[str, Any]:
    """A position document; ``columns`` are strings of cards top to bottom, where a ship
    is written in brackets, e.g. ``"rr[bk]g"``."""
    cols: list[list[str]] = []
    for text in columns or [""] * 8:
        col: list[str] = []
        i = 0
        while i < len(text):
            if text[i] == "[":
                j = text.index("]", i)
                col.append(text[i + 1 : j])
                i = j + 1
            else:
                col.append(text[i])
                i += 1
        cols.append(col)
    while len(cols) < 8:
        cols.append([])
    gaps = bridges if bridges is not None else [None] * 7
    hands = hands if hands is not None else [""] * players
    piles = piles if piles is not None else [""] * players
    lead: list[dict[str, str | None]] = [
        {"P": None, "F": None, "T": None, "K": None} for _ in range(players)
    ]
    for (seat, letter), where in (leaders or {}).items():
        lead[seat][letter] = where
    used = [0, 0, 0, 0]
    for col in cols:
        for card in col:
            if len(card) == 1:
                used[LETTERS.index(card)] += 1
    for b in gaps:
        if b is not None:
            used[LETTERS.index(b)] += 1
    used[0] += heads.count("r")
    for text in [*hands, *[p.replace("t", "") for p in piles], discard, out, removed]:
        for c, n in enumerate(_count(text)):
            used[c] += n
    if ships is None:
        ships = [x for x in ("br", "bg", "bk") if not any(x in col for col in cols)]
    if deck is None:
        rest_to, counts = rest, [CARD_TOTALS[c] - used[c] for c in range(4)]
        assert min(counts) >= 0, f"too many cards: {used}"
        left = "".join(LETTERS[c] * counts[c] for c in range(4))
        if rest_to == "deck":
            deck = left
        else:
            deck, discard = "", discard + left
    doc: dict[str, Any] = {
        "format": 2,
        "game": "cards",
        "players": players,
        "options": {"open_piles": open_piles},
        "rng": 12345,
        "version": 0,
        "first": 0,
        "active": active,
        "actions_left": actions_left,
        "layout": {"heads": heads, "columns": cols, "bridges": gaps, "face_down": face_down},
        "leaders": lead,
        "hands": hands,
        "catastrophes": catastrophes if catastrophes is not None else [True] * players,
        "ships": ships,
        "deck": deck,
        "removed": removed,
        "discard": discard,
        "out": out,
        "piles": piles,
        "declined": [dict.fromkeys("rbgk", 0) for _ in range(players)],
        "pending": pending or {**ACTION_PENDING, "seat": active},
    }
    return doc


def state(**kw: Any) -> CardsState:
    return CARDS.from_position(position(**kw))


def pos_of(s: CardsState) -> dict[str, Any]:
    return to_position(s)


def play(s: CardsState, *texts: str) -> list[Any]:
    events: list[Any] = []
    for t in texts:
        events.extend(s.apply(t))
    return events


def hand(s: CardsState, seat: int) -> str:
    return "".join(LETTERS[c] * n for c, n in enumerate(s.hands[seat]))


def pile(s: CardsState, seat: int) -> str:
    return "".join("t" if c == 4 else LETTERS[c] for c in s.piles[seat])


def column(s: CardsState, c: int) -> str:
    """Column c (1-based) as letters; ships in brackets."""
    out = ""
    for card in s.cols[c - 1]:
        out += LETTERS[card] if card < 4 else f"[b{LETTERS[card - 4]}]"
    return out


def leader_at(s: CardsState, seat: int, letter: str) -> str | None:
    from euphrates.cards.layout import spot_name

    p = s.lpos[seat * 4 + "PFTK".index(letter)]
    return None if p < 0 else spot_name(p)


def find(
    pred: Any, players: int = 3, seeds: range = range(40), step_limit: int = 5000
) -> CardsState:
    """The first state of seeded random games that satisfies `pred` (a state predicate):
    a real, reachable state of some decision kind, for tests that break it."""
    from euphrates.core.rng import Rng

    for seed in seeds:
        s = CARDS.new_game(players, seed)
        rng = Rng(seed + 17)
        for _ in range(step_limit):
            if pred(s):
                return s
            if s.is_over():
                break
            s.apply(s.random_action(rng))
    raise AssertionError("no random game reached the state asked for")


def kind_is(name: str, **pending: Any) -> Any:
    """A predicate: the pending decision is `name` and its position fields match."""

    def pred(s: CardsState) -> bool:
        d = s.decision()
        if (d.kind if d else "over") != name:
            return False
        doc = to_position(s)["pending"]
        for key, want in pending.items():
            got = (
                doc["conflict"]["type"]
                if key == "conflict_type" and doc["conflict"]
                else doc.get(key)
            )
            if got != want:
                return False
        return True

    return pred

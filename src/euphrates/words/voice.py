"""Who is told, and the pieces named: a `Voice` is the book in one language for one
viewer, naming the seats; the functions below read colours, leaders, spots and ships
from event data as the browser's modules do (`shared/pieces.js`, `cards/model.js`), so
that both sides word an event alike."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from euphrates.words.book import Book, shown

COLOURS = ("red", "blue", "green", "black")
LEADERS = ("priest", "farmer", "trader", "king")
LETTER_COLOUR = {"r": "red", "b": "blue", "g": "green", "k": "black"}
LETTER_LEADER = {"P": "priest", "F": "farmer", "T": "trader", "K": "king"}
COLOUR_LETTER = {c: letter for letter, c in LETTER_COLOUR.items()}


def is_seat(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Voice:
    """The book for one viewer. `viewer` is whose private events may be told; with
    `address` (the terminal) the viewer is "you", and a text about them is read in its
    second-person form (`log.passed.you`, `log.revolt.you_d`) where the book has one.
    Without it every seat is called by its name, as the browser's log does."""

    def __init__(
        self,
        book: Book,
        viewer: int | None,
        names: Sequence[str] | None = None,
        address: bool = True,
    ) -> None:
        self.book = book
        self.viewer = viewer
        self.names = names
        self.you = viewer if address else None
        self.missing: set[str] = set()
        """Second-person forms asked for and not in the book (tests/terminal)."""

    def t(self, key: str, **params: Any) -> str:
        return self.book.t(key, **params)

    def name(self, seat: Any) -> str:
        """A seat's name: "you" for the viewer addressed, its name, else `seat N`; ""
        for none."""
        if seat is None:
            return ""
        if self.you is not None and seat == self.you:
            return self.t("term.you")
        if is_seat(seat) and self.names and 0 <= seat < len(self.names):
            return str(self.names[seat])
        return self.t("term.seat", n=seat)

    def say(self, key: str, seats: Mapping[str, Any], **params: Any) -> str:
        """The text for `key` with the seats in `seats` named; where the viewer
        addressed is one of them, the form for "you" (`.you` for `who`, `.you_a` for
        `a`, …), if the book has it."""
        for param, seat in seats.items():
            if self.you is not None and is_seat(seat) and seat == self.you:
                variant = f"{key}.you" if param == "who" else f"{key}.you_{param}"
                if variant in self.book:
                    key = variant
                else:
                    self.missing.add(variant)
                break
        return self.book.t(key, **{p: self.name(s) for p, s in seats.items()}, **params)

    def listing(self, items: Sequence[str]) -> str:
        """`a, b and c`, as `listing` in the browser."""
        if len(items) <= 1:
            return "".join(items)
        return f"{', '.join(items[:-1])}{self.t('log.and')}{items[-1]}"

    def seen(self, event: Mapping[str, Any]) -> bool:
        """Whether the viewer may see the event (its audience is everyone or them)."""
        audience = event.get("audience")
        return audience is None or audience == self.viewer


# --- pieces, read as the browser reads them ------------------------------------------
def as_colour(name: Any) -> str | None:
    return name if isinstance(name, str) and name in COLOURS else None


def as_leader(name: Any) -> str | None:
    return name if isinstance(name, str) and name in LEADERS else None


def colour_of(x: Any) -> str | None:
    """A colour from its index, letter (`g`, `k`) or name (`colourOf`)."""
    if is_seat(x):
        return COLOURS[x] if 0 <= x < len(COLOURS) else None
    if not isinstance(x, str):
        return None
    return LETTER_COLOUR.get(x) or as_colour(x.lower())


def leader_of(x: Any) -> str | None:
    """A leader from its index, letter (`T`), name or colour (`leaderOf`)."""
    if is_seat(x):
        return LEADERS[x] if 0 <= x < len(LEADERS) else None
    if not isinstance(x, str):
        return None
    found = LETTER_LEADER.get(x) or as_leader(x.lower())
    if found:
        return found
    colour = colour_of(x)
    return LEADERS[COLOURS.index(colour)] if colour else None


def leader_words(v: Voice, x: Any, form: str) -> str:
    """A leader in one of the book's forms (`leader_acc`, `cards.of`, …), or as given."""
    leader = leader_of(x)
    return v.t(f"{form}.{leader}") if leader else shown(x)


def returning(v: Voice, x: Any) -> dict[str, str]:
    """A leader going back to its owner, as the sentence for everyone names it (`The
    priest`) and as the owner's names it (`your priest`)."""
    return {"leader": leader_words(v, x, "leader_nom"), "piece": leader_words(v, x, "leader")}


_SPOT = re.compile(r"([1-8])\.([0-8])")
_GAP = re.compile(r"([1-7])-([2-8])")


def spot_words(v: Voice, spot: str) -> str:
    """A card-game spot: the head of a column, a card in it, or a bridge."""
    m = _SPOT.fullmatch(spot)
    if m:
        col, row = int(m[1]), int(m[2])
        if row == 0:
            return v.t("cards.spot.head", col=col)
        return v.t("cards.spot.card", col=col, row=row)
    m = _GAP.fullmatch(spot)
    if m and int(m[2]) == int(m[1]) + 1:
        return v.t("cards.spot.bridge", gap=f"{m[1]} – {m[2]}")
    return spot


def ship_code(code: str) -> str:
    """A ship's code in letters (`bk`) from letters or names (`blue-black`)."""
    parts = code.split("-") if "-" in code else list(code[:2])
    a = colour_of(parts[0] if parts else None) or "blue"
    b = colour_of(parts[1] if len(parts) > 1 else None) or "red"
    return COLOUR_LETTER[a] + COLOUR_LETTER[b]


def counted(items: Sequence[Any] | str) -> dict[Any, int]:
    """How often each item stands, in the order first seen."""
    counts: dict[Any, int] = {}
    for item in items:
        counts[item] = counts.get(item, 0) + 1
    return counts

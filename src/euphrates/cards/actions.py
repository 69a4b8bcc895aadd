"""Card-game actions and their text notation (docs/cards.md).

The notation is the board game's, with columns 1..8 for squares: lowercase colour
letters for cards, uppercase letters for leaders, ``none``/``decline`` for saying no.

    r3          a red card appended to column 3     g3-4        a green bridge in gap 3-4
    T3.2        the trader to column 3 row 2        K3-4        the king onto the bridge 3-4
    T3.0        the trader onto the head of 3       x3.2 / x3-4 the catastrophe on 3.2 / 3-4
    pass        end the turn at once (G-2)          commit 2    commit 2 cards to a conflict
    war g       fight the green war next            point g     pay a green point card
    point none  pay no point card                   exchange 5  take the treasure card of 5
    exchange none   take no (more) treasure cards   ship bk     build the blue-black ship
    decline     build no ship

Actions are values: every possible action exists once in the tables at the bottom, so
random play and move generation never build new objects.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from euphrates.cards.layout import (
    COLUMNS,
    GAP_BASE,
    GAPS,
    HAND_SIZE,
    MAX_CARDS,
    SHIP_BASE,
    SHIPS,
    gap_name,
    ship_code_name,
    spot,
    spot_name,
)
from euphrates.core.actions import ChooseWar as ChooseWar
from euphrates.core.actions import Commit as Commit
from euphrates.core.actions import Decline as Decline
from euphrates.core.actions import Pass as Pass
from euphrates.core.actions import is_ascii_number
from euphrates.core.colours import (
    BLACK,
    BLUE,
    COLOUR_LETTERS,
    LEADER_LETTERS,
    parse_colour,
    parse_leader,
)
from euphrates.core.errors import InvalidActionError, short_repr


def _target_name(target: int) -> str:
    return gap_name(target - GAP_BASE) if target >= GAP_BASE else str(target + 1)


@dataclass(frozen=True, slots=True)
class PlaceLeader:
    """Place a leader from the supply or move it on the layout (C-5): the state knows which."""

    colour: int
    pos: int

    def __str__(self) -> str:
        return LEADER_LETTERS[self.colour] + spot_name(self.pos)


@dataclass(frozen=True, slots=True)
class PlayCard:
    """A card from hand into a column (``target`` = column index) or as a bridge
    (``target`` = GAP_BASE + gap), C-6."""

    colour: int
    target: int

    def __str__(self) -> str:
        return COLOUR_LETTERS[self.colour] + _target_name(self.target)


@dataclass(frozen=True, slots=True)
class Catastrophe:
    pos: int

    def __str__(self) -> str:
        return "x" + spot_name(self.pos)


@dataclass(frozen=True, slots=True)
class PayPoint:
    """Move a card of ``colour`` from hand to the point pile, or none (``colour`` -1):
    the answer to every optional payment (C-9, C-10, C-13, C-16)."""

    colour: int

    def __str__(self) -> str:
        return "point none" if self.colour < 0 else f"point {COLOUR_LETTERS[self.colour]}"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Take the original treasure card heading ``column`` (replacing it with a red card
    from hand), or none (``column`` -1), C-14."""

    column: int

    def __str__(self) -> str:
        return "exchange none" if self.column < 0 else f"exchange {self.column + 1}"


@dataclass(frozen=True, slots=True)
class BuildShip:
    ship: int  # a ship code, SHIP_BASE + its second colour

    def __str__(self) -> str:
        return "ship " + ship_code_name(self.ship)


CardsAction = (
    PlaceLeader
    | PlayCard
    | Catastrophe
    | Pass
    | Commit
    | ChooseWar
    | PayPoint
    | Exchange
    | BuildShip
    | Decline
)

# --- the tables of every action -------------------------------------------------------
MAX_COMMIT: Final = HAND_SIZE + 1  # a commitment comes from one hand of at most 8 (C-3)
SPOTS: Final = tuple(
    [spot(c, r) for c in range(COLUMNS) for r in range(MAX_CARDS + 1)]
    + [GAP_BASE + g for g in range(GAPS)]
)
TARGETS: Final = tuple(list(range(COLUMNS)) + [GAP_BASE + g for g in range(GAPS)])

LEADER_ACTIONS: Final = tuple({p: PlaceLeader(colour, p) for p in SPOTS} for colour in range(4))
CARD_ACTIONS: Final = tuple({t: PlayCard(colour, t) for t in TARGETS} for colour in range(4))
CATASTROPHES: Final = {p: Catastrophe(p) for p in SPOTS}
PASS: Final = Pass()
DECLINE: Final = Decline()
COMMITS: Final = tuple(Commit(n) for n in range(MAX_COMMIT))
WARS: Final = tuple(ChooseWar(c) for c in range(4))
POINTS: Final = tuple(PayPoint(c) for c in range(4))
POINT_NONE: Final = PayPoint(-1)
EXCHANGES: Final = tuple(Exchange(c) for c in range(COLUMNS))
EXCHANGE_NONE: Final = Exchange(-1)
SHIP_ACTIONS: Final = {code: BuildShip(code) for code in SHIPS}

# --- checking objects built in code ---------------------------------------------------
_COLOURS: Final = frozenset(range(4))
_FIELDS: Final[dict[type, tuple[tuple[str, frozenset[int], str], ...]]] = {
    PlaceLeader: (
        ("colour", _COLOURS, "a leader 0..3"),
        ("pos", frozenset(SPOTS), "a spot (column * 16 + row, or 128 + gap)"),
    ),
    PlayCard: (
        ("colour", _COLOURS, "a colour 0..3"),
        ("target", frozenset(TARGETS), "a column 0..7 or a gap 128..134"),
    ),
    Catastrophe: (("pos", frozenset(SPOTS), "a spot (column * 16 + row, or 128 + gap)"),),
    Commit: (("count", frozenset(range(MAX_COMMIT)), f"a count 0..{MAX_COMMIT - 1}"),),
    ChooseWar: (("colour", _COLOURS, "a colour 0..3"),),
    PayPoint: (("colour", frozenset(range(-1, 4)), "a colour 0..3, or -1 for none"),),
    Exchange: (("column", frozenset(range(-1, COLUMNS)), "a column 0..7, or -1 for none"),),
    BuildShip: (("ship", frozenset(SHIPS), f"a ship code {', '.join(map(str, SHIPS))}"),),
    Pass: (),
    Decline: (),
}


TABLE_IDS: Final = frozenset(
    map(
        id,
        (
            *(a for table in LEADER_ACTIONS for a in table.values()),
            *(a for table in CARD_ACTIONS for a in table.values()),
            *CATASTROPHES.values(),
            *COMMITS,
            *WARS,
            *POINTS,
            POINT_NONE,
            *EXCHANGES,
            EXCHANGE_NONE,
            *SHIP_ACTIONS.values(),
            PASS,
            DECLINE,
        ),
    )
)
"""The identities of the tables' actions, the only objects the parser and the move
generator hand out. They live as long as this module, so no other object shares one:
`id(a) in TABLE_IDS` lets apply's hot path skip the field checks for them."""


def check_action(a: object) -> None:
    """Refuse an action object built in code with a field of the wrong type or out of
    range (`Commit(1.0)`, `PlayCard(True, 3)`), before a rule reads it, an error message
    formats it or the state stores it. Exact types, because True and 1.0 would pass as 1
    and then fail to be written down."""
    if id(a) in TABLE_IDS:
        return
    spec = _FIELDS.get(type(a))
    if spec is None:
        raise InvalidActionError(
            f"{type(a).__name__} is not a card-game action (see docs/cards.md)"
        )
    for name, allowed, what in spec:
        value = getattr(a, name, None)
        if type(value) is not int or value not in allowed:
            raise InvalidActionError(
                f"{type(a).__name__}.{name} must be {what} (an int), not {short_repr(value)}"
            )


# --- reading ----------------------------------------------------------------------------
# ASCII digits only (re.ASCII): `\d` would also match '٣' and other Unicode digits.
_SPOT = re.compile(r"^([0-9])\s*\.\s*([0-9])$", re.ASCII)
_GAP = re.compile(r"^([0-9])\s*-\s*([0-9])$", re.ASCII)
_COLUMN = re.compile(r"^([0-9])$", re.ASCII)
_SPLIT = re.compile(r"^([a-z]+?)\s*([0-9].*)$", re.IGNORECASE | re.ASCII)
_NONE_WORDS = frozenset({"none", "no", "decline", "0", "-"})
MAX_TEXT: Final = 64
"""No action's text is longer; longer input is refused before any parsing work."""


def _spot(text: str, where: str) -> int | None:
    """A spot for a leader or a catastrophe: ``3.2`` or ``3-4``; None if not that shape."""
    m = _SPOT.match(where)
    if m:
        c, r = int(m.group(1)), int(m.group(2))
        if not 1 <= c <= COLUMNS or r > MAX_CARDS:
            raise InvalidActionError(f"{text!r}: {where!r} is not a spot (columns 1-8, rows 0-8)")
        return spot(c - 1, r)
    return _gap(text, where)


def _gap(text: str, where: str) -> int | None:
    m = _GAP.match(where)
    if m:
        a, b = int(m.group(1)), int(m.group(2))
        if not (1 <= a < COLUMNS and b == a + 1):
            raise InvalidActionError(
                f"{text!r}: {where!r} is not a gap; gaps join neighbours, 1-2 .. 7-8"
            )
        return GAP_BASE + a - 1
    return None


def _card_target(text: str, where: str) -> int | None:
    m = _COLUMN.match(where)
    if m:
        c = int(m.group(1))
        if not 1 <= c <= COLUMNS:
            raise InvalidActionError(f"{text!r}: there is no column {c} (columns 1-8)")
        return c - 1
    return _gap(text, where)


def _ship(word: str, text: str) -> int:
    w = word.replace("-", "").replace("/", "").replace(" ", "")
    for prefix in ("blue", "b"):
        if w.startswith(prefix) and len(w) > len(prefix):
            other = parse_colour(w[len(prefix) :])
            if other is not None and other not in (BLUE,):
                return SHIP_BASE + other
    other = parse_colour(w)
    if other is not None and other != BLUE:
        return SHIP_BASE + other
    raise InvalidActionError(f"{text!r}: {word!r} is not a ship (br, bg or bk)")


def parse_action(text: str) -> CardsAction:
    """Read an action written in the notation above; words such as ``red 3``,
    ``king 3-4`` or ``catastrophe 3.2`` are accepted too. Raises InvalidActionError.

    Only ``k``/``K`` before a gap is told apart by case (``k3-4`` a black bridge, ``K3-4``
    the king onto it); everywhere else the shape of the target decides."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action's text must be a string, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidActionError(
            f"{text[:20]!r}...: no action is longer than {MAX_TEXT} characters"
        )
    t = " ".join(text.strip().split())
    if not t:
        raise InvalidActionError("empty action")
    low = t.lower()
    words = low.split(" ")
    head, rest = words[0], " ".join(words[1:])
    if low == "pass":
        return PASS
    if low == "decline":
        return DECLINE
    if head == "commit":
        if len(words) != 2 or not is_ascii_number(words[1]):
            raise InvalidActionError(
                f"{text!r}: commit takes a number of cards in ASCII digits, e.g. 'commit 2'"
            )
        n = int(words[1])
        if n >= MAX_COMMIT:
            raise InvalidActionError(f"{text!r}: no hand holds {n} cards (C-3)")
        return COMMITS[n]
    if head == "war" and len(words) >= 2:
        c = parse_colour(rest) if parse_colour(rest) is not None else parse_leader(rest)
        if c is None:
            raise InvalidActionError(f"{text!r}: {rest!r} is not a colour")
        return WARS[c]
    if head == "point" and len(words) >= 2:
        if rest in _NONE_WORDS:
            return POINT_NONE
        c = parse_colour(rest)
        if c is None:
            raise InvalidActionError(f"{text!r}: {rest!r} is not a colour")
        return POINTS[c]
    if head == "exchange" and len(words) >= 2:
        if rest in _NONE_WORDS:
            return EXCHANGE_NONE
        if is_ascii_number(rest, 1) and 1 <= int(rest) <= COLUMNS:
            return EXCHANGES[int(rest) - 1]
        raise InvalidActionError(f"{text!r}: {rest!r} is not a column 1-8 or none")
    if head == "ship" and len(words) >= 2:
        if rest in _NONE_WORDS:
            return DECLINE
        return SHIP_ACTIONS[_ship(rest, text)]
    # <word-or-letter><target>: a card, a leader or a catastrophe
    m = _SPLIT.match(t)
    if not m:
        raise InvalidActionError(f"{text!r} is not an action (see docs/cards.md)")
    word, where = m.group(1), m.group(2).replace(" ", "")
    lw = word.lower()
    if lw in ("x", "catastrophe", "cat"):
        p = _spot(text, where)
        if p is None:
            raise InvalidActionError(f"{text!r}: a catastrophe names a spot such as 3.2 or 3-4")
        return CATASTROPHES[p]
    colour = parse_colour(lw) if lw != "k" else None
    leader = parse_leader(lw) if lw != "k" else None
    if lw == "k":
        # black (k) or the king (K): only a bridge target leaves both open
        colour, leader = BLACK, BLACK
        if _GAP.match(where) and word == "K":
            colour = None
        elif _GAP.match(where):
            leader = None
    if leader is not None and (_SPOT.match(where) or (colour is None and _GAP.match(where))):
        p = _spot(text, where)
        assert p is not None
        return LEADER_ACTIONS[leader][p]
    if colour is not None:
        target = _card_target(text, where)
        if target is not None:
            return CARD_ACTIONS[colour][target]
    raise InvalidActionError(
        f"{text!r} is not an action: cards go to a column or gap (r3, g3-4), "
        "leaders to a spot (T3.2, K3-4)"
    )

"""Board-game actions and their text notation (docs/board.md).

Each action is a small immutable value whose `str` is its canonical text, and
`parse_action` reads that text back (python-chess's `Move.uci()` / `from_uci`). The
notation names squares as board-map.md does, colours by one lowercase letter
(r b g k) and leaders by one uppercase letter (P F T K):

    rF4            a red tile on F4              KG5          the king to G5 (place or move)
    T-             withdraw the trader           xH7          a catastrophe on H7
    swap rb        discard a red and a blue      pass         end the turn (G-2)
    commit 2       commit 2 tiles to a conflict  war g        fight the green war next
    monument rb F3 the red-blue monument on the block whose top-left square is F3
    decline        build no monument             treasure B2  take the treasure on B2
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from euphrates.board.geometry import SQUARES, parse_square, square_name
from euphrates.core.actions import ChooseWar as ChooseWar
from euphrates.core.actions import Commit as Commit
from euphrates.core.actions import Decline as Decline
from euphrates.core.actions import Pass as Pass
from euphrates.core.actions import is_ascii_number
from euphrates.core.colours import (
    BLACK,
    BLUE,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    GREEN,
    LEADER_LETTERS,
    RED,
    parse_colour,
    parse_leader,
)
from euphrates.core.errors import InvalidActionError

# The six monuments, one per pair of colours (B-1), in a fixed order.
MONUMENTS: Final = (
    (RED, BLUE),
    (RED, GREEN),
    (RED, BLACK),
    (BLUE, GREEN),
    (BLUE, BLACK),
    (GREEN, BLACK),
)
MONUMENT_CODES: Final = tuple(COLOUR_LETTERS[a] + COLOUR_LETTERS[b] for a, b in MONUMENTS)


def monument_name(m: int) -> str:
    a, b = MONUMENTS[m]
    return f"{COLOUR_NAMES[a]}-{COLOUR_NAMES[b]}"


@dataclass(frozen=True, slots=True)
class PlaceTile:
    colour: int
    square: int

    def __str__(self) -> str:
        return f"{COLOUR_LETTERS[self.colour]}{square_name(self.square)}"


@dataclass(frozen=True, slots=True)
class PlaceLeader:
    """Place a leader from the supply or move it on the board: the state knows which."""

    colour: int
    square: int

    def __str__(self) -> str:
        return f"{LEADER_LETTERS[self.colour]}{square_name(self.square)}"


@dataclass(frozen=True, slots=True)
class WithdrawLeader:
    colour: int

    def __str__(self) -> str:
        return f"{LEADER_LETTERS[self.colour]}-"


@dataclass(frozen=True, slots=True)
class PlaceCatastrophe:
    square: int

    def __str__(self) -> str:
        return f"x{square_name(self.square)}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Discard tiles (counts per colour, B-16) and draw as many."""

    counts: tuple[int, int, int, int]

    def __str__(self) -> str:
        return "swap " + "".join(COLOUR_LETTERS[c] * n for c, n in enumerate(self.counts))


@dataclass(frozen=True, slots=True)
class BuildMonument:
    """Build monument `monument` (index into MONUMENTS) on the 2×2 block whose top-left
    square is `square` (B-28)."""

    monument: int
    square: int

    def __str__(self) -> str:
        return f"monument {MONUMENT_CODES[self.monument]} {square_name(self.square)}"


@dataclass(frozen=True, slots=True)
class TakeTreasure:
    square: int

    def __str__(self) -> str:
        return f"treasure {square_name(self.square)}"


BoardAction = (
    PlaceTile
    | PlaceLeader
    | WithdrawLeader
    | PlaceCatastrophe
    | Swap
    | Pass
    | Commit
    | ChooseWar
    | BuildMonument
    | Decline
    | TakeTreasure
)

PASS: Final = Pass()
DECLINE: Final = Decline()

# Every tile, leader and catastrophe action made once: the move generator hands these
# out rather than a new object per decision (random play and search ask for one at
# every step), as the card game's tables do.
TILE_ACTIONS: Final = tuple(tuple(PlaceTile(c, sq) for sq in range(SQUARES)) for c in range(4))
LEADER_ACTIONS: Final = tuple(tuple(PlaceLeader(c, sq) for sq in range(SQUARES)) for c in range(4))
CATASTROPHE_ACTIONS: Final = tuple(PlaceCatastrophe(sq) for sq in range(SQUARES))
TABLE_IDS: Final = frozenset(
    map(
        id,
        (
            *(a for row in TILE_ACTIONS for a in row),
            *(a for row in LEADER_ACTIONS for a in row),
            *CATASTROPHE_ACTIONS,
            PASS,
            DECLINE,
        ),
    )
)
"""The identities of the tables' actions. They live as long as this module, so no other
object shares one: `id(a) in TABLE_IDS` lets the checks skip their fields."""


def _small(n: object, limit: int) -> bool:
    return type(n) is int and 0 <= n < limit


def check_action(a: object) -> None:
    """Refuse an action object built by hand with a field of the wrong type or out of
    range (`PlaceTile(True, 999)`), before a rule reads it or an error message formats
    it. The parser never builds one; exact types, because True would pass as 1. Every
    `apply` runs this, so the tables' own actions pass at once and the common actions
    come first and are checked inline."""
    if id(a) in TABLE_IDS:
        return
    try:
        _check_fields(a)
    except AttributeError:  # an object whose fields were never set (`object.__new__`)
        raise InvalidActionError(
            f"{type(a).__name__} with fields unset is not a board-game action"
        ) from None


def _check_fields(a: object) -> None:
    if isinstance(a, (PlaceTile, PlaceLeader)):
        c, s = a.colour, a.square
        if type(c) is int and type(s) is int and 0 <= c < 4 and 0 <= s < SQUARES:
            return
    elif isinstance(a, Commit):
        n = a.count
        if type(n) is int and 0 <= n < 1000:
            return
    elif isinstance(a, Swap):
        counts = a.counts
        if type(counts) is tuple and len(counts) == 4:
            r, b, g, k = counts
            ints = type(r) is int and type(b) is int and type(g) is int and type(k) is int
            if ints and 0 <= r < 1000 and 0 <= b < 1000 and 0 <= g < 1000 and 0 <= k < 1000:
                return
    elif isinstance(a, (PlaceCatastrophe, TakeTreasure)):
        if _small(a.square, SQUARES):
            return
    elif isinstance(a, (WithdrawLeader, ChooseWar)):
        if _small(a.colour, 4):
            return
    elif isinstance(a, (Pass, Decline)):
        return
    elif isinstance(a, BuildMonument):
        if _small(a.monument, len(MONUMENTS)) and _small(a.square, SQUARES):
            return
    else:
        raise InvalidActionError(f"{a!r} is not a board-game action")
    raise InvalidActionError(f"{a!r} is not a board-game action: a field is out of range")


_TILE_WORDS = re.compile(
    r"^(?:tile\s+)?([a-z]+)\s*(?:tile\s*)?(?:on\s+|@\s*)?([a-p]\d{1,2})$", re.ASCII
)
MAX_TEXT = 100
"""The longest action text read: the longest real one ('monument red-black F10',
'red tile on F10') is far shorter, and a bound keeps hostile input cheap to refuse."""


def _colour(word: str, text: str) -> int:
    c = parse_colour(word)
    if c is None:
        raise InvalidActionError(
            f"{text!r}: {word!r} is not a colour (r b g k, or red blue green black)"
        )
    return c


def _monument(code: str, text: str) -> int:
    parts = (
        re.split(r"[-/]", code)
        if ("-" in code or "/" in code)
        else [code[0], code[1:]]
        if len(code) == 2
        else []
    )
    if len(parts) == 2:
        a, b = parse_colour(parts[0]), parse_colour(parts[1])
        if a is not None and b is not None:
            pair = (min(a, b), max(a, b))
            if pair in MONUMENTS:
                return MONUMENTS.index(pair)
    raise InvalidActionError(
        f"{text!r}: {code!r} is not a monument; monuments are " + ", ".join(MONUMENT_CODES)
    )


def parse_action(text: str) -> BoardAction:
    """Read an action written in the notation above (words such as ``red F4``, ``king G5``
    or ``catastrophe H7`` are accepted too). Raises InvalidActionError."""
    if not isinstance(text, str):
        raise InvalidActionError(f"an action is a text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise InvalidActionError(f"an action text is at most {MAX_TEXT} characters")
    if not text.isascii():
        # Notation is ASCII: '²' passes `isdigit()` and then fails `int()`, and case
        # mapping turns some other letters into notation letters ('ı' → 'I').
        raise InvalidActionError(f"{text!r}: notation is written in ASCII letters and digits")
    raw = text
    t = " ".join(text.strip().split())
    if not t:
        raise InvalidActionError("empty action")
    low = t.lower()
    words = low.split(" ")
    head = words[0]
    if low == "pass":
        return PASS
    if low in ("decline", "none", "no"):
        return DECLINE
    if head == "commit":
        if len(words) != 2 or not is_ascii_number(words[1]):
            raise InvalidActionError(
                f"{raw!r}: write 'commit N' with N a number of tiles (at most 3 digits)"
            )
        return Commit(int(words[1]))
    if head == "war":
        if len(words) != 2:
            raise InvalidActionError(f"{raw!r}: write 'war C' with C a colour")
        return ChooseWar(_colour(words[1], raw))
    if head == "treasure":
        if len(words) != 2:
            raise InvalidActionError(f"{raw!r}: write 'treasure SQUARE', e.g. 'treasure B2'")
        return TakeTreasure(parse_square(words[1]))
    if head == "monument":
        if len(words) != 3:
            raise InvalidActionError(f"{raw!r}: write 'monument CC SQUARE', e.g. 'monument rb F3'")
        return BuildMonument(_monument(words[1], raw), parse_square(words[2]))
    if head == "swap":
        letters = "".join(words[1:])
        if not letters:
            raise InvalidActionError(f"{raw!r}: name the tiles to discard, e.g. 'swap rrb'")
        counts = [0, 0, 0, 0]
        for ch in letters:
            c = parse_colour(ch)
            if c is None:
                raise InvalidActionError(f"{raw!r}: {ch!r} is not a colour letter (r b g k)")
            counts[c] += 1
        return Swap((counts[0], counts[1], counts[2], counts[3]))
    if head in ("x", "catastrophe") and len(words) == 2:
        return PlaceCatastrophe(parse_square(words[1]))
    if (
        len(words) == 1
        and len(t) >= 3
        and t[0] in "xX"
        and t[1].upper() in "ABCDEFGHIJKLMNOP"
        and is_ascii_number(t[2:], 2)
    ):
        return PlaceCatastrophe(parse_square(t[1:]))
    # Leaders: an uppercase letter (P F T K) or a leader's name.
    if len(words) == 1 and len(t) >= 2 and t[0] in LEADER_LETTERS:
        colour = LEADER_LETTERS.index(t[0])
        target = t[1:]
        if target == "-":
            return WithdrawLeader(colour)
        return PlaceLeader(colour, parse_square(target))
    leader = parse_leader(head)
    if leader is not None and len(head) > 1:
        rest = words[1:]
        if rest and rest[0] in ("to", "on"):
            rest = rest[1:]
        if rest in (["-"], ["withdraw"], ["out"], ["off"]):
            return WithdrawLeader(leader)
        if len(rest) == 1:
            return PlaceLeader(leader, parse_square(rest[0]))
        raise InvalidActionError(f"{raw!r}: write e.g. 'king G5' or 'king -' to withdraw")
    if head == "withdraw" and len(words) == 2:
        leader = parse_leader(words[1])
        if leader is None:
            raise InvalidActionError(
                f"{raw!r}: {words[1]!r} is not a leader (priest farmer trader king)"
            )
        return WithdrawLeader(leader)
    # Tiles: a lowercase colour letter and a square ("rF4"), or words ("red F4").
    if len(words) == 1 and len(t) >= 3 and t[0] in "rbgk" and t[1].isalpha() and t[2:].isdigit():
        return PlaceTile(COLOUR_LETTERS.index(t[0]), parse_square(t[1:]))
    if len(words) == 1 and len(t) >= 3 and t[0] in "rbgk" and t[1].upper() in "ABCDEFGHIJKLMNOP":
        return PlaceTile(COLOUR_LETTERS.index(t[0]), parse_square(t[1:]))
    m = _TILE_WORDS.match(low)
    if m and parse_colour(m.group(1)) is not None:
        return PlaceTile(_colour(m.group(1), raw), parse_square(m.group(2)))
    raise InvalidActionError(
        f"{raw!r} is not an action; examples: rF4, KG5, T-, xH7, swap rb, pass, commit 2, "
        "war g, monument rb F3, decline, treasure B2"
    )


__all__ = [
    "BLACK",
    "BLUE",
    "CATASTROPHE_ACTIONS",
    "DECLINE",
    "GREEN",
    "LEADER_ACTIONS",
    "MONUMENTS",
    "MONUMENT_CODES",
    "PASS",
    "RED",
    "TABLE_IDS",
    "TILE_ACTIONS",
    "BoardAction",
    "BuildMonument",
    "ChooseWar",
    "Commit",
    "Decline",
    "PlaceCatastrophe",
    "PlaceLeader",
    "PlaceTile",
    "Swap",
    "TakeTreasure",
    "WithdrawLeader",
    "check_action",
    "monument_name",
    "parse_action",
]

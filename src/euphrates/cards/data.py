"""The data of one card game: the layout, hands, deck, piles and the pending decision.

Random play and search copy and step this object millions of times, so it is a plain
slotted class of ints and small lists (no dataclasses, no deepcopy) and hands are four
colour counts. The rules (turn.py, handlers.py, context.py, the position format) work
on this class; `state.CardsState` puts the protocol on top and imports the rules, so
no rule module needs the facade.
"""

from __future__ import annotations

from typing import Self

import euphrates.cards.treasures as treasures
from euphrates.cards.actions import CardsAction
from euphrates.cards.kinds import ACTION
from euphrates.cards.layout import COLUMNS, EMPTY, GAPS, SHIP_BASE
from euphrates.core.colours import LEADER_NAMES
from euphrates.core.protocol import Outcome

_SLOTS = (
    "players",
    "open_piles",
    "rng",
    "_version",
    "first",
    "active",
    "actions_left",
    "cols",
    "orig",
    "gaps",
    "down",
    "lpos",
    "hands",
    "cats",
    "ships",
    "deck",
    "removed",
    "discard",
    "out",
    "piles",
    "kind",
    "seat",
    "colour",
    "reason",
    "is_war",
    "att_lid",
    "def_lid",
    "att_base",
    "def_base",
    "att_commit",
    "def_commit",
    "att_lo",
    "att_hi",
    "def_lo",
    "def_hi",
    "spoils_lo",
    "spoils_hi",
    "winner",
    "wars",
    "ship_col",
    "ship_opts",
    "ship_queue",
    "exch_gap",
    "result",
)


class CardsData:
    """The data of one game of Contest of Kings and what every rule does with it.

    `state.CardsState` adds the protocol (decisions, legal actions, views, apply) on
    top; the rule modules work on this class, so none of them needs the protocol."""

    __slots__ = (*_SLOTS, "_cache_v", "_cache", "_legal_v", "_legal")
    _cache_v: int
    _cache: tuple[int, int, int, int, int]
    _legal_v: int
    _legal: frozenset[CardsAction]

    players: int
    open_piles: bool
    rng: int  # the Rng state; the deal used it, the rules need no more chance after that
    first: int
    active: int
    actions_left: int
    cols: list[list[int]]
    orig: list[bool]
    gaps: list[int]
    down: int
    lpos: list[int]
    hands: list[list[int]]
    cats: list[bool]
    ships: list[int]
    deck: list[int]
    removed: list[int]
    discard: list[int]
    out: list[int]
    piles: list[list[int]]
    kind: int
    seat: int
    colour: int
    reason: int
    is_war: bool
    att_lid: int
    def_lid: int
    att_base: int
    def_base: int
    att_commit: int
    def_commit: int
    att_lo: int
    att_hi: int
    def_lo: int
    def_hi: int
    spoils_lo: int
    spoils_hi: int
    winner: int
    wars: list[int]
    ship_col: int
    ship_opts: list[int]
    ship_queue: list[int]
    exch_gap: int
    result: Outcome | None

    def __init__(self, players: int, open_piles: bool = False) -> None:
        """An empty layout with nothing dealt; ``game.new_game`` and positions fill it."""
        self.players = players
        self.open_piles = open_piles
        self.rng = 0
        self._version = 0
        self.first = 0
        self.active = 0
        self.actions_left = 2
        self.cols = [[] for _ in range(COLUMNS)]
        self.orig = [True] * COLUMNS
        self.gaps = [EMPTY] * GAPS
        self.down = EMPTY
        self.lpos = [EMPTY] * (4 * players)
        self.hands = [[0, 0, 0, 0] for _ in range(players)]
        self.cats = [True] * players
        self.ships = [SHIP_BASE, SHIP_BASE + 2, SHIP_BASE + 3]
        self.deck = []
        self.removed = []
        self.discard = [0, 0, 0, 0]
        self.out = [0, 0, 0, 0]
        self.piles = [[] for _ in range(players)]
        self.kind = ACTION
        self.seat = 0
        self.colour = EMPTY
        self.reason = 0
        clear_conflict(self)
        self.wars = []
        self.ship_col = EMPTY
        self.ship_opts = []
        self.ship_queue = []
        self.exch_gap = EMPTY
        self.result = None
        self._cache_v = -1
        self._legal_v = -1

    # The protocol's `version` is a read-only property; the counter lives in a slot.
    @property
    def version(self) -> int:
        return self._version

    # --- copies and comparison -----------------------------------------------------
    def copy(self) -> Self:
        cls = type(self)
        s = cls.__new__(cls)
        s.players = self.players
        s.open_piles = self.open_piles
        s.rng = self.rng
        s._version = self._version
        s.first = self.first
        s.active = self.active
        s.actions_left = self.actions_left
        s.cols = [c[:] for c in self.cols]
        s.orig = self.orig[:]
        s.gaps = self.gaps[:]
        s.down = self.down
        s.lpos = self.lpos[:]
        s.hands = [h[:] for h in self.hands]
        s.cats = self.cats[:]
        s.ships = self.ships[:]
        s.deck = self.deck[:]
        s.removed = self.removed[:]
        s.discard = self.discard[:]
        s.out = self.out[:]
        s.piles = [p[:] for p in self.piles]
        s.kind = self.kind
        s.seat = self.seat
        s.colour = self.colour
        s.reason = self.reason
        s.is_war = self.is_war
        s.att_lid = self.att_lid
        s.def_lid = self.def_lid
        s.att_base = self.att_base
        s.def_base = self.def_base
        s.att_commit = self.att_commit
        s.def_commit = self.def_commit
        s.att_lo = self.att_lo
        s.att_hi = self.att_hi
        s.def_lo = self.def_lo
        s.def_hi = self.def_hi
        s.spoils_lo = self.spoils_lo
        s.spoils_hi = self.spoils_hi
        s.winner = self.winner
        s.wars = self.wars[:]
        s.ship_col = self.ship_col
        s.ship_opts = self.ship_opts[:]
        s.ship_queue = self.ship_queue[:]
        s.exch_gap = self.exch_gap
        s.result = self.result
        s._cache_v = -1
        s._legal_v = -1
        return s

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CardsData):
            return NotImplemented
        return all(getattr(self, k) == getattr(other, k) for k in _SLOTS)

    __hash__ = None  # type: ignore[assignment]

    def is_over(self) -> bool:
        return self.kind < 0

    def outcome(self) -> Outcome | None:
        return self.result

    @property
    def ships_built(self) -> tuple[int, ...]:
        return tuple(
            code for code in (SHIP_BASE, SHIP_BASE + 2, SHIP_BASE + 3) if code not in self.ships
        )

    def exchange_columns(self) -> list[int]:
        """The columns whose original treasure card the pending exchange may take (C-14)."""
        lo, hi = treasures.exchange_kingdom(self.gaps, self.exch_gap)
        return treasures.originals(self.orig, lo, hi)

    def describe_leader(self, lid: int) -> str:
        return f"seat {lid >> 2}'s {LEADER_NAMES[lid & 3]}"


def clear_conflict(s: CardsData) -> None:
    """No conflict pending: every field of one back to its empty value."""
    s.att_lid = s.def_lid = EMPTY
    s.att_base = s.def_base = 0
    s.att_commit = s.def_commit = EMPTY
    s.att_lo = s.att_hi = s.def_lo = s.def_hi = EMPTY
    s.spoils_lo = s.spoils_hi = EMPTY
    s.winner = EMPTY
    s.colour = EMPTY
    s.is_war = False

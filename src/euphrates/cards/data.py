"""The data of one card game: the layout, hands, deck, piles and the pending decision.

Random play and search copy and step this object millions of times, so it is a plain
slotted class of ints and small lists (no dataclasses, no deepcopy) and hands are four
colour counts. The rules (turn.py, handlers.py, context.py, the position format) work
on this class; `state.CardsState` puts the protocol on top and imports the rules, so
no rule module needs the facade.
"""

from __future__ import annotations

from typing import Final, Self

from mypy_extensions import mypyc_attr

import euphrates.cards.treasures as treasures
from euphrates.cards.actions import CardsAction
from euphrates.cards.kinds import ACTION
from euphrates.cards.layout import BRIDGE_MIN, COLUMNS, EMPTY, GAP_BASE, GAPS, MAX_CARDS, SHIP_BASE
from euphrates.core.colours import LEADER_NAMES
from euphrates.core.protocol import Outcome
from euphrates.core.rng import Rng

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
    "declined",
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


_HEAD_SPOTS: Final = frozenset(c * 16 for c in range(COLUMNS))


@mypyc_attr(allow_interpreted_subclasses=True)
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
    # Per player and colour: at least this many cards of the player's hand were in it
    # when the player last declined a point of that colour (G-1). Public: every
    # decline and every card leaving a hand is seen by all, and the count drops by one
    # for any card leaving, so a face-down bridge's colour (C-11) does not show in it.
    declined: list[list[int]]
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
        self.declined = [[0, 0, 0, 0] for _ in range(players)]
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
        s.declined = [d[:] for d in self.declined]
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

    def redeal(self, seat: int | None, rng: Rng) -> None:
        """Re-deal what `seat` cannot see (C-19, G-3) at random, keeping every count:
        the other hands, the deck (and its order), the 30 cards removed in a two-player
        game, and the colour of a face-down bridge `seat` did not lay. `view(seat)`
        does not change. A player who declined a point of a colour is dealt none of it
        among the cards held since (`deal_hand`). Here, on the compiled data class,
        because search redeals at every iteration."""
        pool: list[int] = list(self.deck) + list(self.removed)
        others = [p for p in range(self.players) if p != seat]
        for p in others:
            hand = self.hands[p]
            for c in range(4):
                pool.extend([c] * hand[c])
        hidden_bridge = self.down >= 0 and seat != self.active
        if hidden_bridge:
            pool.append(self.gaps[self.down])
        rng.shuffle(pool)
        i = 0
        if hidden_bridge:
            self.gaps[self.down] = pool[0]
            i = 1
        for p in others:
            hand = self.hands[p]
            n = hand[0] + hand[1] + hand[2] + hand[3]
            self.hands[p] = deal_hand(pool, i, n, self.declined[p])
            i += n
        n_removed = len(self.removed)
        self.removed = pool[i : i + n_removed]
        self.deck = pool[i + n_removed :]
        self._cache_v = -1
        self._legal_v = -1

    def unseen(self) -> list[int]:
        """The cards no seat holds (the deck, then the removed cards): what
        `deal_unseen` deals again."""
        return list(self.deck) + list(self.removed)

    def deal_unseen(self, pool: list[int]) -> None:
        """The cards no seat holds dealt from `pool` in its order: as many removed cards
        as before (a two-player game), the rest the deck. For a reader of the table
        (bots.inference) that has changed a hand and must give the cards it took or
        gave back to the unseen ones, keeping every count (C-1)."""
        n_removed = len(self.removed)
        self.removed = pool[:n_removed]
        self.deck = pool[n_removed:]
        self._cache_v = -1
        self._legal_v = -1

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

    # --- random play's hot path (compiled with the rules: see setup.py) -------------
    def _action_counts(self) -> tuple[int, int, int, int, int]:
        """(leader actions, free spots, card actions, card targets, catastrophes); kept for
        the current version, as random play asks for the count and then for an action."""
        if self._cache_v == self._version:
            return self._cache
        cols = self.cols
        gaps = self.gaps
        lpos = self.lpos
        lens = list(map(len, cols))
        cards = sum(lens) - (3 - len(self.ships))
        open_cols = COLUMNS - lens.count(MAX_CARDS)
        bridges = GAPS - gaps.count(EMPTY)
        open_gaps = 0
        for g in range(GAPS):
            if gaps[g] < 0 and lens[g] >= BRIDGE_MIN and lens[g + 1] >= BRIDGE_MIN:
                open_gaps += 1
        on_board = len(lpos) - lpos.count(EMPTY)
        on_cards = on_board - len(_HEAD_SPOTS.intersection(lpos))
        free = COLUMNS + cards + bridges - on_board
        hand = self.hands[self.active]
        colours = (hand[0] > 0) + (hand[1] > 0) + (hand[2] > 0) + (hand[3] > 0)
        targets = open_cols + open_gaps
        cats = cards + bridges - on_cards if self.cats[self.active] else 0
        out = (4 * free, free, colours * targets, targets, cats)
        self._cache_v = self._version
        self._cache = out
        return out

    def _nth_free(self, j: int) -> int:
        """``self._free_spots()[j]`` without building the list (random play's hot path)."""
        lpos = self.lpos
        occ = [0] * COLUMNS
        for p in lpos:
            if 0 <= p < GAP_BASE:
                occ[p >> 4] += 1
        cols = self.cols
        built = self.ships_built if len(self.ships) < 3 else ()
        for c in range(COLUMNS):
            col = cols[c]
            n = len(col) + 1 - occ[c]
            if built:
                for code in built:
                    if code in col:
                        n -= 1
            if j >= n:
                j -= n
                continue
            base = c * 16
            if base not in lpos:
                if j == 0:
                    return base
                j -= 1
            for r in range(len(col)):
                if col[r] < SHIP_BASE and base + r + 1 not in lpos:
                    if j == 0:
                        return base + r + 1
                    j -= 1
        for g in range(GAPS):
            if self.gaps[g] >= 0 and GAP_BASE + g not in lpos:
                if j == 0:
                    return GAP_BASE + g
                j -= 1
        raise AssertionError("fewer free spots than counted")


def deal_hand(pool: list[int], start: int, size: int, declined: list[int]) -> list[int]:
    """Deal `size` cards from the shuffled `pool` at `start` as a hand's colour counts,
    moving the cards dealt to `pool[start : start + size]`.

    Search imagines the hands it cannot see. A player who declined a point of a colour
    (G-1) almost always held none (the greedy bot pays whenever it can, and so does
    nearly every player: a point is a point), so the `declined[c]` cards held since
    are dealt from the other colours: slot j takes the first card of the pool whose
    colour no decline still covering j rules out. The pool is shuffled, so that is a
    uniform draw among the cards allowed; with nothing declined it is the pool's order,
    as before. Where the pool holds no allowed card (a player who declined while
    holding the colour), the slot takes the next card."""
    counts = [0, 0, 0, 0]
    end = len(pool)
    for j in range(size):
        k = start + j
        if declined[0] > j or declined[1] > j or declined[2] > j or declined[3] > j:
            m = k
            while m < end and declined[pool[m]] > j:
                m += 1
            if m < end and m != k:
                pool[k], pool[m] = pool[m], pool[k]
        counts[pool[k]] += 1
    return counts


def leave_hand(s: CardsData, seat: int, colour: int, n: int) -> None:
    """`n` cards of `colour` leave `seat`'s hand (played, committed, paid, laid as a
    bridge, exchanged): fewer of the cards held at a decline can remain (`declined`),
    one fewer per card whatever its colour, so the count tells nothing hidden."""
    s.hands[seat][colour] -= n
    d = s.declined[seat]
    for c in range(4):
        d[c] = d[c] - n if d[c] > n else 0


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

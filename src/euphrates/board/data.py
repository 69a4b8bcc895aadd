"""The data of one Tigris & Euphrates game and the primitives the rules are made of.

All of a game is here in plain ints and small lists: bitboards for the board, colour
counts for hands (tiles of one colour are interchangeable), the bag as a list drawn
from its end. `copy()` copies those by hand, which is what makes search affordable.
The rules live in the modules named after them (revolt, war, monuments, treasures,
turn, flow, legal); they work on this class and `state.BoardState` puts the protocol
on top, so a rule module never needs the facade and the facade imports the rules.
"""

from __future__ import annotations

from typing import Self

from mypy_extensions import mypyc_attr

from euphrates.board.geometry import NEIGHBOURS, SQUARE_BITS, expand, flood, square_name
from euphrates.board.kingdoms import kingdoms_of, parts_without
from euphrates.board.maps import BoardMap, board_map
from euphrates.board.phases import (
    ACTION,
    CATASTROPHES_EACH,
    HAND_SIZE,
    MONUMENT,
    NO_SQUARE,
    OVER,
    REVOLT,
    TILE_COUNTS,
    TREASURE,
    WAR,
    WAR_ORDER,
)
from euphrates.core.colours import COLOUR_NAMES, LEADER_NAMES, RED
from euphrates.core.errors import ArgumentError
from euphrates.core.events import event
from euphrates.core.protocol import Event, Outcome, check_players, check_seed
from euphrates.core.rng import Rng
from euphrates.core.scoring import final_outcome


@mypyc_attr(allow_interpreted_subclasses=True)
class BoardData:
    """The data of a Tigris & Euphrates game and the steps every rule takes on it.

    `state.BoardState` adds the protocol (decisions, legal actions, views, apply) on
    top; the rule modules work on this class, so none of them needs the protocol.

    The rules call these methods through the class (`BoardData.kingdoms(st)`, and
    `occupied_squares(st)` for the property): compiled, a call on the instance of an
    interpreted subclass goes through Python's attribute look-up and argument parsing
    (the subclass might override the method), a call through the class is a direct C
    call. Interpreted, both cost the same."""

    __slots__ = (
        "_kingdoms",
        "_masks",
        "_neighbourhoods",
        "_outcome",
        "_table",
        "_version",
        "actions_done",
        "active",
        "advanced",
        "att_base",
        "att_commit",
        "att_sq",
        "attacker",
        "bag",
        "catas",
        "catas_left",
        "conflict_colour",
        "def_base",
        "def_sq",
        "defender",
        "discarded",
        "first",
        "flipped",
        "hands",
        "held",
        "leader_bits",
        "leader_sq",
        "map",
        "monument_options",
        "monuments",
        "open_scores",
        "phase",
        "placed",
        "players",
        "points",
        "removed",
        "score_log",
        "seed",
        "tiles",
        "treasure_choices",
        "treasure_owner",
        "treasures",
        "unification",
        "wars",
    )

    players: int
    advanced: bool
    open_scores: bool
    map: BoardMap
    seed: int
    tiles: list[int]
    flipped: int
    catas: int
    treasures: int
    leader_sq: list[list[int]]
    leader_bits: int
    monuments: list[tuple[int, int, int]]
    unification: int
    hands: list[list[int]]
    catas_left: list[int]
    points: list[list[int]]
    held: list[int]
    bag: list[int]
    removed: list[int]
    discarded: list[list[int]]
    score_log: list[tuple[int, int, int, str]]
    active: int
    first: int
    actions_done: int
    phase: int
    _version: int
    placed: int
    conflict_colour: int
    attacker: int
    defender: int
    att_sq: int
    def_sq: int
    att_base: int
    def_base: int
    att_commit: int
    wars: list[int]
    monument_options: list[tuple[int, int]]
    treasure_owner: int
    treasure_choices: int
    _kingdoms: list[int] | None
    _neighbourhoods: list[int] | None
    _masks: tuple[int, int, list[int], int] | None
    _table: tuple[int, list[tuple[int, int, int, int]]] | None
    _outcome: Outcome | None

    # ------------------------------------------------------------------ creation
    @classmethod
    def blank(cls, players: int, advanced: bool = False, open_scores: bool = False) -> Self:
        """An empty board with no tiles placed: the base for `new_game` and positions."""
        st = cls.__new__(cls)
        st.players = players
        st.advanced = advanced
        st.open_scores = open_scores
        st.map = board_map(advanced)
        st.seed = 0
        st.tiles = [0, 0, 0, 0]
        st.flipped = 0
        st.catas = 0
        st.treasures = 0
        st.leader_sq = [[NO_SQUARE] * 4 for _ in range(players)]
        st.leader_bits = 0
        st.monuments = []
        st.unification = NO_SQUARE
        st.hands = [[0, 0, 0, 0] for _ in range(players)]
        st.catas_left = [CATASTROPHES_EACH] * players
        st.points = [[0, 0, 0, 0] for _ in range(players)]
        st.held = [0] * players
        st.bag = []
        st.removed = [0, 0, 0, 0]
        st.discarded = [[0, 0, 0, 0] for _ in range(players)]
        st.score_log = []
        st.active = 0
        st.first = 0
        st.actions_done = 0
        st.phase = ACTION
        st._version = 0
        st.placed = NO_SQUARE
        st.conflict_colour = -1
        st.attacker = st.defender = -1
        st.att_sq = st.def_sq = NO_SQUARE
        st.att_base = st.def_base = 0
        st.att_commit = -1
        st.wars = []
        st.monument_options = []
        st.treasure_owner = -1
        st.treasure_choices = 0
        st._kingdoms = None
        st._neighbourhoods = None
        st._masks = None
        st._table = None
        st._outcome = None
        return st

    @classmethod
    def new_game(
        cls, players: int, seed: int, advanced: bool = False, open_scores: bool = False
    ) -> Self:
        """Set-up (B-1 – B-3): temples and treasures on the map's temple squares, the
        rest in the bag (shuffled with the seed), a random first player, six tiles each
        drawn in seat order from the first player."""
        players = check_players(players)
        seed = check_seed(seed)
        if type(advanced) is not bool or type(open_scores) is not bool:
            raise ArgumentError("options 'advanced' and 'open_scores' must be true or false")
        st = cls.blank(players, advanced, open_scores)
        st.seed = seed
        rng = Rng(seed)
        temples = st.map.temples
        st.tiles[RED] = temples
        st.treasures = temples
        on_board = temples.bit_count()
        bag: list[int] = []
        for colour, count in enumerate(TILE_COUNTS):
            bag.extend([colour] * (count - (on_board if colour == RED else 0)))
        rng.shuffle(bag)
        st.bag = bag
        st.first = rng.below(players)
        st.active = st.first
        for i in range(players):
            seat = (st.first + i) % players
            st.draw(seat, HAND_SIZE, [])
        return st

    def copy(self) -> Self:
        cls = type(self)
        st = cls.__new__(cls)
        st.players = self.players
        st.advanced = self.advanced
        st.open_scores = self.open_scores
        st.map = self.map
        st.seed = self.seed
        st.tiles = self.tiles[:]
        st.flipped = self.flipped
        st.catas = self.catas
        st.treasures = self.treasures
        st.leader_sq = [row[:] for row in self.leader_sq]
        st.leader_bits = self.leader_bits
        st.monuments = self.monuments[:]
        st.unification = self.unification
        st.hands = [h[:] for h in self.hands]
        st.catas_left = self.catas_left[:]
        st.points = [p[:] for p in self.points]
        st.held = self.held[:]
        st.bag = self.bag[:]
        st.removed = self.removed[:]
        st.discarded = [d[:] for d in self.discarded]
        st.score_log = self.score_log[:]
        st.active = self.active
        st.first = self.first
        st.actions_done = self.actions_done
        st.phase = self.phase
        st._version = self._version
        st.placed = self.placed
        st.conflict_colour = self.conflict_colour
        st.attacker = self.attacker
        st.defender = self.defender
        st.att_sq = self.att_sq
        st.def_sq = self.def_sq
        st.att_base = self.att_base
        st.def_base = self.def_base
        st.att_commit = self.att_commit
        st.wars = self.wars[:]
        st.monument_options = self.monument_options[:]
        st.treasure_owner = self.treasure_owner
        st.treasure_choices = self.treasure_choices
        st._kingdoms = self._kingdoms
        st._neighbourhoods = self._neighbourhoods
        st._masks = self._masks
        st._table = self._table
        st._outcome = self._outcome
        return st

    def unseen(self) -> list[int]:
        """The tiles no seat holds, the bag (swap discards stay where they lie): what
        `deal_unseen` deals again."""
        return list(self.bag)

    def deal_unseen(self, pool: list[int]) -> None:
        """The bag made `pool` in its order. For a reader of the table (bots.inference)
        that has changed a hand and gives the tiles it took or gave back to the bag,
        keeping every count (G-3); what the move generator kept of the hands is
        dropped."""
        self.bag = pool
        self._masks = None
        self._table = None

    def redeal(self, seat: int | None, rng: Rng) -> None:
        """Re-deal the tiles `seat` cannot see (other hands, other players' swap
        discards, the bag) at random, keeping every count (G-3): the view of `seat`
        stays the same. The bag's order is hidden too, so it is shuffled as well. Here, on the compiled data class, because search redeals at
        every iteration."""
        pool: list[int] = list(self.bag)
        holders: list[list[int]] = []
        for s in range(self.players):
            if s != seat:
                for counts in (self.hands[s], self.discarded[s]):
                    for c in range(4):
                        pool.extend([c] * counts[c])
                    holders.append(counts)
        rng.shuffle(pool)
        i = 0
        for counts in holders:
            n = counts[0] + counts[1] + counts[2] + counts[3]
            dealt = pool[i : i + n]
            i += n
            counts[0] = dealt.count(0)
            counts[1] = dealt.count(1)
            counts[2] = dealt.count(2)
            counts[3] = dealt.count(3)
        self.bag = pool[i:]
        self._masks = None
        self._table = None

    # ------------------------------------------------------------------ board queries
    @property
    def occupied(self) -> int:
        """Squares that connect (B-4): face-up tiles, flipped tiles and leaders."""
        return occupied_squares(self)

    def kingdoms(self) -> list[int]:
        """The kingdoms as bitboards (cached until the board changes)."""
        ks = self._kingdoms
        if ks is None:
            ks = self._kingdoms = kingdoms_of(occupied_squares(self), self.leader_bits)
        return ks

    def kingdom_neighbourhoods(self) -> list[int]:
        """For each kingdom, the squares orthogonally next to it (cached alike)."""
        nbs = self._neighbourhoods
        if nbs is None:
            nbs = self._neighbourhoods = [expand(k) for k in BoardData.kingdoms(self)]
        return nbs

    def grow(self, b: int, leader: bool) -> None:
        """Keep the kingdoms current after a tile or leader was added on `b` touching at
        most one kingdom: only that kingdom grows (by `b` and the leaderless regions `b`
        joined), or a leader founds a new one. Far cheaper than flooding every kingdom."""
        self._masks = None
        self._table = None
        ks = self._kingdoms
        nbs = self._neighbourhoods
        if ks is None or nbs is None:
            return
        i = -1
        for j, nb in enumerate(nbs):
            if nb & b:
                if i >= 0:
                    BoardData.board_changed(self)
                    return
                i = j
        if i < 0:
            if leader:
                k = flood(b, occupied_squares(self))
                self._kingdoms = [*ks, k]
                self._neighbourhoods = [*nbs, expand(k)]
            return
        k = ks[i]
        around = NEIGHBOURS[b.bit_length() - 1]
        occupied = occupied_squares(self)
        outside = occupied ^ (occupied & k)
        ks = ks[:]
        nbs = nbs[:]
        if around & outside:
            # `b` also joins leaderless regions: they become part of the kingdom.
            added = flood(b, outside)
            ks[i] = k | added
            nbs[i] |= expand(added)
        else:
            ks[i] = k | b
            nbs[i] |= around
        self._kingdoms = ks
        self._neighbourhoods = nbs

    def lift(self, b: int) -> None:
        """Take the leader on `b` off the board, keeping the kingdoms current: only its
        own kingdom can fall apart (or stop being a kingdom)."""
        ks = self._kingdoms
        nbs = self._neighbourhoods
        leaders = self.leader_bits
        self.leader_bits = leaders ^ (leaders & b)
        self._masks = None
        self._table = None
        if ks is None or nbs is None:
            self._kingdoms = self._neighbourhoods = None
            return
        new_ks: list[int] = []
        new_nbs: list[int] = []
        for i, k in enumerate(ks):
            if k & b:
                for part in parts_without(k, b, leaders):
                    new_ks.append(part)
                    new_nbs.append(expand(part))
            else:
                new_ks.append(k)
                new_nbs.append(nbs[i])
        self._kingdoms = new_ks
        self._neighbourhoods = new_nbs

    def board_changed(self) -> None:
        self._kingdoms = None
        self._neighbourhoods = None
        self._masks = None
        self._table = None

    def tile_colour_at(self, sq: int) -> int:
        """The colour of the face-up tile on `sq`, or -1."""
        b = SQUARE_BITS[sq]
        for c in range(4):
            if self.tiles[c] & b:
                return c
        return -1

    def leader_at(self, sq: int) -> tuple[int, int] | None:
        """(seat, colour) of the leader on `sq`, if any."""
        if not self.leader_bits & SQUARE_BITS[sq]:
            return None
        for seat, row in enumerate(self.leader_sq):
            for colour in range(4):
                if row[colour] == sq:
                    return seat, colour
        return None

    def leaders_in(self, region: int, colour: int) -> list[int]:
        """Seats with a leader of `colour` inside `region`."""
        return [
            s
            for s in range(self.players)
            if (sq := self.leader_sq[s][colour]) >= 0 and region & SQUARE_BITS[sq]
        ]

    # ------------------------------------------------------------------ whose decision
    @property
    def version(self) -> int:
        return self._version

    def is_over(self) -> bool:
        return self.phase == OVER

    def decision_seat(self) -> int:
        p = self.phase
        if p in (ACTION, WAR_ORDER, MONUMENT):
            return self.active
        if p in (REVOLT, WAR):
            return self.attacker if self.att_commit < 0 else self.defender
        if p == TREASURE:
            return self.treasure_owner
        return -1

    @property
    def support_colour(self) -> int:
        """The colour committed in the pending conflict: temples in a revolt whatever
        the leaders (B-20), the war's colour in a war (B-24)."""
        return RED if self.phase == REVOLT else self.conflict_colour

    def outcome(self) -> Outcome | None:
        if self.phase != OVER:
            return None
        if self._outcome is None:
            self._outcome = final_outcome(self.points, self.held)
        return self._outcome

    # ------------------------------------------------------------------ primitives
    def score(self, seat: int, colour: int, amount: int, reason: str, events: list[Event]) -> None:
        """Points are taken openly (B-14, G-3): every point is a public event."""
        if amount <= 0:
            return
        self.points[seat][colour] += amount
        self.score_log.append((seat, colour, amount, reason))
        events.append(
            event(
                "scored",
                {"seat": seat, "colour": COLOUR_NAMES[colour], "points": amount, "reason": reason},
            )
        )

    def draw(self, seat: int, n: int, events: list[Event]) -> int:
        """Draw up to `n` tiles from the bag into `seat`'s hand; returns how many came.
        What was drawn is private to the seat; how many is public (G-3)."""
        bag = self.bag
        k = min(n, len(bag))
        if k <= 0:
            return 0
        drawn = bag[-k:]
        del bag[-k:]
        hand = self.hands[seat]
        for c in drawn:
            hand[c] += 1
        events.append(event("drew", {"seat": seat, "count": k}))
        events.append(
            event(
                "drew_tiles",
                {"seat": seat, "tiles": [COLOUR_NAMES[c] for c in reversed(drawn)]},
                seat,
            )
        )
        return k

    def return_leader(self, seat: int, colour: int, reason: str, events: list[Event]) -> None:
        sq = self.leader_sq[seat][colour]
        self.leader_sq[seat][colour] = NO_SQUARE
        BoardData.lift(self, SQUARE_BITS[sq])
        events.append(
            event(
                "leader_returned",
                {
                    "seat": seat,
                    "leader": LEADER_NAMES[colour],
                    "square": square_name(sq),
                    "reason": reason,
                },
            )
        )

    def return_leaders_without_temple(self, near: int, events: list[Event]) -> None:
        """B-10: a leader whose last adjacent temple disappeared goes home at once."""
        temples = self.tiles[RED]
        for seat in range(self.players):
            row = self.leader_sq[seat]
            for colour in range(4):
                sq = row[colour]
                if sq >= 0 and near & SQUARE_BITS[sq] and not NEIGHBOURS[sq] & temples:
                    BoardData.return_leader(self, seat, colour, "no temple", events)

    def finish(self, events: list[Event]) -> None:
        """The game ends at once (B-31); final scoring follows."""
        self.phase = OVER
        out = BoardData.outcome(self)
        assert out is not None
        events.append(event("game_over", out.to_json()))


def occupied_squares(st: BoardData) -> int:
    """`st.occupied`, as a function compiled callers reach directly."""
    t = st.tiles
    return t[0] | t[1] | t[2] | t[3] | st.flipped | st.leader_bits

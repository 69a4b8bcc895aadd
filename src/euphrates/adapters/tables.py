"""Every action of each game under a number that never changes (docs/adapters.md).

OpenSpiel and PettingZoo speak of actions as integers 0 .. N-1 with N fixed per game,
so that a policy network has one output per action and a mask says which are legal.
The engines list the legal actions of a state; these tables give each possible action
one place, derived from the engines' own action values, in blocks:

board (2 886): tiles 4 x 176 squares, leaders 4 x 176, withdrawals 4, catastrophes 176,
swaps 209 (every multiset of 1 to 6 tiles), pass, commit 0..6, war 4, monuments
6 x 150 (top-left squares A1..O10), decline, treasures 176.

cards (487): leaders 4 x 79 spots, cards 4 x 15 targets (columns, then gaps),
catastrophes 79, pass, commit 0..8, war 4, point 4 and none, exchange 8 and none,
ship 3, decline.

Squares are numbered as the board engine does (row * 16 + column, A1 = 0), spots as the
card engine does. tests/adapters/test_tables.py pins both tables by a digest of their
texts, so a change of numbering cannot pass unnoticed.
"""

from __future__ import annotations

import hashlib
import operator
from collections.abc import Sequence
from functools import cache
from itertools import combinations_with_replacement
from typing import Any, Final

import euphrates.board.legal as board_legal
from euphrates.board.actions import (
    DECLINE as BOARD_DECLINE,
)
from euphrates.board.actions import (
    MONUMENTS,
    BuildMonument,
    ChooseWar,
    Commit,
    PlaceCatastrophe,
    PlaceLeader,
    PlaceTile,
    Swap,
    TakeTreasure,
    WithdrawLeader,
)
from euphrates.board.actions import (
    PASS as BOARD_PASS,
)
from euphrates.board.geometry import HEIGHT, SQUARES, WIDTH, set_bits, square_at
from euphrates.board.phases import ACTION, HAND_SIZE
from euphrates.board.state import BoardState
from euphrates.cards import actions as ca
from euphrates.cards.state import CardsState
from euphrates.core.colours import BLUE
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import GameState

# --- the board game --------------------------------------------------------------------
TILE_BASE: Final = 0
LEADER_BASE: Final = TILE_BASE + 4 * SQUARES
WITHDRAW_BASE: Final = LEADER_BASE + 4 * SQUARES
CATASTROPHE_BASE: Final = WITHDRAW_BASE + 4
SWAP_COUNTS: Final = tuple(
    (combo.count(0), combo.count(1), combo.count(2), combo.count(3))
    for n in range(1, HAND_SIZE + 1)
    for combo in combinations_with_replacement(range(4), n)
)
"""Every discard of 1 to 6 tiles as colour counts: 4 + 10 + 20 + 35 + 56 + 84 = 209."""
SWAP_BASE: Final = CATASTROPHE_BASE + SQUARES
PASS_ID: Final = SWAP_BASE + len(SWAP_COUNTS)
COMMIT_BASE: Final = PASS_ID + 1
MAX_BOARD_COMMIT: Final = HAND_SIZE  # a commitment comes from one hand of at most six
WAR_BASE: Final = COMMIT_BASE + MAX_BOARD_COMMIT + 1
BLOCKS: Final = tuple(square_at(x, y) for y in range(HEIGHT - 1) for x in range(WIDTH - 1))
"""The top-left squares a 2x2 monument block can have (B-28): A1..O10, row by row."""
MONUMENT_BASE: Final = WAR_BASE + 4
DECLINE_ID: Final = MONUMENT_BASE + len(MONUMENTS) * len(BLOCKS)
TREASURE_BASE: Final = DECLINE_ID + 1
BOARD_SIZE: Final = TREASURE_BASE + SQUARES


def _board_actions() -> tuple[Any, ...]:
    out: list[Any] = []
    out += [PlaceTile(c, sq) for c in range(4) for sq in range(SQUARES)]
    out += [PlaceLeader(c, sq) for c in range(4) for sq in range(SQUARES)]
    out += [WithdrawLeader(c) for c in range(4)]
    out += [PlaceCatastrophe(sq) for sq in range(SQUARES)]
    out += [Swap(counts) for counts in SWAP_COUNTS]
    out.append(BOARD_PASS)
    out += [Commit(n) for n in range(MAX_BOARD_COMMIT + 1)]
    out += [ChooseWar(c) for c in range(4)]
    out += [BuildMonument(m, sq) for m in range(len(MONUMENTS)) for sq in BLOCKS]
    out.append(BOARD_DECLINE)
    out += [TakeTreasure(sq) for sq in range(SQUARES)]
    assert len(out) == BOARD_SIZE
    return tuple(out)


# --- the card game ---------------------------------------------------------------------
def _cards_actions() -> tuple[Any, ...]:
    """The engine's own tables (cards/actions.py), in their order."""
    out: list[Any] = []
    out += [ca.LEADER_ACTIONS[c][p] for c in range(4) for p in ca.SPOTS]
    out += [ca.CARD_ACTIONS[c][t] for c in range(4) for t in ca.TARGETS]
    out += [ca.CATASTROPHES[p] for p in ca.SPOTS]
    out.append(ca.PASS)
    out += list(ca.COMMITS)
    out += list(ca.WARS)
    out += [*ca.POINTS, ca.POINT_NONE]
    out += [*ca.EXCHANGES, ca.EXCHANGE_NONE]
    out += list(ca.SHIP_ACTIONS.values())
    out.append(ca.DECLINE)
    return tuple(out)


def integer(number: object) -> int:
    """`number` as an int. Numpy's integers are integers too (frameworks hand them out);
    2.7 or True is not an action number, as 3.0 is no number of players."""
    try:
        if isinstance(number, bool):
            raise TypeError
        return operator.index(number)  # type: ignore[arg-type]
    except TypeError:
        raise ArgumentError(f"an action number is an integer, not {number!r}") from None


class ActionTable:
    """The numbered actions of one game: `actions[i]` is action number i, `texts[i]` its
    notation, and `legal_ids(state)` the numbers of the state's legal actions, ascending
    (OpenSpiel requires that order)."""

    def __init__(self, game: str, actions: tuple[Any, ...]) -> None:
        self.game = game
        self.actions = actions
        self.texts = tuple(str(a) for a in actions)
        self.index: dict[Any, int] = {a: i for i, a in enumerate(actions)}
        # The card engine hands out the very objects of its tables: looking them up by
        # identity skips hashing a dataclass, the slow part of numbering them.
        self._by_identity: dict[int, int] = {id(a): i for i, a in enumerate(actions)}
        if len(self.index) != len(actions) or len(set(self.texts)) != len(actions):
            raise AssertionError(f"the {game} table numbers some action twice")

    def __len__(self) -> int:
        return len(self.actions)

    def action(self, number: object) -> Any:
        """The action numbered `number`; ArgumentError for anything that is not one."""
        i = integer(number)
        if not 0 <= i < len(self.actions):
            raise ArgumentError(
                f"{number!r} is not a {self.game} action number: they run 0..{len(self) - 1}"
            )
        return self.actions[i]

    def number(self, action: Any) -> int:
        """The number of an engine action (KeyError for an object that is none)."""
        return self.index[action]

    def legal_ids(self, state: GameState[Any]) -> list[int]:
        by_identity = self._by_identity
        index = self.index
        out = []
        for a in state.legal_actions():
            i = by_identity.get(id(a))
            out.append(index[a] if i is None else i)
        out.sort()
        return out

    def legal_bits(self, state: GameState[Any]) -> int:
        """The legal action numbers as one integer whose bit i is set when number i is
        legal: what a mask is read from in one call (`int.to_bytes`), where a list of
        hundreds of numbers costs a conversion of each."""
        bits = 0
        for i in self.legal_ids(state):
            bits |= 1 << i
        return bits

    def digest(self) -> str:
        """A fingerprint of the numbering: the SHA-256 of every text, one a line."""
        return hashlib.sha256("\n".join(self.texts).encode()).hexdigest()


@cache
def _swap_bits(hand: tuple[int, ...]) -> int:
    """The bits of every swap `hand` allows (B-16), by their numbers."""
    bits = 0
    for i, counts in enumerate(SWAP_COUNTS):
        if all(k <= h for k, h in zip(counts, hand, strict=True)):
            bits |= 1 << (SWAP_BASE + i)
    return bits


class BoardTable(ActionTable):
    def legal_ids(self, state: GameState[Any]) -> list[int]:
        """During a turn the legal actions run to hundreds, so their numbers come
        straight from the engine's bitboards of legal squares (`legal.masks`), without
        building an action object each; the same rules `legal.action_table` applies.
        tests/adapters/test_tables.py checks both against each other."""
        if not isinstance(state, BoardState):
            raise ArgumentError(f"not a Tigris & Euphrates state: {type(state).__name__}")
        if state.phase != ACTION:
            return super().legal_ids(state)
        return set_bits(self._action_bits(state))

    def legal_bits(self, state: GameState[Any]) -> int:
        if not isinstance(state, BoardState):
            raise ArgumentError(f"not a Tigris & Euphrates state: {type(state).__name__}")
        if state.phase != ACTION:
            return super().legal_bits(state)
        return self._action_bits(state)

    def _action_bits(self, state: BoardState) -> int:
        land, river, leaders, catastrophes = board_legal.masks(state)
        seat = state.active
        hand = state.hands[seat]
        # One integer whose bit i is legal action number i, from the tiles up to the
        # catastrophes (the table numbers them in that order, above), read out in one
        # pass (`set_bits`): a Python loop over each mask's squares cost most of random
        # play through the adapters.
        legal = 0
        for c in range(4):
            if hand[c] > 0:
                legal |= (river if c == BLUE else land) << (TILE_BASE + c * SQUARES)
            legal |= leaders[c] << (LEADER_BASE + c * SQUARES)
        row = state.leader_sq[seat]
        for c in range(4):
            if row[c] >= 0:
                legal |= 1 << (WITHDRAW_BASE + c)
        legal |= catastrophes << CATASTROPHE_BASE
        return legal | _swap_bits(tuple(hand)) | 1 << PASS_ID


class CardsTable(ActionTable):
    def legal_ids(self, state: GameState[Any]) -> list[int]:
        if not isinstance(state, CardsState):
            raise ArgumentError(f"not a Contest of Kings state: {type(state).__name__}")
        return super().legal_ids(state)


BOARD_TABLE: Final = BoardTable("board", _board_actions())
CARDS_TABLE: Final = CardsTable("cards", _cards_actions())
TABLES: Final[dict[str, ActionTable]] = {"board": BOARD_TABLE, "cards": CARDS_TABLE}


def table_for(game: str) -> ActionTable:
    table = TABLES.get(game) if isinstance(game, str) else None
    if table is None:
        raise ArgumentError(f"unknown game {game!r}; games are board, cards")
    return table


# --- returns ---------------------------------------------------------------------------
def place_returns(places: Sequence[int]) -> tuple[float, ...]:
    """What each seat's place is worth (B-32, C-18), from +1 for first alone to -1 for
    last alone, evenly spaced: with n players place p is worth 1 - 2(p-1)/(n-1). Seats
    that share a place share the values of the places they cover, so the returns always
    add up to zero: two players tied first of three get (1 + 0) / 2 each."""
    n = len(places)
    if n < 2:
        raise ArgumentError(f"a game has 2 to 4 places, not {n}")
    out = []
    for p in places:
        tied = sum(1 for q in places if q == p)
        out.append(1.0 - (2 * (p - 1) + tied - 1) / (n - 1))
    return tuple(out)

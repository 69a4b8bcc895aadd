"""A game whose every draw is a chance node: the bag and the deck as OpenSpiel sees them.

The engines shuffle the bag (or the deck) with the seed and then draw from its end;
nothing else in either game is left to chance but the first player (B-3, C-3). For
OpenSpiel chance must be explicit: a node whose outcomes and their probabilities
an algorithm can read, enumerate or sample itself. A `Deal` makes it so:

* the first chance node picks the first player, each seat with probability 1/n;
* every other chance node fixes the next tile (or card) to come out of the bag: its
  outcomes are the colours still unseen, each with probability count / unseen. Drawing
  the unseen tiles one at a time in this way is exactly a uniform shuffle.

The engine draws inside an action (a refill at the end of a turn, a swap), and how many
it draws depends on the action. So the nodes run ahead of the draws: the bag's next
`lookahead` tiles (every seat's full hand: no single action draws more) are always
fixed, and after an action has drawn some, chance nodes fix as many again before the
next decision. No seat sees a fixed tile before drawing it, and views show only the
bag's count, so fixing the order early shows nobody anything (G-3): the observations,
and the probabilities of every hand, are those of the shuffled bag.

In the two-player card game 30 cards are removed unseen at the start (C-3); they and
the deck are one pool of unseen cards, so the next card is drawn from both, and a card
fixed from the removed ones changes places with an unfixed one of the deck.

A game so played never reads the engine's seed. A `Deal` is its options and the
numbers it was given (and the seeds of any resamples): copying keeps a pointer to that
shared, immutable history, and pickling writes it down and replays it.
"""

from __future__ import annotations

import json
from typing import Any, Final

from euphrates.adapters.tables import ActionTable, integer, place_returns, table_for
from euphrates.board import BOARD
from euphrates.board.phases import HAND_SIZE as BOARD_HAND
from euphrates.board.state import BoardState
from euphrates.cards import CARDS
from euphrates.cards import scoring as cards_scoring
from euphrates.cards.layout import HAND_SIZE as CARDS_HAND
from euphrates.cards.layout import REMOVED_TWO_PLAYERS
from euphrates.cards.state import CardsState
from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES
from euphrates.core.errors import ArgumentError
from euphrates.core.protocol import GameState, View, check_players, check_viewer
from euphrates.core.rng import Rng
from euphrates.core.scoring import final_outcome
from euphrates.games import game_definition

CHANCE: Final = -1
"""The chance player, numbered as OpenSpiel numbers it (`pyspiel.PlayerId.CHANCE`)."""
TERMINAL: Final = -4
"""No one to move: the game is over (`pyspiel.PlayerId.TERMINAL`)."""

FIRST, DEALING, PLAYING = range(3)

Log = tuple[Any, Any] | None
"""What was applied so far, newest first, as a chain of pairs that copies share: each
number, and (seat, seed) for a resample."""


class Material:
    """What one game draws from and how a table is dealt: the parts of the two engines
    a `Deal` needs, kept apart so that `Deal` reads the same for both."""

    def __init__(self, name: str, hand: int, noun: str) -> None:
        self.name = name
        self.hand = hand
        self.noun = noun
        self.table: ActionTable = table_for(name)
        self.definition = game_definition(name)
        self._undealt: dict[tuple[int, str], tuple[GameState[Any], list[int]]] = {}

    def undealt(self, players: int, options: dict[str, bool]) -> tuple[GameState[Any], list[int]]:
        """A state with nothing dealt yet (every hand empty, everything in the bag) and
        that bag. The state is shared and never changed: it answers views before the
        deal; the deal builds a new one."""
        key = (players, json.dumps(options, sort_keys=True))
        found = self._undealt.get(key)
        if found is None:
            state = self.definition.new_game(players, 0, options)
            pool = list(self.deck(state)) + list(self.removed(state))
            for hand in state.hands:
                for c in range(4):
                    pool += [c] * hand[c]
                    hand[c] = 0
            self.deck(state).clear()
            self.removed(state).clear()
            found = self._undealt[key] = (state, sorted(pool))
        return found

    def deck(self, state: GameState[Any]) -> list[int]:
        """The engine's bag or deck: a list drawn from its end."""
        if isinstance(state, BoardState):
            return state.bag
        if isinstance(state, CardsState):
            return state.deck
        raise ArgumentError(f"not a state of either game: {type(state).__name__}")

    def removed(self, state: GameState[Any]) -> list[int]:
        """Cards out of the game unseen (two-player card game); the board has none."""
        return state.removed if isinstance(state, CardsState) else []

    def deal(self, undealt: GameState[Any], pool: list[int], first: int) -> GameState[Any]:
        """The dealt state, through the engine's position format (which checks it): from
        the first player on, each seat takes its hand from the end of `pool`, as the
        engines deal (B-3, C-3); two players then put 30 unfixed cards aside."""
        players = undealt.players
        pool = pool[:]
        hands: list[list[int]] = [[0, 0, 0, 0] for _ in range(players)]
        for i in range(players):
            seat = (first + i) % players
            for c in pool[-self.hand :]:
                hands[seat][c] += 1
            del pool[-self.hand :]
        if isinstance(undealt, BoardState):
            doc = BOARD.to_position(undealt)
            for seat, hand in enumerate(hands):
                doc["seats"][seat]["hand"] = {COLOUR_NAMES[c]: hand[c] for c in range(4)}
            doc["bag"] = [COLOUR_NAMES[c] for c in reversed(pool)]
            doc["turn"]["first"] = doc["turn"]["active"] = first
            return BOARD.from_position(doc)
        removed: list[int] = []
        if players == 2:
            removed = pool[:REMOVED_TWO_PLAYERS]
            del pool[:REMOVED_TWO_PLAYERS]
        doc = CARDS.to_position(undealt)
        doc["hands"] = ["".join(COLOUR_LETTERS[c] * h[c] for c in range(4)) for h in hands]
        doc["deck"] = "".join(COLOUR_LETTERS[c] for c in pool)
        doc["removed"] = "".join(COLOUR_LETTERS[c] for c in removed)
        doc["first"] = doc["active"] = first
        doc["pending"]["seat"] = first
        doc["pending"].pop("context", None)
        return CARDS.from_position(doc)

    def places_now(self, state: GameState[Any]) -> tuple[int, ...]:
        """The places the final scoring would give if the game ended now (B-32, C-18)."""
        out = state.outcome()
        if out is not None:
            return out.places
        if isinstance(state, BoardState):
            return final_outcome(state.points, state.held).places
        if isinstance(state, CardsState):
            return cards_scoring.result(state.piles).places
        raise ArgumentError(f"not a state of either game: {type(state).__name__}")


MAX_MOVES: Final = {"board": 5_000, "cards": 50_000}
"""Decisions after which an adapter cuts a game off and scores it as it stands (B-32,
C-18; `Material.places_now`). The rules never end a game whose seats only pass (G-2),
so no bound is one the rules impose; these lie far above every game played to its end
(random play: at most 302 board and 5 302 card decisions, docs/adapters.md)."""

MATERIALS: Final = {
    "board": Material("board", BOARD_HAND, "tile"),
    "cards": Material("cards", CARDS_HAND, "card"),
}


def _unfixed_counts(deck: list[int], fixed: int, removed: list[int]) -> list[int]:
    counts = [0, 0, 0, 0]
    for c in deck[: len(deck) - fixed]:
        counts[c] += 1
    for c in removed:
        counts[c] += 1
    return counts


def _fix(deck: list[int], fixed: int, removed: list[int], colour: int) -> None:
    """Make the next unfixed place of `deck` (counting from its end) hold `colour`,
    taking it from the unfixed part of the deck, else from the removed cards."""
    slot = len(deck) - fixed - 1
    for i in range(slot, -1, -1):
        if deck[i] == colour:
            deck[i], deck[slot] = deck[slot], deck[i]
            return
    for i, c in enumerate(removed):
        if c == colour:
            removed[i], deck[slot] = deck[slot], c
            return
    raise ArgumentError(f"no {COLOUR_NAMES[colour]} is left unseen to draw")


class Deal:
    """One game played with explicit chance (see the module's text). Create it with
    `Deal.start`; `current()` is a seat, CHANCE or TERMINAL."""

    __slots__ = (
        "_now",
        "engine",
        "first",
        "fixed",
        "log",
        "lookahead",
        "material",
        "max_moves",
        "moves",
        "options",
        "players",
        "pool",
        "stage",
        "truncated",
    )

    material: Material
    players: int
    options: dict[str, bool]
    max_moves: int
    lookahead: int
    engine: GameState[Any]
    pool: list[int]
    stage: int
    first: int
    fixed: int
    moves: int
    truncated: bool
    log: Log

    def __init__(
        self,
        material: Material,
        players: int,
        options: dict[str, bool],
        max_moves: int,
        engine: GameState[Any],
        pool: list[int],
    ) -> None:
        """The table before anything is dealt; `Deal.start` checks the arguments."""
        self.material = material
        self.players = players
        self.options = options
        self.max_moves = max_moves
        self.lookahead = players * material.hand
        self.engine = engine
        self.pool = pool
        self.stage = FIRST
        self.first = 0
        self.fixed = 0
        self.moves = 0
        self.truncated = False
        self.log = None
        self._now: int | None = None

    @classmethod
    def start(cls, game: str, players: object, options: dict[str, bool], max_moves: object) -> Deal:
        material = MATERIALS.get(game)
        if material is None:
            raise ArgumentError(f"unknown game {game!r}; games are board, cards")
        players = check_players(players)
        if type(max_moves) is not int or max_moves < 1:
            raise ArgumentError(f"max_moves must be a positive integer, not {max_moves!r}")
        options = dict(options)
        engine, pool = material.undealt(players, options)
        return cls(material, players, options, max_moves, engine, pool[:])

    def copy(self) -> Deal:
        playing = self.stage == PLAYING
        d = Deal(
            self.material,
            self.players,
            self.options,
            self.max_moves,
            self.engine.copy() if playing else self.engine,
            self.pool if playing else self.pool[:],
        )
        d.lookahead = self.lookahead
        d.stage = self.stage
        d.first = self.first
        d.fixed = self.fixed
        d.moves = self.moves
        d.truncated = self.truncated
        d.log = self.log
        return d

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        return self.copy()

    # --- whose turn ---------------------------------------------------------------------
    def _deck(self) -> list[int]:
        return self.pool if self.stage != PLAYING else self.material.deck(self.engine)

    def _removed(self) -> list[int]:
        return [] if self.stage != PLAYING else self.material.removed(self.engine)

    def _target(self) -> int:
        """How many of the bag's next tiles are to be fixed before anyone decides."""
        deck = self._deck()
        if self.stage == DEALING:
            return min(self.players * self.material.hand + self.lookahead, len(deck))
        return min(self.lookahead, len(deck))

    def current(self) -> int:
        """Kept until the next `apply`: OpenSpiel asks it several times a decision."""
        now = self._now
        if now is None:
            now = self._now = self._current()
        return now

    def _current(self) -> int:
        if self.stage != PLAYING:
            return CHANCE
        if self.truncated or self.engine.is_over():
            return TERMINAL
        if self.fixed < self._target():
            return CHANCE
        seat = self.engine.to_move()
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        return self.stage == PLAYING and (self.truncated or self.engine.is_over())

    # --- chance ---------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.current() != CHANCE:
            raise ArgumentError("this is not a chance node")
        if self.stage == FIRST:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        counts = _unfixed_counts(self._deck(), self.fixed, self._removed())
        total = sum(counts)
        return [(c, n / total) for c, n in enumerate(counts) if n]

    def chance_text(self, outcome: int) -> str:
        if self.stage == FIRST:
            return f"first player: seat {outcome}"
        name = COLOUR_NAMES[outcome] if 0 <= outcome < 4 else "?"
        return f"next {self.material.noun}: {name}"

    def _apply_chance(self, outcome: int) -> None:
        if self.stage == FIRST:
            if outcome not in range(self.players):
                raise ArgumentError(f"the first player is a seat 0..{self.players - 1}")
            self.first = outcome
            self.stage = DEALING
            return
        if outcome not in range(4):
            raise ArgumentError(f"a chance outcome here is a colour 0..3, not {outcome}")
        _fix(self._deck(), self.fixed, self._removed(), outcome)
        self.fixed += 1
        if self.stage == DEALING and self.fixed == self._target():
            self.engine = self.material.deal(self.engine, self.pool, self.first)
            self.pool = []
            self.fixed -= self.players * self.material.hand
            self.stage = PLAYING

    # --- decisions ------------------------------------------------------------------------
    def legal_ids(self) -> list[int]:
        if self.current() < 0:
            return []
        return self.material.table.legal_ids(self.engine)

    def _apply_decision(self, number: int) -> None:
        action = self.material.table.action(number)
        deck = self.material.deck(self.engine)
        before = len(deck)
        self.engine.apply(action)
        drawn = before - len(self.material.deck(self.engine))
        if drawn > self.fixed:
            raise AssertionError(f"{action} drew {drawn}, more than the {self.fixed} fixed")
        self.fixed -= drawn
        self.moves += 1
        if self.moves >= self.max_moves and not self.engine.is_over():
            self.truncated = True

    def apply(self, number: object) -> None:
        """Apply a chance outcome or a seat's action number, whichever is due. Errors
        (ArgumentError, IllegalActionError) leave the game unchanged."""
        number = integer(number)
        who = self.current()
        if who == TERMINAL:
            raise ArgumentError("the game is over; no action is legal")
        try:
            if who == CHANCE:
                self._apply_chance(number)
            else:
                self._apply_decision(number)
        finally:
            self._now = None
        self.log = (self.log, number)

    # --- results --------------------------------------------------------------------------
    def places(self) -> tuple[int, ...] | None:
        """The places once the game is over, or when it was cut off at `max_moves`: then
        the places the final scoring gives on the points so far (docs/adapters.md)."""
        if not self.is_terminal():
            return None
        return self.material.places_now(self.engine)

    def returns(self) -> list[float]:
        places = self.places()
        if places is None:
            return [0.0] * self.players
        return list(place_returns(places))

    # --- what a seat sees -------------------------------------------------------------------
    def view(self, seat: int | None, *, legal: bool = True) -> View:
        """The engine's view of `seat` (None: a spectator); before the deal, the table
        with nothing dealt. The encoders ask without the legal texts (`legal=False`)."""
        return self.engine.view(seat, legal=legal)

    def resample(self, seat: object, seed: int) -> Deal:
        """A copy in which everything `seat` cannot see is dealt anew (the engine's
        `redeal` with `Rng(seed)`): other hands, the bag's order, the removed cards, a
        face-down bridge. The seat's view is unchanged; this is what information-set
        search samples. The resample goes into the copy's record, so that the copy
        replays as itself."""
        viewer = check_viewer(seat, self.players)
        if viewer is None:
            raise ArgumentError("a resample is for a seat, not for a spectator")
        d = self.copy()
        if d.stage == PLAYING:
            d._redeal(viewer, seed)
            d.log = (d.log, (viewer, seed))
        return d

    def _redeal(self, seat: int, seed: int) -> None:
        self.engine.redeal(seat, Rng(seed))

    # --- records ----------------------------------------------------------------------------
    def record(self) -> list[Any]:
        """What was applied, oldest first: numbers, and [seat, seed] for a resample."""
        out: list[Any] = []
        link = self.log
        while link is not None:
            link, entry = link
            out.append(entry if isinstance(entry, int) else list(entry))
        out.reverse()
        return out

    def __reduce__(self) -> tuple[Any, tuple[dict[str, Any]]]:
        """Pickled as its game, options and record, and unpickled by replaying them
        (`replay`): the same state, however the class is built (compiled, a class
        cannot be made empty and filled in)."""
        return replay, (self.to_doc(),)

    def to_doc(self) -> dict[str, Any]:
        return {
            "game": self.material.name,
            "players": self.players,
            "options": self.options,
            "max_moves": self.max_moves,
            "record": self.record(),
        }

    def __str__(self) -> str:
        """The whole state, hidden parts included: for debugging and for comparing
        states, as OpenSpiel's `ToString` is."""
        if self.stage != PLAYING:
            pool = "".join(COLOUR_LETTERS[c] for c in self.pool)
            return f"{self.material.name}: dealing; first seat {self.first}; pool {pool}"
        engine = self.engine
        doc = (
            BOARD.to_position(engine)
            if isinstance(engine, BoardState)
            else CARDS.to_position(engine)
        )
        head = f"{self.material.name}: fixed {self.fixed}; moves {self.moves}"
        if self.truncated:
            head += f"; cut off at {self.max_moves} moves"
        return head + "\n" + json.dumps(doc, sort_keys=True)


def replay(doc: dict[str, Any]) -> Deal:
    """The game a `Deal.to_doc` describes, played again: its game and options, then
    every number and resample of its record."""
    deal = Deal.start(doc["game"], doc["players"], doc["options"], doc["max_moves"])
    for entry in doc["record"]:
        if isinstance(entry, int):
            deal.apply(entry)
        else:
            seat, seed = entry
            deal._redeal(seat, seed)
            deal.log = (deal.log, (seat, seed))
    return deal

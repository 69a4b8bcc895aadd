"""The protocol both games implement, so bots, records and the server need not know which.

Shaped after OpenSpiel and boardgame.io: a state knows whose decision is pending and
of what kind, lists exactly the legal actions, applies one and reports the events it
caused (each with its audience), and renders a view per seat. The state carries a
version (the number of actions applied) so a host can reject stale actions.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, NamedTuple, Protocol, TypeVar

from euphrates.core.errors import ArgumentError, GameOverError, StaleActionError, WrongSeatError
from euphrates.core.rng import Rng

Seat = int
"""A seat is 0 .. players-1; seat order is the order of play (clockwise)."""

View = dict[str, Any]
"""A JSON-able view: exactly what one seat (or a spectator) may see."""

Json = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending decision: who decides, what kind of decision, and its public context.

    `kind` is one of the engine's decision kinds (``"action"`` for a turn's action or
    pass, ``"commit"`` for a conflict commitment, ...); `context` holds only public
    facts (for a defender: the attacker's commitment, which is public, G-1).
    """

    seat: Seat
    kind: str
    context: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> Json:
        return {"seat": self.seat, "kind": self.kind, "context": dict(self.context)}


class Event(NamedTuple):
    """Something that happened. `audience` None means every seat and spectators;
    an int means that seat only (a drawn tile is private, G-3). A named tuple, because
    engines make several per action and search makes millions."""

    kind: str
    data: Mapping[str, Any]
    audience: Seat | None = None

    def visible_to(self, seat: Seat | None) -> bool:
        return self.audience is None or self.audience == seat

    def to_json(self) -> Json:
        out: Json = {"kind": self.kind, **self.data}
        if self.audience is not None:
            out["audience"] = self.audience
        return out


@dataclass(frozen=True, slots=True)
class Outcome:
    """The result of a finished game (B-32, C-18).

    `points[s][c]` are seat s's points in colour c before wildcards, `wildcards[s][c]`
    how many of s's treasures were assigned to c, `totals` their sum, and `places[s]`
    the place of seat s (1 = first; equal results share a place).
    """

    points: tuple[tuple[int, ...], ...]
    wildcards: tuple[tuple[int, ...], ...]
    totals: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]

    @property
    def winners(self) -> tuple[Seat, ...]:
        return tuple(s for s, p in enumerate(self.places) if p == 1)

    @property
    def ranking(self) -> tuple[Seat, ...]:
        """Seats from first to last (stable for shared places)."""
        return tuple(sorted(range(len(self.places)), key=lambda s: (self.places[s], s)))

    def weakest(self, seat: Seat) -> int:
        return min(self.totals[seat])

    def to_json(self) -> Json:
        return {
            "points": [list(p) for p in self.points],
            "wildcards": [list(w) for w in self.wildcards],
            "totals": [list(t) for t in self.totals],
            "places": list(self.places),
            "winners": list(self.winners),
        }


class Action(Protocol):
    """Actions are small immutable values with a text form (python-chess's Move)."""

    def __str__(self) -> str: ...


A = TypeVar("A", bound=Action)
S = TypeVar("S", bound="GameState[Any]")


class GameState(ABC, Generic[A]):
    """One game in progress. Subclasses hold all state; nothing here does I/O."""

    __slots__ = ()
    players: int

    revealing_events: ClassVar[frozenset[str]] = frozenset()
    """Event kinds that show someone something hidden until then (a draw from the bag or
    deck, a face-down bridge turned up). A host lets a player take an action back only
    while none of these happened since, as Board Game Arena does."""

    game_over_ruling: ClassVar[str] = "B-31/C-17"
    """The ruling that ends this game, cited when an action comes after the end: each
    engine names its own game's ruling only."""

    # --- whose turn and what is pending ---------------------------------------------
    @property
    @abstractmethod
    def version(self) -> int:
        """Number of actions applied so far."""

    @abstractmethod
    def decision(self) -> Decision | None:
        """The pending decision, or None when the game is over."""

    def to_move(self) -> Seat | None:
        d = self.decision()
        return None if d is None else d.seat

    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The final result once the game is over, else None."""

    # --- actions -------------------------------------------------------------------
    @abstractmethod
    def legal_actions(self) -> list[A]:
        """Exactly the legal actions for the pending decision (empty when over)."""

    @abstractmethod
    def parse_action(self, text: str) -> A:
        """Read an action in this game's notation (raises InvalidActionError)."""

    @abstractmethod
    def _apply(self, action: A) -> list[Event]:
        """Apply a legal action; must raise before changing anything if it is not."""

    def apply(
        self, action: A | str, *, seat: Seat | None = None, version: int | None = None
    ) -> list[Event]:
        """Apply `action` (an action or its text) and return the events it caused.

        `seat` and `version`, when given, are checked first: a host passes the sender's
        seat and the version the sender saw, so a late or misrouted action is refused.
        On any error the state is unchanged.
        """
        if self.is_over():
            raise GameOverError("the game is over; no action is legal", self.game_over_ruling)
        if version is not None:
            if type(version) is not int:
                raise ArgumentError(f"version must be an integer, not {version!r}")
            if version != self.version:
                raise StaleActionError(
                    f"action was meant for version {version}, the game is at version {self.version}"
                )
        if seat is not None:
            if type(seat) is not int:
                raise ArgumentError(f"seat must be a seat number, not {seat!r}")
            mover = self.to_move()
            if mover is not None and seat != mover:
                d = self.decision()
                kind = "" if d is None else f" {d.kind}"
                raise WrongSeatError(
                    f"seat {seat} cannot act: the pending{kind} decision belongs to seat {mover}",
                    "G-1",
                )
        act = self.parse_action(action) if isinstance(action, str) else action
        return self._apply(act)

    def legal_texts(self) -> list[str]:
        """The legal actions as notation, in `legal_actions` order (what every view of
        the seat to move lists; engines may give it without building the actions)."""
        return [str(a) for a in self.legal_actions()]

    def legal_action_count(self) -> int:
        """How many legal actions there are; engines answer this without building them."""
        return len(self.legal_actions())

    def is_legal(self, action: A) -> bool:
        """Whether `action` is legal now (engines answer without listing every action)."""
        return action in self.legal_actions()

    def random_action(self, rng: Rng) -> A:
        """A legal action chosen uniformly at random (engines may avoid building the list)."""
        actions = self.legal_actions()
        if not actions:
            raise GameOverError("the game is over; no action is legal", self.game_over_ruling)
        return actions[rng.below(len(actions))]

    def public_text(self, action: str) -> str:
        """The part of an action's text every seat may read (G-3): the text itself,
        unless it names something only its mover knows (the tiles of a swap, the colour
        of a face-down bridge), when it is the public part alone. Not an action: a
        record of what the table saw, for the seats' public history."""
        return action

    def reveals_hidden(self, events: Sequence[Event]) -> bool:
        """Whether these events (one action's) revealed hidden information to anyone."""
        kinds = self.revealing_events
        return any(e.kind in kinds for e in events)

    # --- views, copies -------------------------------------------------------------
    @abstractmethod
    def view(self, seat: Seat | None, *, legal: bool = True) -> View:
        """What `seat` may see (None: a spectator). JSON-able, never hidden information.
        `legal=False` leaves the `legal` texts empty: for a reader that numbers the legal
        actions itself (the adapters' encoders), the texts cost most of a view."""

    @abstractmethod
    def copy(self: S) -> S:
        """An independent copy, cheap enough for search."""

    def redeal(self, seat: Seat | None, rng: Rng) -> None:
        """Shuffle everything `seat` cannot see among the places that hide it (the other
        hands, the bag or deck, secret discards, ...), keeping every count, so that
        `view(seat)` is unchanged: a fresh determinization for information-set search,
        much cheaper than `sample_from_view`. Engines override this."""
        raise NotImplementedError(f"{type(self).__name__} cannot redeal hidden information")


def decision_fields(state: GameState[Any], seat: Seat | None, legal: bool = True) -> Json:
    """The part every view of both games shares, so hosts and bots read them alike:
    `viewer`, `version`, the pending `decision` (public context only) and `legal`, the
    viewer's legal actions as text when the decision is theirs (else empty)."""
    d = state.decision()
    return {
        "viewer": seat,
        "version": state.version,
        "decision": None if d is None else d.to_json(),
        "legal": state.legal_texts() if legal and d is not None and d.seat == seat else [],
    }


St = TypeVar("St", bound="GameState[Any]")


class GameDefinition(Protocol[St]):
    """A game as a host sees it: how to start one and how to read its documents, and
    what a host offers and hands its clients, so that a host needs nothing else of
    the game's own modules and never asks which game it holds by its name."""

    name: str

    @property
    def title(self) -> str:
        """The game's name in English, for a host without the book of words (OpenSpiel's
        list of games, a lobby that only lists)."""
        ...

    @property
    def options(self) -> Mapping[str, bool]:
        """The options `new_game` takes, by name, with their defaults."""
        ...

    @property
    def players(self) -> tuple[int, ...]:
        """The numbers of players a game may have."""
        ...

    @property
    def words_prefix(self) -> str:
        """What this game's own keys in the book of words (`web/words/`) begin with,
        where both games say a thing differently (`note.pass`, `cards.note.pass`): the
        board's keys came first and have none."""
        ...

    @property
    def scoring_ruling(self) -> str:
        """The ruling of the final scoring, which a host cites where it explains the
        end (each game scores by its weakest colour, under its own number)."""
        ...

    @property
    def stats_words(self) -> Mapping[str, str]:
        """The book's keys for the statistics' figures that this game names its own way
        (`monuments` counts the card game's ships, `placed` tiles or cards), by figure;
        every other figure `x` is said with `stats.x`."""
        ...

    def describe(self) -> Json:
        """What a lobby needs to offer this game without knowing it (JSON): `title`,
        `options` (name: default), `players` (the numbers allowed) and `seats`, how a
        seat is marked before the game starts: ``"dynasty"`` by its dynasty's symbol
        (which marks its leaders in the board game), ``"number"`` by its number."""
        ...

    def read_options(self, options: object) -> dict[str, bool]:
        """`options` checked and completed with the defaults (ArgumentError for an
        unknown name or a value that is not exactly a boolean), as `new_game` reads
        them, for a host that keeps them before it starts a game."""
        ...

    def assets(self) -> Json:
        """What a client needs to draw any game of this kind besides the views (JSON,
        the same for every game): the board's two sides, for one; may be empty."""
        ...

    def new_game(self, players: int, seed: int, options: Mapping[str, Any] | None = None) -> St:
        """A new game; options are this game's JSON options (unknown keys are refused)."""
        ...

    def from_position(self, doc: Mapping[str, Any]) -> St:
        """A state from this game's JSON position format (raises RecordError)."""
        ...

    def to_position(self, state: St) -> Json:
        """The full state as this game's JSON position format."""
        ...

    def render(self, state: St, seat: Seat | None) -> str:
        """An ASCII rendering of what `seat` may see."""
        ...

    def render_view(self, view: View) -> str:
        """The same rendering from a view (what a bot or a client holds)."""
        ...

    def search_view(self, state: St, seat: Seat) -> View:
        """`seat`'s view of `state` without the pending decision and the legal actions
        (`decision_fields` but `viewer`): what a search evaluates at an imagined state,
        where listing the legal actions would be most of the view's cost."""
        ...

    def sample_from_view(self, view: View, rng: Rng) -> St:
        """A full state consistent with `view`: what the view hides (other hands, the
        bag or deck, a face-down bridge, G-3) is drawn at random from what is unseen;
        everything the view shows is kept, so the sample's view of that seat equals
        `view`. This is what information-set search uses; it never reads a true state."""
        ...


SEED_LIMIT = 1 << 64
"""Seeds are 64-bit: the generator's whole state (SplitMix64), so no two seeds deal alike."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_players(players: object, allowed: Sequence[int] = (2, 3, 4)) -> int:
    """`players` exactly as an int among `allowed` (3.0 or True are refused, not coerced)."""
    if not _is_int(players) or players not in allowed:
        raise ArgumentError(
            f"players must be an integer from {allowed[0]} to {allowed[-1]}, not {players!r}"
        )
    assert isinstance(players, int)
    return players


def check_seed(seed: object) -> int:
    """A seed is an int in 0 .. 2**64-1; larger ones would silently alias smaller ones."""
    if not _is_int(seed):
        raise ArgumentError(f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
    assert isinstance(seed, int)
    if not 0 <= seed < SEED_LIMIT:
        raise ArgumentError(f"seed must lie in 0 .. 2**64-1, not {seed}")
    return seed


def check_viewer(seat: object, players: int) -> Seat | None:
    """The seat a view is for: None (a spectator) or a seat number, exactly an int.
    `view(True)` or `view("0")` would otherwise read as seat 1 or fail later."""
    if seat is None:
        return None
    if not _is_int(seat):
        raise ArgumentError(f"seat must be a seat number or None, not {seat!r}")
    assert isinstance(seat, int)
    if not 0 <= seat < players:
        raise ArgumentError(f"seat must be 0 .. {players - 1} or None, not {seat}")
    return seat


def check_options(options: object, known: Mapping[str, bool], game: str) -> dict[str, bool]:
    """A game's options: a mapping of known names to exact booleans (`"no"` is not false)."""
    out = dict(known)
    if options is None:
        return out
    if not isinstance(options, Mapping):
        raise ArgumentError(
            f"options must be an object of {', '.join(known)}, not {type(options).__name__}"
        )
    for key, value in options.items():
        if key not in known:
            raise ArgumentError(f"unknown {game} option {key!r}; options are {', '.join(known)}")
        if not isinstance(value, bool):
            raise ArgumentError(f"option {key!r} must be true or false, not {value!r}")
        out[key] = value
    return out

"""What both games' tensors share: named pieces of one flat vector, seat slots, strings.

A tensor is written from one seat's view only (`state.view(seat)`), never from the
state: whatever the view leaves out (other hands, the bag's order, a face-down bridge,
hidden point totals) cannot reach the tensor. Seats are written in slots relative to
the viewer (slot 0 the viewer, slot 1 the next seat in the order of play, ...), so a
network sees every seat from its own side; a spectator's view uses the seats'
numbers. There are always four slots: one layout serves two, three or four players.

Two kinds of tensor are written. The observation is what the table shows now; the
information state adds what a seat that remembers every public event knows besides:
the points each seat has scored (the board's score log, B-14: points are taken
openly; the card game's point piles card by card, G-3), which the table hides while
scores or piles are closed (B-33, C-9).
"""

from __future__ import annotations

import json
import math
from array import array
from collections.abc import Callable, Mapping, MutableSequence, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from euphrates.core.protocol import View

Array = npt.NDArray[np.float32]
SLOTS = 4


class Piece(NamedTuple):
    """A named part of the flat tensor and its shape (OpenSpiel's observer `dict`)."""

    name: str
    shape: tuple[int, ...]

    @property
    def size(self) -> int:
        return math.prod(self.shape)


class Fields:
    """Named ranges of a feature vector with their upper bounds: `fields["bag"]` is the
    slice of the feature 'bag', `fields.high` the largest value each entry takes."""

    def __init__(self, spec: Sequence[tuple[str, int, float]]) -> None:
        self.slices: dict[str, slice] = {}
        highs: list[float] = []
        for name, width, high in spec:
            self.slices[name] = slice(len(highs), len(highs) + width)
            highs += [high] * width
        self.size = len(highs)
        self.high = np.array(highs, dtype=np.float32)

    def __getitem__(self, name: str) -> slice:
        return self.slices[name]

    def start(self, name: str) -> int:
        start: int = self.slices[name].start
        return start


def conflict_fields(strength_high: float, commit_high: float) -> list[tuple[str, int, float]]:
    """The fields of a pending conflict, the same in both games: what a commitment
    decision's public context says (the attacker's commitment once made is public, G-1)."""
    return [
        ("conflict", 2, 1),  # revolt, war
        ("conflict_colour", 4, 1),  # the leaders' colour
        ("commit_colour", 4, 1),  # red in a revolt, the war's colour (B-20, B-24, C-10, C-12)
        ("attacker", 4, 1),  # seat slots
        ("defender", 4, 1),
        ("role", 2, 1),  # whose commitment is asked: attacker, defender
        ("strength", 2, strength_high),  # base strengths of attacker and defender
        ("attacker_commit", 1, commit_high),
        ("attacker_committed", 1, 1),  # the attacker has committed (public, G-1)
        ("wars", 4, 1),  # colours of the wars still to fight
    ]


def write_conflict(
    out: MutableSequence[float],
    at: int,
    fields: Fields,
    kind: str,
    context: Mapping[str, Any],
    slot: Callable[[int], int],
    colour: Mapping[str, int],
) -> None:
    """A commitment's or a war order's context into the conflict fields of `fields`,
    which start at `out[at]`."""
    if kind == "commit":
        out[at + fields.start("conflict") + (context["conflict"] == "war")] = 1.0
        out[at + fields.start("conflict_colour") + colour[context["colour"]]] = 1.0
        out[at + fields.start("commit_colour") + colour[context["commit_colour"]]] = 1.0
        out[at + fields.start("attacker") + slot(context["attacker"])] = 1.0
        out[at + fields.start("defender") + slot(context["defender"])] = 1.0
        out[at + fields.start("role") + (context["role"] == "defender")] = 1.0
        out[at + fields.start("strength")] = context["attacker_strength"]
        out[at + fields.start("strength") + 1] = context["defender_strength"]
        if context["attacker_commit"] is not None:
            out[at + fields.start("attacker_commit")] = context["attacker_commit"]
            out[at + fields.start("attacker_committed")] = 1.0
    elif kind == "war_order":
        for name in context["wars"]:
            out[at + fields.start("wars") + colour[name]] = 1.0


def split(out: Array, pieces: Sequence[Piece]) -> dict[str, Array]:
    """The pieces as reshaped views into `out` (writing to them writes `out`)."""
    parts: dict[str, Array] = {}
    i = 0
    for name, shape in pieces:
        n = math.prod(shape)
        parts[name] = out[i : i + n].reshape(shape)
        i += n
    if i != out.size:
        raise ValueError(f"a tensor of {out.size} values does not hold pieces of {i}")
    return parts


def slot_of(view: View) -> Any:
    """A function from seat number to slot, relative to the viewer (see above)."""
    me = view.get("viewer")
    players: int = view["players"]
    if me is None:
        return lambda seat: seat
    return lambda seat: (seat - me) % players


def information_string(view: View) -> str:
    """The whole view as canonical JSON: equal for every state that shows the seat the
    same view, and different otherwise (the view holds all a seat knows)."""
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class Encoding:
    """One game's tensors (see the module's text): `pieces(recall)` their layout,
    `high(recall)` the upper bound of each entry (every entry is at least 0),
    `tensor(view, recall)` a view's tensor and `encode(view, out, recall)` the same
    written into `out`.

    A game writes a view into a zeroed buffer of C floats (`filled`), entry by entry,
    which numpy then reads without a copy: a numpy call per field costs microseconds
    that compiled code cannot shorten, where a buffer's item is set in nanoseconds."""

    observation_pieces: tuple[Piece, ...] = ()
    recall_pieces: tuple[Piece, ...] = ()

    def __init__(self) -> None:
        self._zeros = {recall: bytes(4 * self.size(recall)) for recall in (False, True)}

    def pieces(self, recall: bool) -> tuple[Piece, ...]:
        return self.observation_pieces + (self.recall_pieces if recall else ())

    def size(self, recall: bool) -> int:
        return sum(p.size for p in self.pieces(recall))

    def zeroed(self, recall: bool) -> array[float]:
        """A new buffer of the tensor's size, every entry 0."""
        return array("f", self._zeros[recall])

    def high(self, recall: bool) -> Array:
        raise NotImplementedError

    def filled(self, view: View, recall: bool) -> array[float]:
        raise NotImplementedError

    def encode(self, view: View, out: Array, recall: bool) -> None:
        out[:] = np.frombuffer(self.filled(view, recall), dtype=np.float32)

    def tensor(self, view: View, recall: bool) -> Array:
        tensor: Array = np.frombuffer(self.filled(view, recall), dtype=np.float32)
        return tensor

    def observation_string(self, view: View) -> str:
        """What the table shows the seat: the engine's ASCII rendering of the view."""
        raise NotImplementedError

    def information_string(self, view: View) -> str:
        return information_string(view)

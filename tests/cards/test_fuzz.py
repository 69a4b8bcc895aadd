"""A small fuzz test of everything that reads input from outside: the notation parser,
action objects built in code, `from_position`, `sample_from_view` and `view`.

A few thousand generated malformed inputs (seeded, so every run feeds the same ones);
each must end in one of the project's own errors or be accepted as something a game can
really hold. Outcomes are counted as: clean error, accepted-fine, traceback (any other
exception), hang (an input that took more than a second: sizes are bounded, so none
should), impossible-accepted (accepted, but the state changed after a refused action, or
the state read is not one a game can reach, does not round-trip or fails in play).
"""

from __future__ import annotations

import copy
import dataclasses
import random
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest

from euphrates.cards import CARDS, CardsState, parse_action
from euphrates.cards.layout import HAND_SIZE, kingdoms, spot_column
from euphrates.cards.position import census, from_position, to_position
from euphrates.core.errors import EuphratesError, RecordError
from euphrates.core.rng import Rng
from tests.json_shape import shape_differs

from .helpers import find, kind_is

HANG_SECONDS = 1.0
WRONG: list[Any] = [None, True, False, 0, 1, -1, 7, 2**64, 2**70, 1.5, "", "x", "no", "0", [], {}]
WORDS = [
    "commit", "exchange", "war", "point", "ship", "pass", "decline", "none", "no", "x",
    "catastrophe", "r", "b", "g", "k", "T", "K", "P", "F", "red", "king", "trader", "bk",
    "blue-black", "t", "-",
]  # fmt: skip
DIGITS = [*"0123456789", "²", "³", "¹", "٣", "٤", "５", "߃", "⁰", "½", "Ⅷ"]
SEPARATORS = [".", "-", " ", "  ", "\t", "/", ""]


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.problems: list[str] = []

    def run(self, what: str, fn: Callable[[], Any], check: Callable[[Any], str | None]) -> None:
        """Call `fn`; an accepted result is judged by `check` (None: fine, else why not)."""
        self.counts["tried"] += 1
        start = time.perf_counter()
        try:
            result = fn()
        except EuphratesError:
            outcome, why = "clean error", None
        except Exception as e:  # any other exception is what this test counts
            outcome, why = "traceback", f"{type(e).__name__}: {e}"
        else:
            why = check(result)
            outcome = "accepted-fine" if why is None else "impossible-accepted"
        if time.perf_counter() - start > HANG_SECONDS:
            outcome, why = "hang", "took more than a second"
        self.counts[outcome] += 1
        if why is not None and len(self.problems) < 20:
            self.problems.append(f"{outcome}: {what[:120]!r}: {why[:300]}")

    def line(self) -> str:
        keys = ("tried", "clean error", "accepted-fine", "traceback", "hang", "impossible-accepted")
        return " / ".join(f"{k} {self.counts[k]}" for k in keys)


def possible(s: CardsState, steps: int = 60, seed: int = 0) -> str | None:
    """Why `s` is not a state a game can hold, or None: it round-trips, keeps the
    property tests' invariants and plays on without failing."""
    try:
        if from_position(to_position(s)) != s:
            return "does not round-trip"
    except Exception as e:  # a field that cannot be written down or read back
        return f"does not round-trip: {type(e).__name__}: {e}"
    rng = Rng(seed)
    for _ in range(steps):
        if census(s) != ([65, 40, 40, 40], 8):
            return f"census {census(s)}"
        if any(sum(h) > HAND_SIZE for h in s.hands):
            return "a hand over 8"
        if s.kind == 0:
            for lo, hi in kingdoms(s.gaps):
                colours = [
                    lid & 3 for lid, p in enumerate(s.lpos) if p >= 0 and lo <= spot_column(p) <= hi
                ]
                if len(colours) != len(set(colours)):
                    return "two leaders of one colour in a kingdom"
        if s.legal_action_count() != len(s.legal_actions()):
            return "legal action count differs from the list"
        if s.is_over():
            break
        try:
            s.apply(s.random_action(rng))
        except Exception as e:  # a state that cannot be played on
            return f"play failed: {type(e).__name__}: {e}"
    return None


# --- generators ----------------------------------------------------------------------------
def action_texts(r: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        roll = r.random()
        if roll < 0.1:
            out.append(r.choice(WORDS) + " " + "9" * r.randint(4, 6000))
        elif roll < 0.2:
            out.append("".join(chr(r.randint(0, 0x2FFF)) for _ in range(r.randint(0, 12))))
        else:
            parts = [r.choice(WORDS)]
            for _ in range(r.randint(0, 3)):
                parts.append(r.choice(SEPARATORS))
                parts.append(r.choice(DIGITS) if r.random() < 0.7 else r.choice(WORDS))
            text = "".join(parts)
            out.append(text.upper() if r.random() < 0.2 else text)
    return out


def _slots(value: Any, out: list[tuple[Any, Any]]) -> None:
    """Every (container, key) of a JSON document, nested ones included."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, child in items:
        out.append((value, key))
        if isinstance(child, (dict, list)):
            _slots(child, out)


def mutate(doc: Any, r: random.Random) -> tuple[str, Any]:
    """One random break of a JSON document: delete, retype, nudge or edit one slot."""
    d = copy.deepcopy(doc)
    slots: list[tuple[Any, Any]] = []
    _slots(d, slots)
    box, key = r.choice(slots)
    old = box[key]
    roll = r.random()
    if roll < 0.15 and isinstance(box, dict):
        del box[key]
        return f"delete {key}", d
    if roll < 0.45:
        box[key] = r.choice(WRONG)
        return f"{key}={box[key]!r}", d
    if isinstance(old, bool):
        box[key] = not old
    elif isinstance(old, int):
        box[key] = old + r.choice([-2, -1, 1, 2, 100])
    elif isinstance(old, str):
        chars = list(old)
        edit = r.random()
        if edit < 0.3 and chars:
            del chars[r.randrange(len(chars))]
        elif edit < 0.6:
            chars.insert(r.randint(0, len(chars)), r.choice("rbgkt?.-0123456789²٣xyz"))
        elif chars:
            i, j = r.randrange(len(chars)), r.randrange(len(chars))
            chars[i], chars[j] = chars[j], chars[i]
        box[key] = "".join(chars)
    elif isinstance(old, list):
        if old and r.random() < 0.5:
            del old[r.randrange(len(old))]
        else:
            old.append(copy.deepcopy(r.choice(old)) if old else r.choice(WRONG))
    else:
        box[key] = r.choice(WRONG)
    return f"edit {key}", d


def sources() -> list[CardsState]:
    return [
        CARDS.new_game(2, 3),
        CARDS.new_game(4, 4, {"open_piles": True}),
        find(kind_is("commit", conflict_type="revolt")),
        find(kind_is("commit", conflict_type="war")),
        find(kind_is("point", reason="war")),
        find(kind_is("war_order")),
        find(kind_is("exchange")),
        find(kind_is("ship")),
        find(kind_is("ship_point")),
        find(kind_is("over")),
    ]


# --- the test ------------------------------------------------------------------------------
def test_fuzz_only_project_errors_and_only_possible_states() -> None:
    r = random.Random(20260522)
    tally = Tally()
    states = sources()

    # the notation: the parser alone, then applied to states of several decision kinds
    for text in action_texts(r, 1500):
        tally.run(
            text,
            partial(parse_action, text),
            lambda a: None if parse_action(str(a)) == a else "not its canonical text",
        )
        s = r.choice(states).copy()
        before = to_position(s)

        def applied(s: CardsState = s, before: Any = before) -> str | None:
            return possible(s, steps=5)

        def refused_unchanged(s: CardsState = s, before: Any = before, text: str = text) -> Any:
            try:
                return s.apply(text)
            except EuphratesError:
                if to_position(s) != before:
                    raise AssertionError("a refused action changed the state") from None
                raise

        tally.run(text, refused_unchanged, lambda _events: applied())

    # action objects built in code: a listed or random table action with one field
    # replaced (wrong type, out of range, or another in-range value), through apply and
    # is_legal
    from .test_random_games import EVERY_ACTION

    for i in range(1200):
        s = r.choice(states).copy()
        legal = s.legal_actions()
        action: Any = r.choice(legal if legal and r.random() < 0.5 else EVERY_ACTION)
        names = [f.name for f in dataclasses.fields(action)]
        if names:
            value = r.choice([*WRONG, 0.0, 2.0, -2, 8, 9, 16, 127, 128, 134, 135, 1000])
            action = dataclasses.replace(action, **{r.choice(names): value})
        before = to_position(s)

        def object_refused_unchanged(
            s: CardsState = s, before: Any = before, a: Any = action
        ) -> Any:
            try:
                legal_now = s.is_legal(a)
                return s.apply(a), legal_now
            except EuphratesError:
                if to_position(s) != before:
                    raise AssertionError("a refused action changed the state") from None
                raise

        def object_fine(result: Any, s: CardsState = s, i: int = i) -> str | None:
            if not result[1]:
                return "applied, though is_legal said no"
            return possible(s, steps=5, seed=i)

        tally.run(repr(action), object_refused_unchanged, object_fine)

    # positions: real documents of every decision kind, broken one slot at a time
    docs = [to_position(s) for s in states]
    for i in range(1500):
        what, doc = mutate(r.choice(docs), r)

        def read_as_given(s: CardsState, doc: Any = doc, i: int = i) -> str | None:
            return shape_differs(doc, to_position(s), {".pending.context"}) or possible(s, seed=i)

        tally.run(what, partial(from_position, doc), read_as_given)

    # views: the mover's and a spectator's, broken one slot at a time
    views: list[tuple[dict[str, Any], int | None]] = [
        (s.view(max(s.seat, 0)), max(s.seat, 0)) for s in states
    ]
    views += [(s.view(None), None) for s in states]
    for i in range(700):
        v, seat = r.choice(views)
        what, w = mutate(v, r)

        def same_view(t: CardsState, w: Any = w, seat: int | None = seat) -> str | None:
            # `==` takes 0 for false and true for 1: the view given must also have the
            # JSON types of the view the sample shows.
            mine = t.view(seat)
            return shape_differs(w, mine) or (
                None if mine == w else "the sample shows another view"
            )

        tally.run(what, partial(CARDS.sample_from_view, w, Rng(i)), same_view)

    # view(seat): anything at all as the seat
    for _ in range(300):
        s = r.choice(states)
        seat = r.choice([*WRONG, *range(-2, 6), None, 0.0, "1", [0]])

        def seat_fine(v: Any, s: CardsState = s, seat: Any = seat) -> str | None:
            ok = seat is None or (type(seat) is int and 0 <= seat < s.players)
            return None if ok and v["viewer"] == seat else f"view({seat!r}) accepted"

        tally.run(repr(seat), partial(s.view, seat), seat_fine)

    print(f"\ncards fuzz: {tally.line()}")
    assert tally.counts["tried"] >= 5000
    assert tally.counts["traceback"] == 0, tally.problems
    assert tally.counts["hang"] == 0, tally.problems
    assert tally.counts["impossible-accepted"] == 0, tally.problems
    assert tally.counts["clean error"] > tally.counts["tried"] // 2


def test_a_view_with_another_json_type_is_refused() -> None:
    """`"over": 0` for false, or `true` for the 1 in `decision.context`, equals the view's
    own value in Python but is another JSON value: no state shows it (RecordError), and
    neither sampling nor drawing the view accepts it."""
    s = CARDS.new_game(3, 5)
    view = s.view(s.seat)
    assert view["over"] is False and view["decision"]["context"]["action"] == 1
    broken = []
    for path, value in ((("over",), 0), (("decision", "context", "action"), True)):
        w = copy.deepcopy(view)
        box = w
        for key in path[:-1]:
            box = box[key]
        box[path[-1]] = value
        broken.append(w)
    for w in broken:
        with pytest.raises(RecordError, match="view"):
            CARDS.sample_from_view(w, Rng(0))
        with pytest.raises(RecordError, match="view"):
            CARDS.render_view(w)

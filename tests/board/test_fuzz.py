"""A small, seeded fuzz run over everything that reads input from outside: the notation
parser (through `apply`), action objects built in code (`is_legal` and `apply`),
`from_position`, `sample_from_view`, `view` and the record reader. Each input is bounded in size. An input may be refused with a project error
(a clean error) or accepted (then the state must still be one the rules can reach);
anything else (or an error citing a card-game ruling, C-n) is counted as a traceback,
an input that takes over a second as a hang,
and a refused action that changed the state or an accepted impossible state as
impossible-accepted. Those three must stay at zero.

    tried / clean error / accepted-fine / traceback / hang / impossible-accepted
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from typing import Any

from euphrates.board import BOARD
from euphrates.board.position import from_position, to_position
from euphrates.board.state import BoardState
from euphrates.core.errors import EuphratesError
from euphrates.core.rng import Rng
from euphrates.match.records import GameRecord, replay
from tests.board.invariants import check_state
from tests.board.pending import PENDING
from tests.json_shape import shape_differs

HANG_SECONDS = 1.0

_PIECES = [
    *"rbgkPFTKxX-ABFGHKPZabp0123456789 ",
    "²",
    "³",
    "⁴",
    "٣",
    "５",
    "ı",
    "ſ",
    "K",  # the Kelvin sign lowers to 'k'
    "\u00a0",
    "\t",
    "\x00",
    "commit ",
    "treasure ",
    "monument ",
    "war ",
    "swap ",
    "pass",
    "decline",
    "tile ",
    "on ",
    "red ",
    "king ",
]
_BAD: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.0,
    0.5,
    2**63,
    2**64 + 5,
    10**30,
    -(2**70),
    "",
    "x",
    "red",
    "F4",
    "f4",
    "Z99",
    "²",
    [],
    {},
    [None],
    ["F4", "F4"],
    {"count": 3},
    {"count": -1},
    {"red": 1},
    [[0, "red", 1, "tile"]],
    "9" * 400,
]


class Tally:
    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.examples: dict[str, str] = {}

    def run(self, label: str, attempt: Callable[[], bool]) -> None:
        """`attempt` returns True when what it accepted is sound, False when not."""
        self.counts["tried"] += 1
        start = time.perf_counter()
        try:
            outcome = "accepted-fine" if attempt() else "impossible-accepted"
        except EuphratesError as e:
            outcome = "clean error"
            if re.search(r"\bC-\d", str(e)):  # a card-game ruling in a board-game error
                outcome = "traceback"
                self.examples.setdefault(outcome, f"{label}: {e}"[:300])
        except Exception as e:  # counted: what a hostile input must never cause
            outcome = "traceback"
            self.examples.setdefault(outcome, f"{label}: {type(e).__name__}: {e}"[:300])
        if time.perf_counter() - start > HANG_SECONDS:
            outcome = "hang"
            self.examples.setdefault(outcome, label[:300])
        if outcome == "impossible-accepted":
            self.examples.setdefault(outcome, label[:300])
        self.counts[outcome] += 1

    def line(self) -> str:
        keys = ("tried", "clean error", "accepted-fine", "traceback", "hang")
        return " / ".join(str(self.counts[k]) for k in (*keys, "impossible-accepted"))


def _text(rng: Rng) -> str:
    n = 1 + rng.below(6)
    text = "".join(_PIECES[rng.below(len(_PIECES))] for _ in range(n))
    if rng.below(10) == 0:
        text += "9" * rng.below(600)
    return text


def _near_legal(st: BoardState, rng: Rng) -> str:
    """A legal action's text, often with one character changed."""
    legal = st.legal_actions()
    text = str(legal[rng.below(len(legal))])
    if rng.below(2):
        k = rng.below(len(text))
        text = text[:k] + _PIECES[rng.below(len(_PIECES))] + text[k + 1 :]
    return text


def _sound(st: BoardState) -> bool:
    """The state passes the property tests' invariants and reloads exactly."""
    try:
        check_state(st)
        doc = to_position(st)
        return to_position(from_position(json.loads(json.dumps(doc)))) == doc
    except AssertionError:
        return False


def _states() -> list[BoardState]:
    out = [make() for make in PENDING.values()]
    game = BOARD.new_game(3, 17, {"advanced": True})
    rng = Rng(17)
    for _ in range(60):
        game.apply(game.random_action(rng))
    out.append(game)
    return out


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out: list[tuple[Any, ...]] = []
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, list):
        items = enumerate(value[:4])
    else:
        return out
    for k, v in items:
        out.append((*prefix, k))
        out.extend(_paths(v, (*prefix, k)))
    return out


def _mutate(doc: dict[str, Any], rng: Rng) -> tuple[dict[str, Any], str]:
    out = copy.deepcopy(doc)
    notes = []
    for _ in range(1 + rng.below(3)):
        paths = _paths(out)
        if not paths:
            break
        path = paths[rng.below(len(paths))]
        target: Any = out
        for key in path[:-1]:
            target = target[key]
        how = rng.below(4)
        if how == 0 and isinstance(target, dict):
            del target[path[-1]]
            notes.append(f"del {path}")
        elif how == 1:
            other = paths[rng.below(len(paths))]
            source: Any = out
            try:
                for key in other:
                    source = source[key]
            except (KeyError, IndexError, TypeError):
                continue
            target[path[-1]] = copy.deepcopy(source)
            notes.append(f"{path} = value of {other}")
        else:
            value = _BAD[rng.below(len(_BAD))]
            target[path[-1]] = copy.deepcopy(value)
            notes.append(f"{path} = {value!r}"[:80])
    return out, "; ".join(notes)


def test_fuzz_board_inputs() -> None:
    tally = Tally()
    rng = Rng(2024)
    states = _states()

    # 1. Notation, through apply: refused means unchanged, accepted means still sound.
    for i in range(2000):
        st = states[i % len(states)].copy()
        text = _text(rng) if i % 3 else _near_legal(st, rng)
        before = to_position(st)

        def act(st: BoardState = st, text: str = text, before: Any = before) -> bool:
            try:
                st.apply(text)
            except EuphratesError:
                if to_position(st) != before:
                    raise AssertionError("a refused action changed the state") from None
                raise
            return _sound(st)

        tally.run(f"apply {text!r}", partial(_refusal_kept, act))

    # 1b. Action objects built in code: a legal action with one field replaced, through
    # is_legal and apply (refused means unchanged; applied means is_legal said yes).
    for i in range(600):
        st = states[i % len(states)].copy()
        legal = st.legal_actions()
        action: Any = legal[rng.below(len(legal))]
        names = [f.name for f in dataclasses.fields(action)]
        if names:
            name = names[rng.below(len(names))]
            value = _BAD[rng.below(len(_BAD))] if rng.below(4) else rng.below(200) - 20
            if name == "counts" and rng.below(2):
                value = (value, 0, 0, 0)
            action = dataclasses.replace(action, **{name: value})
        before = to_position(st)

        def act_object(st: BoardState = st, a: Any = action, before: Any = before) -> bool:
            legal_now = st.is_legal(a)
            try:
                st.apply(a)
            except EuphratesError:
                if to_position(st) != before or legal_now:
                    raise AssertionError("refused, but said legal or changed") from None
                raise
            return legal_now and _sound(st)

        tally.run(f"apply {action!r}", partial(_refusal_kept, act_object))

    # 2. Positions.
    docs = [to_position(st) for st in states]
    for i in range(1000):
        bad, note = _mutate(docs[i % len(docs)], rng)
        tally.run(f"from_position {note}", partial(_read_as_given, bad))

    # 3. Views, of every seat and a spectator.
    views = [st.view(s) for st in states for s in (*range(st.players), None)]
    for i in range(500):
        view = views[i % len(views)]
        bad, note = _mutate(view, rng)

        def sample(bad: dict[str, Any] = bad) -> bool:
            st = BOARD.sample_from_view(bad, rng)
            shown = st.view(bad["viewer"])
            return json.dumps(shown, sort_keys=True) == json.dumps(bad, sort_keys=True) and (
                _sound(st)
            )

        tally.run(f"sample_from_view {note}", sample)

    # 4. view(seat) with anything as the seat.
    for i in range(300):
        st = states[i % len(states)]
        seat = _BAD[rng.below(len(_BAD))] if rng.below(4) else rng.below(6) - 1
        tally.run(f"view({seat!r})", partial(_gives_a_view, st, seat))

    # 5. Records: mutated documents and corrupted texts, replayed.
    record = _short_record()
    text = record.dumps()
    rdoc = record.to_json()
    for i in range(300):
        if i % 2:
            bad, note = _mutate(rdoc, rng)
            source = json.dumps(bad)
        else:
            k = rng.below(len(text))
            piece = _PIECES[rng.below(len(_PIECES))] * (1 + rng.below(3))
            source = text[:k] + piece + text[k + rng.below(3) :]
            note = f"text edit at {k}"
        tally.run(f"record {note}", partial(_replays, source))
    for source in ("[" * 100_000, '{"a":' * 50_000, "9" * 10_000):
        tally.run("record nesting", partial(_replays, source))

    print(
        "\nboard fuzz: tried / clean error / accepted-fine / traceback / hang / "
        f"impossible-accepted = {tally.line()}"
    )
    bad = {k: tally.counts[k] for k in ("traceback", "hang", "impossible-accepted")}
    assert bad == {"traceback": 0, "hang": 0, "impossible-accepted": 0}, tally.examples
    assert tally.counts["clean error"] > tally.counts["tried"] // 2


def _read_as_given(doc: dict[str, Any]) -> bool:
    """Accepted means sound, and shaped as `to_position` writes it: nothing left out and
    read as a default, no `true` taken for 1 (only the derived bordered treasures may be
    left out)."""
    st = from_position(doc)
    optional = {".board.bordered_treasures"}
    return shape_differs(doc, to_position(st), optional) is None and _sound(st)


def _refusal_kept(act: Callable[[], bool]) -> bool:
    """An action refused with a changed state is an impossible state accepted."""
    try:
        return act()
    except AssertionError:
        return False


def _short_record() -> GameRecord:
    state = BOARD.new_game(2, 31)
    rng = Rng(31)
    texts = []
    for _ in range(40):
        action = state.random_action(rng)
        texts.append(str(action))
        state.apply(action)
    return GameRecord("board", 2, 31, {}, ["a", "b"], texts)


def _gives_a_view(st: BoardState, seat: Any) -> bool:
    return isinstance(st.view(seat), dict)


def _replays(source: str) -> bool:
    state = replay(GameRecord.loads(source))
    return not isinstance(state, BoardState) or _sound(state)

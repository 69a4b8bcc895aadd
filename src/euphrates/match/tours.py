"""The guided first games: one scripted line per game that a new player plays through
against a scripted opponent, meeting each of the game's main events on the way.

A line is what a game is (players, options, seed) plus every action of both seats in
order, and the lessons: the versions where the learner's move teaches something (a
tile, a leader, a revolt, a war, a monument, a treasure) and the notes shown after an
event. Lines are frozen in `tours/<game>.json` so the tour is the same every time and
does not change when the bots learn something new; `find_line` wrote them (`python -m
euphrates.match.tours board`), `check_line` replays one in the engine and names the
version where each promised event happens.

The learner sits at seat 0. A line is public by design (the tour is the same deal for
everyone), but the server still hands the page only the move it expects now.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from euphrates.bots.levels import make_bot
from euphrates.core.protocol import Event, GameState
from euphrates.core.rng import Rng
from euphrates.games import game_definition

LEARNER = 0
HERE = Path(__file__).parent / "tours"

# What each lesson is, as the engine's events say it: (event kind, the field naming
# the learner). The card game's monument is its ship (C-15), its treasure the
# exchange of treasure cards (C-14).
TARGETS: dict[str, dict[str, tuple[str, str]]] = {
    "board": {
        "tile": ("tile_placed", "seat"),
        "leader": ("leader_placed", "seat"),
        "revolt": ("revolt", "attacker"),
        "war": ("war", "attacker"),
        "monument": ("monument_built", "seat"),
        "treasure": ("treasure_taken", "seat"),
    },
    "cards": {
        "tile": ("card", "seat"),
        "leader": ("leader", "seat"),
        "revolt": ("revolt", "attacker"),
        "war": ("war", "attacker"),
        "monument": ("ship", "seat"),
        "treasure": ("exchange", "seat"),
    },
}
LESSONS = ("tile", "leader", "revolt", "war", "monument", "treasure")


@dataclass(frozen=True)
class Line:
    game: str
    players: int
    options: dict[str, bool]
    seed: int
    actions: tuple[str, ...]
    lessons: dict[int, str]
    """version (before the learner's move) -> lesson key"""

    def expected(self, version: int) -> str | None:
        return self.actions[version] if 0 <= version < len(self.actions) else None

    def public(self) -> dict[str, Any]:
        """What the page may know of the line: where the lessons are, not the moves."""
        return {
            "length": len(self.actions),
            "lessons": [{"version": v, "key": k} for v, k in sorted(self.lessons.items())],
        }


def _involves(event: Event, game: str, lesson: str) -> bool:
    kind, field = TARGETS[game][lesson]
    data = event.data if isinstance(event.data, dict) else {}
    return event.kind == kind and data.get(field) == LEARNER


def lessons_of(game: str, events: list[Event]) -> list[str]:
    """The lessons these events are about (the learner's tile, revolt, …)."""
    return [k for k in LESSONS if any(_involves(e, game, k) for e in events)]


def load_line(game: str) -> Line:
    doc = json.loads((HERE / f"{game}.json").read_text(encoding="utf-8"))
    return Line(
        game=doc["game"],
        players=doc["players"],
        options=dict(doc["options"]),
        seed=doc["seed"],
        actions=tuple(doc["actions"]),
        lessons={int(v): k for v, k in doc["lessons"].items()},
    )


def check_line(line: Line) -> dict[str, int]:
    """Replay the line in the engine (every action legal for the seat to move) and
    return the version after which each lesson's event and the end happened; raises
    the engine's error on an illegal action, AssertionError if the line does not end
    the game or a lesson is not where the line says."""
    definition = game_definition(line.game)
    state = definition.new_game(line.players, line.seed, line.options)
    reached: dict[str, int] = {}
    for version, text in enumerate(line.actions):
        assert not state.is_over(), f"the game ended before version {version}"
        events = state.apply(text, seat=state.to_move(), version=version)
        for k in lessons_of(line.game, events):
            reached.setdefault(k, version)
        if version in line.lessons:
            key = line.lessons[version]
            assert key in lessons_of(line.game, events), (
                f"lesson {key} at version {version} is not about the learner's move"
            )
        if any(e.kind == "game_over" for e in events):
            reached["end"] = version
    assert state.is_over(), "the line does not end the game"
    return reached


# --- finding a line (run by hand; the result is frozen in tours/<game>.json) ------------


def _commit_all(state: GameState[Any]) -> str:
    texts = state.legal_texts()
    commits = [t for t in texts if t.startswith("commit ")]
    return max(commits, key=lambda t: int(t.split()[1])) if commits else texts[0]


def _learner_move(game: str, state: GameState[Any], seen: set[str], rng: Rng) -> str:
    """A move that brings a lesson not met yet, else a plain one."""
    decision = state.decision()
    assert decision is not None
    if decision.kind == "commit":
        return _commit_all(state)
    texts = state.legal_texts()
    wanted = [k for k in LESSONS if k not in seen]
    best: tuple[int, str] | None = None
    for text in texts:
        trial = state.copy()
        events = trial.apply(text)
        follow = trial.decision()
        if follow is not None and follow.seat == LEARNER and follow.kind in ("ship", "exchange"):
            for answer in trial.legal_texts():
                events = events + trial.copy().apply(answer)
        for k in lessons_of(game, events):
            if k in wanted and (best is None or wanted.index(k) < best[0]):
                best = (wanted.index(k), text)
    if best is not None:
        return best[1]
    toward = TOWARD.get(game)
    step = None if toward is None else toward(state, texts, wanted, rng)
    return _plain(texts, rng) if step is None else step


def _cards_toward(
    state: GameState[Any], texts: list[str], wanted: list[str], rng: Rng
) -> str | None:
    """The card game's steps toward a ship (a card below a run of its colour, C-15)
    and a treasure exchange (the trader out, then bridges, C-14)."""
    doc = game_definition("cards").to_position(state)
    if "treasure" in wanted:
        if doc["leaders"][LEARNER]["T"] is None:
            traders = [t for t in texts if t.startswith("T") and t.endswith(".0")]
            if traders:
                return traders[rng.below(len(traders))]
        bridges = [t for t in texts if t[0] in "rbgk" and "-" in t]
        if bridges and rng.below(2):
            return bridges[rng.below(len(bridges))]
    if "monument" in wanted:
        best: tuple[int, int, str] | None = None
        for text in texts:
            if text[0] not in "rbgk" or not text[1:].isdigit():
                continue
            column = doc["layout"]["columns"][int(text[1:]) - 1]
            run = 0
            for card in reversed(column):
                if card != text[0]:
                    break
                run += 1
            key = (run, rng.below(1 << 20), text)
            if best is None or key > best:
                best = key
        if best is not None:
            return best[2]
    return None


COLOURS = {"r": "red", "b": "blue", "g": "green", "k": "black"}


def _toward_monument(state: GameState[Any], texts: list[str], rng: Rng) -> str | None:
    """The tile placement with most tiles of its colour in a 2x2 block around it (a
    monument needs four, B-28), if any has at least one."""
    tiles = game_definition("board").to_position(state)["board"]["tiles"]

    def at(square: str) -> tuple[int, int]:
        return ord(square[0]) - ord("A"), int(square[1:])

    best: tuple[int, int, str] | None = None
    for text in texts:
        if len(text) < 3 or text[0] not in COLOURS or not text[1].isupper():
            continue
        x, y = at(text[1:])
        own = {at(q) for q in tiles.get(COLOURS[text[0]], [])}
        count = max(
            sum((x + dx + i, y + dy + j) in own for i in (0, 1) for j in (0, 1))
            for dx in (0, -1)
            for dy in (0, -1)
        )
        key = (count, rng.below(1 << 20), text)
        if count and (best is None or key > best):
            best = key
    return None if best is None else best[2]


def _board_toward(
    state: GameState[Any], texts: list[str], wanted: list[str], rng: Rng
) -> str | None:
    """The board's step toward a monument; its other lessons come by chance."""
    return _toward_monument(state, texts, rng) if "monument" in wanted else None


TOWARD: dict[str, Callable[[GameState[Any], list[str], list[str], Rng], str | None]] = {
    "board": _board_toward,
    "cards": _cards_toward,
}
"""The finder's steps toward the lessons that random moves seldom bring, by game: its
own per-game search, run by hand (a game without one plays plainly)."""


def _plain(texts: list[str], rng: Rng) -> str:
    """A random move that is not a catastrophe, swap or pass when another is legal."""
    calm = [t for t in texts if not t.startswith(("x", "swap", "pass"))]
    pool = calm or texts
    return pool[rng.below(len(pool))]


def find_line(game: str, seed: int, limit: int = 1500) -> tuple[Line, dict[str, int]] | None:
    """Play the learner's lesson-seeking moves against a calm random opponent (which
    never commits, so the learner's conflicts are won) until every lesson was met,
    then greedy bots to the end; None if a lesson never came or the game ran long."""
    definition = game_definition(game)
    state = definition.new_game(2, seed, {})
    rng = Rng(seed)
    tail = [make_bot("greedy", seed + i) for i in range(2)]
    actions: list[str] = []
    lessons: dict[int, str] = {}
    seen: set[str] = set()
    while not state.is_over():
        if len(actions) > limit:
            return None
        seat = state.to_move()
        decision = state.decision()
        assert seat is not None and decision is not None
        if len(seen) == len(LESSONS):
            text = tail[seat].choose(definition, state.view(seat))
        elif seat == LEARNER:
            text = _learner_move(game, state, seen, rng)
        elif decision.kind == "commit":
            text = "commit 0"
        else:
            text = _plain(state.legal_texts(), rng)
        version = len(actions)
        events = state.apply(text)
        actions.append(text)
        for k in lessons_of(game, events):
            if k not in seen:
                seen.add(k)
                lessons[version] = k
    if len(seen) < len(LESSONS):
        print(seed, "missed", sorted(set(LESSONS) - seen), flush=True)
        return None
    line = Line(game, 2, {}, seed, tuple(actions), lessons)
    return line, check_line(line)


def main(argv: list[str]) -> None:
    game, first, last = argv[0], int(argv[1]), int(argv[2])
    best: tuple[int, Line] | None = None
    for seed in range(first, last):
        found = find_line(game, seed)
        if found is None:
            continue
        line, reached = found
        span = max(reached[k] for k in LESSONS)
        print(seed, len(line.actions), span, reached, flush=True)
        if best is None or (span, len(line.actions)) < (best[0], len(best[1].actions)):
            best = (span, line)
    if best is not None:
        line = best[1]
        doc = {
            "game": line.game,
            "players": line.players,
            "options": line.options,
            "seed": line.seed,
            "lessons": {str(v): k for v, k in sorted(line.lessons.items())},
            "actions": list(line.actions),
        }
        HERE.mkdir(exist_ok=True)
        (HERE / f"{game}.json").write_text(json.dumps(doc, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main(sys.argv[1:])

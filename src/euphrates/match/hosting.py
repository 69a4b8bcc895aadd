"""One game of a tournament, hosted: its setup, its seats, its result.

Both hosts use this: a tournament playing in its own process (`tournament`) and each
job process playing its share of the games (`jobs`). The host holds the true state;
every bot plays in a worker process of its own (`bots.remote`) and sees only views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from euphrates.bots.remote import BotError, RemoteBot, WorkerProcess
from euphrates.core.seeds import bot_seed, game_seed
from euphrates.match.play import MAX_DECISIONS, UnfinishedGame, play_game


@dataclass(frozen=True)
class Setup:
    """What makes a tournament: the same setup plays the same games."""

    game: str
    players: int
    entrants: tuple[str, ...]
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    max_decisions: int = MAX_DECISIONS

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "entrants": list(self.entrants),
            "seed": self.seed,
            "options": dict(self.options),
            "max_decisions": self.max_decisions,
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Setup:
        return cls(
            doc["game"],
            doc["players"],
            tuple(doc["entrants"]),
            doc["seed"],
            dict(doc["options"]),
            doc["max_decisions"],
        )


@dataclass
class GameResult:
    """One game's result; `places` is empty for a game stopped unfinished (it is left
    out of the table and counted apart)."""

    index: int
    entrants: list[str]  # by seat
    places: list[int]  # by seat
    weakest: list[int]  # weakest colour total by seat
    seconds: list[float]
    decisions: list[int]
    record_path: str | None
    iterations: list[int]

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        del doc["record_path"]
        return doc

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], record_path: str | None = None) -> GameResult:
        return cls(
            int(doc["index"]),
            list(doc["entrants"]),
            list(doc["places"]),
            list(doc["weakest"]),
            list(doc["seconds"]),
            list(doc["decisions"]),
            record_path,
            list(doc["iterations"]),
        )


@dataclass
class PlayedOne:
    """A game as a host hands it back: its result, its record and the record's name."""

    result: GameResult
    record_name: str
    record_text: str


def seating(entrants: Sequence[str], players: int, game_index: int) -> list[str]:
    """Entrants by seat for game `game_index`: a rotation of the list."""
    r = game_index % players
    return [entrants[(s + r) % players] for s in range(players)]


def play_one(setup: Setup, index: int, workers: Sequence[WorkerProcess] | None = None) -> PlayedOne:
    """Host game `index`: the state stays here, each seat's bot plays in `workers[seat]`
    (workers of its own, closed afterwards, when none are given). A bot that fails is a
    BotError naming the game."""
    seats = seating(setup.entrants, setup.players, index)
    own = [] if workers is not None else [WorkerProcess() for _ in seats]
    bots = [
        RemoteBot(spec, bot_seed(setup.seed, index, s), worker=(workers or own)[s])
        for s, spec in enumerate(seats)
    ]
    try:
        played = play_game(
            setup.game,
            bots,
            game_seed(setup.seed, index),
            dict(setup.options),
            seats,
            setup.max_decisions,
        )
    except UnfinishedGame as stopped:
        n = len(seats)
        result = GameResult(index, seats, [], [], [0.0] * n, [0] * n, None, [0] * n)
        return PlayedOne(result, f"game-{index:05d}-unfinished.json", stopped.record.dumps())
    except BotError as e:
        raise BotError(f"game {index}: {e}") from None
    finally:
        for w in own:
            w.close()
    out = played.state.outcome()
    assert out is not None
    result = GameResult(
        index,
        seats,
        list(out.places),
        [min(t) for t in out.totals],
        played.seconds,
        played.decisions,
        None,
        [b.total_iterations for b in bots],
    )
    return PlayedOne(result, f"game-{index:05d}.json", played.record.dumps())


def seat_workers(workers: list[WorkerProcess], players: int) -> None:
    """One living worker per seat: those of the last game, a new one where one died."""
    for s in range(players):
        if s == len(workers):
            workers.append(WorkerProcess())
        elif not workers[s].alive:
            workers[s].close(grace=0)
            workers[s] = WorkerProcess()

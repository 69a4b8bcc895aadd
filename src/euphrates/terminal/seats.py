"""Who sits where: the person and the bots of one terminal game, as a record keeps them.

A record's `seats` names every seat: `"you"` for the person at the keyboard and
`"bot:SPEC"` for a bot (`bot:intermediate`, `bot:mcts:1s`). A resumed game takes its
seats, bots and options from the record alone, so no one can resume a game in another
seat and read that seat's hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import euphrates.core.seeds as seeds
from euphrates.bots import remote
from euphrates.bots.levels import LEVELS, make_bot
from euphrates.core.errors import RecordError
from euphrates.core.protocol import GameDefinition, View

PERSON = "you"
BOT_PREFIX = "bot:"


class Player(Protocol):
    """What the terminal needs of a bot: an answer for its own view. (One that reads
    the public history beside it says so with `reads_history`, as bots.base.Bot.)"""

    def choose(self, game: GameDefinition[Any], view: View) -> str: ...


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's seed, one-way from the game's seed in a domain of its own
    (`core.seeds`): knowing a bot's seed (or its play) tells nothing about the seed
    that shuffled the bag or deck."""
    return seeds.bot_seed(game_seed, 0, seat)


def spawn_bot(spec: str, seed: int) -> Player:
    """The one place where the terminal seats a bot: in a worker process of its own,
    which is sent only that seat's views and holds nothing else of the game."""
    return remote.spawn_bot(spec, seed)


def close_bot(bot: object) -> None:
    close = getattr(bot, "close", None)
    if callable(close):
        close()


def check_bot_spec(spec: str) -> str:
    """The spec, normalised, or ValueError naming what is wrong (nothing is started)."""
    name = spec.strip().lower()
    if not name:
        raise ValueError("a bot name is empty; name bots like beginner,intermediate")
    make_bot(name, 0)
    return name


def bot_label(spec: str) -> str:
    """`intermediate (greedy)` for a level, the spec itself otherwise."""
    return f"{spec} ({LEVELS[spec]})" if spec in LEVELS else spec


def seat_list(players: int, person: int, bots: Sequence[str]) -> list[str]:
    """Seat names for a new game: the person at `person`, the bots in the others in seat
    order, the last bot named filling the seats left."""
    if not bots:
        raise ValueError("name at least one bot (--bots)")
    if len(bots) > players - 1:
        raise ValueError(
            f"{len(bots)} bots named for {plural_seats(players - 1)} (--players {players})"
        )
    specs = [check_bot_spec(b) for b in bots]
    specs += [specs[-1]] * (players - 1 - len(specs))
    it = iter(specs)
    return [PERSON if s == person else BOT_PREFIX + next(it) for s in range(players)]


def plural_seats(n: int) -> str:
    return "1 other seat" if n == 1 else f"{n} other seats"


def read_seats(seats: Sequence[str], players: int) -> tuple[int, dict[int, str]]:
    """The person's seat and the bot specs by seat from a record's `seats`.

    Records written before seats were kept this way name the person `you` and the bots
    by their label (`beginner (random)`); those are read too."""
    if len(seats) != players:
        raise RecordError(
            "record: it names no seats, so it cannot say which seat is yours; only games "
            "saved by 'euphrates play' can be resumed"
            if not seats
            else f"record: {players} players but {len(seats)} seats"
        )
    person: list[int] = []
    bots: dict[int, str] = {}
    for s, name in enumerate(seats):
        if name == PERSON:
            person.append(s)
            continue
        spec = name[len(BOT_PREFIX) :] if name.startswith(BOT_PREFIX) else name.split(" (")[0]
        try:
            bots[s] = check_bot_spec(spec)
        except ValueError:
            raise RecordError(
                f"record: seat {s} is {name!r}, neither 'you' nor a bot such as 'bot:greedy'"
            ) from None
    if len(person) != 1:
        raise RecordError(f"record: exactly one seat must be 'you' (the player), not {len(person)}")
    return person[0], bots

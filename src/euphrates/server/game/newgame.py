"""A new game's row and secrets, from what its creator asked for: the game, its players
and options as the engine checks them, each seat a person (with a fresh token) or a bot
of a level, a seed from the operating system, and the clock.

Nothing here touches storage or the rooms: the rooms store the row and hands the
secrets to the creator once (only their hashes are kept)."""

from __future__ import annotations

import secrets  # tests that deal every game from one seed replace it (tests/web)
from collections.abc import Sequence
from typing import Any

from euphrates.bots.levels import LEVELS
from euphrates.core.errors import EuphratesError
from euphrates.core.protocol import SEED_LIMIT
from euphrates.games import GAMES, game_definition
from euphrates.server.common import tokens
from euphrates.server.common.clock import Clock, ClockSpec
from euphrates.server.common.refusals import Refusal
from euphrates.server.store.rows import GameRow, SeatRow


def new_game_row(
    game: str,
    players: int,
    seats: Sequence[dict[str, Any]],
    options: dict[str, Any],
    seed: int | None = None,
    clock: ClockSpec | None = None,
    rated: bool = False,
    levels: frozenset[str] = frozenset(),
) -> tuple[GameRow, dict[int, str], str]:
    """The game's row, its seats' tokens by seat and the host's token; refused with
    `bad_request` naming what is wrong. `seed`: a deal chosen by the server itself (a
    guided game's line), else one from the operating system; `levels`: bot levels of
    registered drivers it may seat besides the workers' (drivers.py)."""
    if game not in GAMES:
        raise Refusal("bad_request", f"'game' must be one of {', '.join(GAMES)}")
    definition = game_definition(game)
    try:
        # The engine checks players and options exactly (ArgumentError names them).
        definition.new_game(players, 0, options)
    except EuphratesError as e:
        raise Refusal("bad_request", str(e)) from None
    if len(seats) != players:
        raise Refusal("bad_request", f"{players} players need {players} seats, not {len(seats)}")
    seat_rows: list[SeatRow] = []
    seat_tokens: dict[int, str] = {}
    for i, spec in enumerate(seats):
        kind = spec.get("kind")
        if kind == "human" and spec.get("level") is not None:
            raise Refusal("bad_request", f"seat {i}: a level is only for a bot")
        if kind == "human":
            token = tokens.new_token()
            seat_tokens[i] = token
            seat_rows.append(SeatRow(i, "human", None, None, tokens.token_hash(token), False))
        elif kind == "bot":
            level = spec.get("level")
            if level not in LEVELS and level not in levels:
                raise Refusal(
                    "bad_request",
                    f"seat {i}: a bot's level is one of {', '.join(LEVELS)}, not {level!r}",
                )
            seat_rows.append(SeatRow(i, "bot", level, None, None, True))
        else:
            raise Refusal("bad_request", f"seat {i}: 'kind' must be 'human' or 'bot'")
    host_token = tokens.new_token()
    status = "active" if not seat_tokens else "waiting"
    seed = secrets.randbelow(SEED_LIMIT) if seed is None else seed
    first = definition.new_game(players, seed, options).to_move() if status == "active" else None
    row = GameRow(
        id=tokens.new_game_id(),
        game=game,
        players=players,
        options=dict(options),
        seed=seed,
        status=status,
        host_hash=tokens.token_hash(host_token),
        seats=seat_rows,
        wake=first is not None and seat_rows[first].kind == "bot",
        clock=Clock.new(clock, players) if clock is not None and seat_tokens else None,
        rated=rated,
    )
    return row, seat_tokens, host_token

"""What a quick match wait asks for — a game, its players, a clock, the game's options —
checked, and written the one way every server compares: two waits share a table only
when they ask for exactly the same.

A clock is named: a real-time preset of server/common/clock.py (`fast`, `medium`,
`slow`) or days per move (`turn:1`, `turn:2`, `turn:3`, `turn:5`). Options are the
game's own (the registry's definitions, games.py), checked as a table's are; they are
kept as the ones that differ from the game's defaults, so `{}` and every option at its
default are the same wait.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from euphrates.core.errors import EuphratesError
from euphrates.games import GAMES, game_definition
from euphrates.server.common.clock import DAYS, GRACE, PRESETS, ClockSpec, realtime, turn_based
from euphrates.server.common.refusals import Refusal

CLOCKS: tuple[str, ...] = (*PRESETS, *(f"turn:{d}" for d in DAYS))
"""Every clock a wait may name: the real-time presets, then days per move."""
DEFAULT_CLOCK = "medium"
"""The clock of a wait that names none (BGA's T&E medium: 40 s a turn), and of every
wait before a wait could name one."""


def check(game: str, players: int, clock: str, options: Mapping[str, Any]) -> str:
    """Refuse (`bad_request`, naming what is wrong) a kind no table can be made of;
    the options as stored (see `options_key`)."""
    if game not in GAMES:
        raise Refusal("bad_request", f"'game' must be one of {', '.join(GAMES)}")
    definition = game_definition(game)
    if players not in definition.players:
        allowed = ", ".join(map(str, definition.players))
        raise Refusal(
            "bad_request", f"'players': a game of {game} has {allowed} players, not {players}"
        )
    if clock not in CLOCKS:
        raise Refusal("bad_request", f"'clock' must be one of {', '.join(CLOCKS)}, not {clock!r}")
    try:
        chosen = definition.read_options(dict(options))
    except EuphratesError as e:
        raise Refusal("bad_request", f"'options': {e}") from None
    return options_key(game, chosen)


def options_key(game: str, options: Mapping[str, bool]) -> str:
    """The options as a wait keeps them: those that differ from the game's defaults,
    as canonical JSON (`{}`: the standard rules)."""
    defaults = game_definition(game).options
    changed = {k: bool(v) for k, v in options.items() if defaults.get(k) != v}
    return json.dumps(changed, sort_keys=True, separators=(",", ":"))


def options_of(game: str, key: str) -> dict[str, bool]:
    """A wait's options, every one of the game's with its value."""
    try:
        return game_definition(game).read_options(json.loads(key))
    except (EuphratesError, ValueError):
        return dict(game_definition(game).options)


def clock_of(clock: str, day: float, grace: float = GRACE) -> ClockSpec:
    """The clock named: a real-time preset with the server's forfeit grace, or days
    per move (`day`: a day's length, shorter only in tests)."""
    if clock.startswith("turn:"):
        return turn_based(int(clock[5:]), day)
    return realtime(clock, grace=grace)

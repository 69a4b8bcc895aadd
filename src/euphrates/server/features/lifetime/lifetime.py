"""Lifetime statistics: which ended games count for their players, and when.

A game counts when it ends, by a follow-up of the write that ends it (its final
version, a duel's player leaving for good, an abort: Rooms.followup_makers), so an
account's figures change exactly when its game ends, once, whichever server stored
the end (store/lifetime.py). The rules:

- a game that ended `over` counts for every account seated at it, rated or not (the
  figures say how many were rated);
- a rated game `aborted` (left before it was played, docs/fair-play.md) is not a game
  played: each account seated counts it as aborted only;
- a game `abandoned` by its host is not a game played either: each account seated
  counts it as abandoned only (so that a host who ends a game they are losing is not
  spared the mark); one the server's admin ended (`euphrates admin end-game`, written
  outside any server) or `expired` counts for nobody;
- a game aborted or abandoned before it started (still waiting for its players)
  counts for nobody: nobody played it;
- the guided tour counts for nobody: the learner follows a script;
- only accounts get figures; bots (by level) and guests (all as one) are opponents.
"""

from __future__ import annotations

from typing import Any

from euphrates.core.protocol import GameState
from euphrates.server.game import lifecycle
from euphrates.server.game.room import Room
from euphrates.server.store.database import Followup
from euphrates.server.store.lifetime import counted

COUNTED = (lifecycle.Status.OVER, lifecycle.Status.ABORTED, lifecycle.Status.ABANDONED)


def maker(room: Room, after: GameState[Any], status: str | None) -> tuple[Followup, ...]:
    """The follow-up maker (Rooms.followup_makers): at a game's end that counts, what
    it adds to its accounts' figures (the seats are read in the end's transaction,
    so an account seated elsewhere meanwhile counts too)."""
    if status not in COUNTED or room.scripted:
        return ()
    if status != lifecycle.Status.OVER and room.row.status != lifecycle.Status.ACTIVE:
        return ()  # a table that never started (its host left it, say) was no game
    row = room.row
    return (counted(row.id, row.game, row.players, row.seed, row.options, row.rated, str(status)),)

"""What a tournament due does next (docs/tournaments.md), decided from what is stored:
start (or be cancelled for want of entrants), start its next round, or end.

Run by the store's claim (store/tournaments.py) inside the transaction that writes
the decision, so the same tournament is never moved on twice.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Collection
from datetime import datetime

from euphrates.games import game_definition
from euphrates.server.features.tournaments.pairing import History, Round, round_robin, swiss
from euphrates.server.features.tournaments.standings import Result, Standing, standings
from euphrates.server.game.newgame import new_game_row
from euphrates.server.store.rows import GameRow, SeatRow
from euphrates.server.store.tournament_rows import Plan, Table, Tournament

Apart = Callable[[list[int]], Awaitable[set[frozenset[int]]]]


def fewest(t: Tournament) -> int:
    """Entrants a tournament needs to start: a table's worth, or two when bots fill."""
    return 2 if t.bots else t.players


def active(t: Tournament, at_round: int) -> list[int]:
    """The entrants paired in round `at_round`: not withdrawn before it."""
    return [e.user_id for e in t.entrants if e.left_round is None or e.left_round >= at_round]


def results(t: Tournament) -> list[Result]:
    return [Result(tb.round, tb.seats, tb.places) for tb in t.tables if tb.game_id is not None]


def byes(t: Tournament) -> list[tuple[int, int]]:
    return [(tb.round, u) for tb in t.tables if tb.game_id is None for u in tb.seats if u]


def table_of(t: Tournament) -> list[Standing]:
    """The standings now (what the page shows, and what Swiss pairs by)."""
    return standings(((e.user_id, e.rating) for e in t.entrants), results(t), byes(t), t.players)


def game_row(
    t: Tournament, seats: list[int | None], names: dict[int, str], at: datetime
) -> GameRow:
    """A table's game, started: each person's seat tied to its account (its token never
    handed out), a bot of the tournament's level in a seat None, the first clock
    running (or, a bot first, the game due at once)."""
    specs = [
        {"kind": "human"} if u is not None else {"kind": "bot", "level": t.bots} for u in seats
    ]
    row, _tokens, _host = new_game_row(
        t.game, len(seats), specs, t.options, clock=t.clock, rated=t.rated
    )
    row.seats = [
        SeatRow(i, "human", None, names[u], row.seats[i].token_hash, True, u)
        if u is not None
        else row.seats[i]
        for i, u in enumerate(seats)
    ]
    row.status = "active"
    row.created_at = row.updated_at = at
    first = game_definition(t.game).new_game(len(seats), row.seed, t.options).to_move()
    assert first is not None
    if seats[first] is None:
        row.wake = True
    elif row.clock is not None:
        row.clock.pass_to(first, True, at)
    return row


def _tables(
    t: Tournament, rnd: Round, number: int, at: datetime
) -> list[tuple[Table, GameRow | None]]:
    names = {e.user_id: e.name for e in t.entrants}
    out: list[tuple[Table, GameRow | None]] = []
    for i, seats in enumerate(rnd.tables):
        people = [u for u in seats if u is not None]
        if not people:
            continue
        if len(seats) < 2 or (len(people) < 2 and t.bots is None):
            out.extend(_bye(number, len(out), u) for u in people)
            continue
        row = game_row(t, list(seats), names, at)
        out.append((Table(number, i, row.id, list(seats)), row))
    for u in rnd.byes:
        out.append(_bye(number, len(out), u))
    return out


def _bye(number: int, at: int, user: int) -> tuple[Table, GameRow | None]:
    return (Table(number, 1000 + at, None, [user], [1]), None)


async def decide(t: Tournament, at: datetime, apart: Apart) -> Plan | None:
    """The tournament's next step at `at`; None when nothing is due after all."""
    if t.status == "signup":
        if at < t.starts_at:
            return None
        entrants = active(t, 1)
        if len(entrants) < fewest(t):
            return Plan("cancelled", 0, t.rounds)
        if t.format == "robin":
            schedule = robin_schedule(t, entrants)
            plan = Plan("running", 1, len(schedule), schedule=schedule)
            plan.tables = _tables(t, _robin_round(t, schedule, 1), 1, at)
            return plan
        plan = Plan("running", 1, t.rounds)
        plan.tables = _tables(t, await _swiss_round(t, 1, apart), 1, at)
        return plan
    if t.status != "running":
        return None
    if any(tb.places is None for tb in t.tables if tb.round == t.round):
        return None  # a game of the round is still played
    if t.round >= t.rounds or len(active(t, t.round + 1)) < 2:
        return Plan("over", t.round, t.rounds)
    nxt = t.round + 1
    plan = Plan("running", nxt, t.rounds)
    if t.format == "robin":
        assert t.schedule is not None
        plan.tables = _tables(t, _robin_round(t, t.schedule, nxt), nxt, at)
    else:
        plan.tables = _tables(t, await _swiss_round(t, nxt, apart), nxt, at)
    return plan


async def _swiss_round(t: Tournament, number: int, apart: Apart) -> Round:
    playing = set(active(t, number))
    order = [s.user for s in table_of(t) if s.user in playing]
    history = History.of(
        (tb.seats for tb in t.tables if tb.game_id is not None),
        (u for _r, u in byes(t)),
    )
    # Accounts kept apart (one blocked the other; a shared device) count as having met.
    for pair in await apart(order) if len(order) > 1 else set():
        history.met[pair] += 1
    return swiss(order, t.players, history, t.bots is not None)


def robin_schedule(t: Tournament, entrants: Collection[int]) -> list[list[list[int | None]]]:
    """The round robin's rounds, fixed at the start: each round's tables, seats in
    order, and a last "table" of byes (`[..]` with the accounts sitting out)."""
    rounds = round_robin(sorted(entrants), t.players, t.bots is not None, t.seed)
    return [[*r.tables, list(r.byes)] for r in rounds]


def _robin_round(t: Tournament, schedule: list[list[list[int | None]]], number: int) -> Round:
    """Round `number` of the schedule, without the entrants withdrawn since: a bot
    takes their seat where bots may fill, else the table plays without them (a table
    left with one entrant is a bye for them)."""
    playing = set(active(t, number))
    *tables, sitting_out = schedule[number - 1]
    out: list[list[int | None]] = []
    extra = [u for u in sitting_out if u is not None and u in playing]
    for seats in tables:
        if t.bots is not None:
            out.append([u if u is None or u in playing else None for u in seats])
            continue
        kept = [u for u in seats if u is not None and u in playing]
        if len(kept) >= 2:
            out.append(list(kept))
        else:
            extra.extend(u for u in kept if u is not None)
    return Round(out, extra)


def new_seed() -> int:
    return secrets.randbelow(2**62)

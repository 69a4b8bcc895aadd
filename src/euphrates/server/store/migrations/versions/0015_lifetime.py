"""Lifetime statistics: an account's figures summed as its games end, per game and player count.

- `lifetime`: per account, game and number of players, the games ended `over` (rated
  or not), wins, the sums of places and final scores, the best score, those rated,
  those left for good, the rated games aborted, the games their host abandoned, and
  match/stats.py's figures summed.
- `lifetime_opponents`: head to head, per account, game, number of players and
  opponent (an account `u:<id>`, a bot `bot:<level>`, any `guest`): the games
  together and who finished above.
- `lifetime_games`: each ended game counted, once.

Filled here from the games ended before, each replayed from its stored log through
the registry (match/lifetime.py, as the servers count a game when it ends).

Revision ID: 0015_lifetime
Revises: 0014_friends
"""

from __future__ import annotations

import json
import logging
from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0015_lifetime"
down_revision = "0014_friends"
branch_labels = None
depends_on = None

log = logging.getLogger("euphrates.server")

SUMMED = (
    "revolts_won_attacking",
    "revolts_lost_attacking",
    "revolts_won_defending",
    "revolts_lost_defending",
    "wars_won_attacking",
    "wars_lost_attacking",
    "wars_won_defending",
    "wars_lost_defending",
    "monuments",
    "treasures",
    "catastrophes",
    "placed",
    "points_red",
    "points_blue",
    "points_green",
    "points_black",
)
ADDED = (
    "games",
    "wins",
    "places",
    "scored",
    "score",
    "rated",
    "left_early",
    "aborted",
    "abandoned",
    *SUMMED,
)
MET = ("games", "above", "below", "tied")


def _count(name: str) -> sa.Column[Any]:
    return sa.Column(name, sa.Integer, nullable=False, server_default="0")


def upgrade() -> None:
    op.create_table(
        "lifetime",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(8), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        *(_count(c) for c in ADDED[:5]),
        sa.Column("best", sa.Integer),
        *(_count(c) for c in ADDED[5:]),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "lifetime_opponents",
        sa.Column("user_id", sa.Integer, sa.ForeignKey("users.id"), primary_key=True),
        sa.Column("game", sa.String(8), primary_key=True),
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("opponent", sa.String(40), primary_key=True),
        sa.Column("opponent_id", sa.Integer, sa.ForeignKey("users.id")),
        *(_count(c) for c in MET),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "lifetime_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    _counted_before(op.get_bind())


def _counted_before(conn: sa.Connection) -> None:
    """The figures of every game that ended before this migration and counts (an
    account seated, not the guided tour, not ended by the server's admin), replayed
    from its log, added up in memory and written at once."""
    ended = conn.execute(
        sa.text(
            "SELECT id, game, players, seed, options, status, rated, updated_at FROM games g "
            "WHERE status IN ('over', 'aborted', 'abandoned') AND EXISTS (SELECT 1 FROM seats s "
            "JOIN users u ON u.id = s.user_id WHERE s.game_id = g.id AND NOT u.deleted) "
            "AND NOT EXISTS (SELECT 1 FROM seats t WHERE t.game_id = g.id AND t.level = 'tour') "
            "AND NOT EXISTS (SELECT 1 FROM notes n WHERE n.game_id = g.id AND n.kind = 'ended') "
            # a game that never started (a seat still free) was not played
            "AND NOT EXISTS (SELECT 1 FROM seats f WHERE f.game_id = g.id AND NOT f.taken) "
            "ORDER BY updated_at, id"
        )
    ).all()
    totals: dict[tuple[Any, ...], dict[str, Any]] = {}
    met: dict[tuple[Any, ...], dict[str, Any]] = {}
    done = []
    for g in ended:
        try:
            _one_game(conn, g, totals, met)
        except Exception as e:  # a record that no longer replays is left out, not fatal
            log.warning("lifetime: game %s is not counted: %s", g.id, e)
            continue
        done.append({"game_id": g.id, "status": g.status, "created_at": g.updated_at})
    for table, rows in (
        ("lifetime", list(totals.values())),
        ("lifetime_opponents", list(met.values())),
        ("lifetime_games", done),
    ):
        if rows:
            columns = list(rows[0])
            conn.execute(
                sa.text(
                    f"INSERT INTO {table} ({', '.join(columns)}) "
                    f"VALUES ({', '.join(':' + c for c in columns)})"
                ),
                rows,
            )


def _one_game(
    conn: sa.Connection,
    g: Any,
    totals: dict[tuple[Any, ...], dict[str, Any]],
    met: dict[tuple[Any, ...], dict[str, Any]],
) -> None:
    from euphrates.match.lifetime import (
        LEFT_FOR_GOOD,
        SeatFacts,
        credits,
        seat_results,
        standing,
    )

    seats = conn.execute(
        sa.text(
            "SELECT s.seat, s.kind, s.level, s.user_id, u.deleted FROM seats s "
            "LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = :g ORDER BY s.seat"
        ),
        {"g": g.id},
    ).all()
    accounts = sorted({int(s.user_id) for s in seats if s.user_id is not None and not s.deleted})
    players, at = int(g.players), g.updated_at

    def row(user: int) -> dict[str, Any]:
        key = (user, g.game, players)
        if key not in totals:
            totals[key] = {
                "user_id": user,
                "game": g.game,
                "players": players,
                **dict.fromkeys(ADDED, 0),
                "best": None,
                "last_at": at,
            }
        totals[key]["last_at"] = at
        return totals[key]

    if g.status != "over":
        for user in accounts:
            row(user)[str(g.status)] += 1  # aborted or abandoned
        return
    kinds = ", ".join(f"'{k}'" for k in LEFT_FOR_GOOD)
    left = [
        int(n.seat)
        for n in conn.execute(
            sa.text(
                f"SELECT seat FROM notes WHERE game_id = :g AND kind IN ({kinds}) "
                "AND seat IS NOT NULL ORDER BY id"
            ),
            {"g": g.id},
        )
    ]
    entries = conn.execute(
        sa.text("SELECT kind, text FROM log WHERE game_id = :g ORDER BY version"), {"g": g.id}
    ).all()
    options = json.loads(g.options) if isinstance(g.options, str) else dict(g.options or {})
    actions = standing((str(e.kind), e.text) for e in entries)
    results = seat_results(g.game, players, int(g.seed), options, actions, left)
    facts = [SeatFacts(str(s.kind), s.level, s.user_id) for s in seats]
    for c in credits(facts, results, left, accounts):
        r = row(c.user)
        r["games"] += 1
        r["wins"] += int(c.won)
        r["places"] += c.place
        r["rated"] += int(bool(g.rated))
        r["left_early"] += int(c.left)
        for k, n in c.counts.items():
            r[k] += n
        if c.score is not None:
            r["scored"] += 1
            r["score"] += c.score
            r["best"] = c.score if r["best"] is None else max(r["best"], c.score)
        for key, m in c.meetings.items():
            mk = (c.user, g.game, players, key)
            if mk not in met:
                met[mk] = {
                    "user_id": c.user,
                    "game": g.game,
                    "players": players,
                    "opponent": key,
                    "opponent_id": m.opponent,
                    **dict.fromkeys(MET, 0),
                    "last_at": at,
                }
            e = met[mk]
            e["games"] += 1
            e["above"] += m.above
            e["below"] += m.below
            e["tied"] += m.tied
            e["last_at"] = at


def downgrade() -> None:
    op.drop_table("lifetime_games")
    op.drop_table("lifetime_opponents")
    op.drop_table("lifetime")

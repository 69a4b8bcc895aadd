"""The arguments of `euphrates admin`, apart from the commands (admin.py), which need the
database layer: the `euphrates` command builds every subcommand's parser on each run,
and `euphrates replay` should not wait for SQLAlchemy to load."""

from __future__ import annotations

import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", default=None, help="database URL, as for `euphrates serve --db`")
    sub = p.add_subparsers(dest="admin_command", required=True)
    for name, text in (
        ("create-user", "create an account (its password from standard input)"),
        ("reset-password", "set an account's password (from standard input); ends its sessions"),
    ):
        sub.add_parser(name, help=text).add_argument("name")
    d = sub.add_parser("disable", help="disable an account: it cannot sign in; sessions end")
    d.add_argument("name")
    d.add_argument("--enable", action="store_true", help="enable it again")
    m = sub.add_parser("mute", help="mute an account: its chat lines are refused")
    m.add_argument("name")
    m.add_argument("--unmute", action="store_true", help="let it chat again")
    g = sub.add_parser("games", help="list games, newest change first")
    g.add_argument(
        "--status", choices=["waiting", "active", "over", "abandoned", "aborted", "expired"]
    )
    g.add_argument("--limit", type=int, default=50)
    s = sub.add_parser(
        "suspicious",
        help="pairs of accounts with many rated games together, and how many one of them left",
    )
    s.add_argument("--days", type=int, default=30, help="games of the last DAYS days")
    s.add_argument("--least", type=int, default=3, help="pairs with at least this many games")
    v = sub.add_parser(
        "void-game",
        help="a rated game counts for nobody; the ratings after it are computed again",
    )
    v.add_argument("game_id")
    e = sub.add_parser("end-game", help="end a game that is waiting or being played (abandoned)")
    e.add_argument(
        "game_id", help="the game's id (one made before ids stopped starting with - follows --)"
    )
    a = sub.add_parser("grant", help="make an account an admin: the admin page (/admin) is its")
    a.add_argument("name")
    a.add_argument("--revoke", action="store_true", help="no longer an admin")
    sub.add_parser("reports", help="reported chat lines and players, open and settled")

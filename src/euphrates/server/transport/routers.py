"""The HTTP API by concern, each an `APIRouter`: games (create, read, seats), play
(actions, undo, chat, the WebSocket), records (log, record, replays), host (bots for
players who left, abandon), clocks (a bot for a seat out of time), meta (what the server
offers, health), tours (the guided first games), account (sign-up, sessions, my games,
profiles, export, deletion, claims, reports), tables (the open tables, sitting down and
getting up, starting early, the lobby's WebSocket) and notifications (turn messages by
e-mail and webhook, the digest, a password change), ratings (leaderboards,
resigning a rated game), hints (the strong bot's move for a seat against bots),
quick match (a 2-player game now); app.py
assembles them with the pages. Each route is thin: its dependencies (deps.py) find the
game and open it with the caller's tokens, and the room, its audience or the hub
enforce the rules and the versions."""

from fastapi import APIRouter

from euphrates.server.features.accounts import routes as account
from euphrates.server.features.hints import routes as hints
from euphrates.server.features.notifications import routes as notifications
from euphrates.server.features.play import actions as play
from euphrates.server.features.play import clocks, host, meta, records
from euphrates.server.features.play import routes as games
from euphrates.server.features.quickmatch import routes as quickmatch
from euphrates.server.features.ratings import routes as ratings
from euphrates.server.features.tables import routes as tables
from euphrates.server.features.tour import routes as tours

ROUTERS: tuple[APIRouter, ...] = (
    games.router,
    play.router,
    records.router,
    host.router,
    clocks.router,
    meta.router,
    tours.router,
    account.router,
    tables.router,
    quickmatch.router,
    notifications.router,
    ratings.router,
    hints.router,
)

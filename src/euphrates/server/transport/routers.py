"""Every route of the HTTP API, gathered from the features that own them (each folder
of `features/` holds its routes beside its policy and its models) and the two
WebSockets (ws.py, lobby_socket.py); app.py assembles them with the pages. Each route
is thin: its dependencies (features/deps.py) find the game and open it with the
caller's tokens, and the room, its audience or a feature enforce the rules."""

from fastapi import APIRouter

from euphrates.server.features.accounts import routes as accounts
from euphrates.server.features.chat import routes as chat
from euphrates.server.features.fairplay import routes as fairplay
from euphrates.server.features.friends import routes as friends
from euphrates.server.features.hints import routes as hints
from euphrates.server.features.lifetime import routes as lifetime
from euphrates.server.features.moderation import routes as moderation
from euphrates.server.features.notifications import routes as notifications
from euphrates.server.features.play import host, meta, records
from euphrates.server.features.play import routes as play
from euphrates.server.features.quickmatch import routes as quickmatch
from euphrates.server.features.ratings import routes as ratings
from euphrates.server.features.reviews import routes as reviews
from euphrates.server.features.tables import routes as tables
from euphrates.server.features.tour import routes as tours
from euphrates.server.features.tournaments import routes as tournaments
from euphrates.server.transport import lobby_socket, ws

ROUTERS: tuple[APIRouter, ...] = (
    play.router,
    ws.router,
    chat.router,
    records.router,
    reviews.router,
    host.router,
    meta.router,
    tours.router,
    accounts.router,
    fairplay.router,
    tables.router,
    lobby_socket.router,
    quickmatch.router,
    friends.router,
    tournaments.router,
    notifications.router,
    ratings.router,
    lifetime.router,
    hints.router,
    moderation.router,
)

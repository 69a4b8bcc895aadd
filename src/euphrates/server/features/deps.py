"""What the routes depend on: the services, the rooms, the signed-in account, and a game
opened with the caller's tokens.

Tokens travel in `Authorization: Bearer <token>[,<token>…]`, never in a path or a
query, so no access log ever holds one. A token that opens nothing in the game is
refused (`bad_token`) before the route runs: a mistyped link must not look like a
spectator's.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated
from urllib.parse import urlsplit

from fastapi import Depends, Request
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from euphrates.server.common import tokens
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.services import Services
from euphrates.server.game.room import Room
from euphrates.server.game.rooms import GAME_ID, Rooms
from euphrates.server.store.accounts import User, csrf_token


def services_of(connection: HTTPConnection) -> Services:
    services: Services = connection.app.state.services
    return services


def rooms_of(connection: HTTPConnection) -> Rooms:
    return services_of(connection).rooms


ServicesDep = Annotated[Services, Depends(services_of)]
RoomsDep = Annotated[Rooms, Depends(rooms_of)]

GameId = Annotated[
    str,
    PathParam(
        description="the game's id (from its links)",
        json_schema_extra={"pattern": f"^{GAME_ID.pattern}$"},
    ),
]


def base_url(request: Request, services: ServicesDep) -> str:
    """The base of the links handed out: `--public-url`, else where the caller came."""
    return services.settings.public_url or str(request.base_url).rstrip("/")


def presented(request: Request) -> list[str]:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    if not header:
        return []
    if scheme.lower() != "bearer" or not value.strip():
        raise Refusal("bad_token", "send tokens as 'Authorization: Bearer <token>'")
    return [t.strip() for t in value.split(",") if t.strip()][: tokens.MAX_TOKENS]


SESSION_COOKIE = "euphrates_session"
CSRF_HEADER = "x-csrf-token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


@dataclass(frozen=True)
class Signed:
    """The account a request's session cookie signs in, and that session's id."""

    user: User
    session: str


def foreign(request: Request, services: Services) -> bool:
    """Whether the request comes from a page of another origin, by what browsers
    say: `Sec-Fetch-Site` (same-origin only) and `Origin` (this server's name, or
    `--public-url`'s). A client that is not a browser sends neither."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return True
    origin = request.headers.get("origin")
    if origin is None:
        return False
    ours = {request.headers.get("host", "").lower()}
    if services.settings.public_url:
        ours.add(urlsplit(services.settings.public_url).netloc.lower())
    netloc = urlsplit(origin).netloc.lower()
    return not netloc or netloc not in ours


async def signed_in(request: Request, services: ServicesDep) -> Signed | None:
    """The account of the request's session cookie, or None. A request that changes
    something and carries a live session must prove it comes from this server's own
    pages — the session's CSRF token in `X-CSRF-Token`, and no foreign origin — else
    it is refused (`csrf_failed`) whatever it asks: a cookie a browser sends by itself
    authorises nothing on its own."""
    session = request.cookies.get(SESSION_COOKIE)
    if not session or len(session) > 128:
        return None
    try:
        user = await services.accounts.store.session(session)
    except Exception as e:
        raise Refusal("storage_unavailable", f"the session could not be read: {e}") from None
    if user is None:
        return None
    if request.method not in SAFE_METHODS:
        sent = request.headers.get(CSRF_HEADER, "")
        valid = hmac.compare_digest(sent.encode(), csrf_token(session).encode())
        if not valid or foreign(request, services):
            raise Refusal("csrf_failed", "this request did not come from this server's pages")
    return Signed(user, session)


SignedDep = Annotated[Signed | None, Depends(signed_in)]


def user_of(signed: SignedDep) -> Signed:
    if signed is None:
        raise Refusal("not_signed_in", "sign in first")
    return signed


UserDep = Annotated[Signed, Depends(user_of)]


async def find_room(game_id: GameId, rooms: RoomsDep) -> Room:
    return await rooms.room(game_id)


RoomDep = Annotated[Room, Depends(find_room)]


@dataclass(frozen=True)
class Opened:
    """A game as the caller's tokens open it: the seats they hold, and whether one is
    the host's (none of either: a spectator)."""

    room: Room
    seats: frozenset[int]
    host: bool
    user: User | None = None


async def open_game(request: Request, room: RoomDep, signed: SignedDep) -> Opened:
    user = signed.user if signed else None
    seats, host = room.holder(presented(request), user)
    return Opened(room, seats, host, user)


OpenedDep = Annotated[Opened, Depends(open_game)]
BaseUrl = Annotated[str, Depends(base_url)]

"""What the routes depend on: the hub, and a game opened with the caller's tokens.

Tokens travel in `Authorization: Bearer <token>[,<token>…]`, never in a path or a
query, so no access log ever holds one. A token that opens nothing in the game is
refused (`bad_token`) before the route runs: a mistyped link must not look like a
spectator's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from fastapi import Path as PathParam
from starlette.requests import HTTPConnection

from euphrates.server import tokens
from euphrates.server.hub import GAME_ID, Hub
from euphrates.server.refusals import Refusal
from euphrates.server.room import Room
from euphrates.server.services import Services


def services_of(connection: HTTPConnection) -> Services:
    services: Services = connection.app.state.services
    return services


def hub_of(connection: HTTPConnection) -> Hub:
    return services_of(connection).hub


ServicesDep = Annotated[Services, Depends(services_of)]
HubDep = Annotated[Hub, Depends(hub_of)]

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


async def find_room(game_id: GameId, hub: HubDep) -> Room:
    return await hub.room(game_id)


RoomDep = Annotated[Room, Depends(find_room)]


@dataclass(frozen=True)
class Opened:
    """A game as the caller's tokens open it: the seats they hold, and whether one is
    the host's (none of either: a spectator)."""

    room: Room
    seats: frozenset[int]
    host: bool


async def open_game(request: Request, room: RoomDep, hub: HubDep) -> Opened:
    seats, host = hub.seats_of(room, presented(request))
    return Opened(room, seats, host)


OpenedDep = Annotated[Opened, Depends(open_game)]
BaseUrl = Annotated[str, Depends(base_url)]

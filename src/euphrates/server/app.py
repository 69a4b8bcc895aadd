"""The HTTP API and the application: routes, start-up and shutdown.

Start-up applies the migrations, starts the log writer and the bot workers, loads
every game whose next decision is a bot's (so a restarted server carries on), and on
PostgreSQL listens for other servers' notifications. The routes are thin: each one
checks the caller's token against the game and hands over to the room or the hub,
which enforce the rules and the versions; the WebSocket (ws.py) uses the same calls.

Tokens travel in `Authorization: Bearer <token>[,<token>…]`, never in a path or a
query, so no access log ever holds one.
"""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from euphrates.games import GAMES
from euphrates.server import db
from euphrates.server.audience import chat_json, meta_of
from euphrates.server.bots import BotPool
from euphrates.server.config import Settings, async_db_url
from euphrates.server.drivers import Drivers
from euphrates.server.guard import Buckets, Guard, client_address, refusal_response
from euphrates.server.hub import GAME_ID, Hub, seat_label
from euphrates.server.listen import Listener
from euphrates.server.models import (
    GAME,
    AssetsOut,
    ChatListOut,
    ChatOut,
    CreateOut,
    GameOnly,
    GameOut,
    HealthOut,
    JoinOut,
    LogOut,
    MapOut,
    MetaOut,
    ReplayOut,
    VersionOut,
    refusals,
)
from euphrates.server.refusals import Refusal
from euphrates.server.room import Room
from euphrates.server.schemas import (
    LAST_SEAT,
    MAX_INT,
    PLAYERS,
    ActionIn,
    BotIn,
    ChatIn,
    CreateIn,
    JoinIn,
    UndoIn,
    create_example,
)
from euphrates.server.store import Store
from euphrates.server.ws import serve_socket

log = logging.getLogger("euphrates.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

DESCRIPTION = """Play *Tigris & Euphrates* and *Contest of Kings* over HTTP and WebSocket.

Create a game (`POST /api/games`): you get one secret link per human seat, a host link
and a public spectator link. Send a link's token as `Authorization: Bearer <token>`;
several tokens (one client holding several seats) are separated by commas. Live play
uses the WebSocket `/api/games/{id}/ws` (see docs/server.md for its messages).
Every refusal is `{"error": {"code", "message", "ruling"}}` with a fitting status.
"""


class Services:
    """What the routes need, created at start-up."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.hub: Hub | None = None
        self.listener: Listener | None = None
        self.pool: BotPool | None = None
        self.created = Buckets(settings.games_per_hour / 3600, settings.games_per_hour)
        """Games each client address may still create (a bucket an hour wide)."""


GameId = Annotated[
    str,
    PathParam(
        description="the game's id (from its links)",
        json_schema_extra={"pattern": f"^{GAME_ID.pattern}$"},
    ),
]
ENDED = ("game_over", "abandoned")
PLAY = ("bad_token", "not_your_seat", "not_started", "stale_version", "wrong_seat", *ENDED)


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    services = Services(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = db.make_engine(async_db_url(settings.db_url))
        await db.migrate(engine)
        store = Store(engine, origin=secrets.token_hex(8))
        await store.start()
        pool = None
        if settings.bot_workers > 0:
            pool = BotPool(settings.bot_workers, settings.bot_command)
            await pool.start()
        services.pool = pool
        hub = Hub(store, settings, pool)
        services.hub = hub
        if not store.sqlite:
            services.listener = Listener(engine, hub)
            await services.listener.start()
        hub.start()
        # Games where a bot must move are claimed in the background: the server
        # answers at once, however many games are stored.
        drivers = Drivers(hub)
        await drivers.start()
        try:
            yield
        finally:
            if services.listener is not None:
                await services.listener.close()
            await drivers.stop()
            await hub.close()
            await drivers.leave()
            if pool is not None:
                await pool.close()
            await store.close()

    app = FastAPI(
        title="Euphrates game server",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    app.state.services = services
    generated = app.openapi

    def openapi() -> dict[str, Any]:
        """FastAPI's description without its validation errors' 422: this server
        answers a request it cannot read with 400 and its own error shape."""
        spec = generated()
        for methods in spec.get("paths", {}).values():
            for operation in methods.values():
                answer = operation.get("responses", {}).get("422", {})
                if "HTTPValidationError" in str(answer):
                    del operation["responses"]["422"]
        for name in ("HTTPValidationError", "ValidationError"):
            spec.get("components", {}).get("schemas", {}).pop(name, None)
        return spec

    app.openapi = openapi  # type: ignore[method-assign]
    # Static files and long histories compress well; WebSocket frames are left alone.
    app.add_middleware(GZipMiddleware, minimum_size=1024)

    def hub() -> Hub:
        assert services.hub is not None
        return services.hub

    requests = settings.requests_per_s or settings.rate_per_s * 5
    app.add_middleware(
        Guard,
        allowed_hosts=settings.hosts(),
        requests=Buckets(requests, requests * 2),
        max_body=settings.max_body,
    )
    if settings.trusted_proxies:
        # Outside the guard, so that its limits count the client the proxy names.
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))

    @app.exception_handler(Refusal)
    async def _refusal(_request: Request, r: Refusal) -> JSONResponse:
        return refusal_response(r)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, e: RequestValidationError) -> JSONResponse:
        errors = e.errors()
        if any(err.get("type") == "json_invalid" for err in errors):
            return refusal_response(Refusal("bad_json", "the request body is not JSON"))
        loc = [str(p) for p in errors[0].get("loc", ()) if p not in ("body", "path", "query")]
        return refusal_response(
            Refusal("bad_request", f"{'.'.join(loc)}: {errors[0].get('msg', 'invalid')}")
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "bad_request")
        message = {404: "no such path", 405: "that path does not take this method"}
        return refusal_response(Refusal(code, message.get(e.status_code, str(e.detail))))

    def base_url(request: Request) -> str:
        return settings.public_url or str(request.base_url).rstrip("/")

    def presented(request: Request) -> list[str]:
        header = request.headers.get("authorization", "")
        scheme, _, value = header.partition(" ")
        if not header:
            return []
        if scheme.lower() != "bearer" or not value.strip():
            raise Refusal("bad_token", "send tokens as 'Authorization: Bearer <token>'")
        return [t.strip() for t in value.split(",") if t.strip()][:8]

    async def opened(request: Request, game_id: str) -> tuple[Room, frozenset[int], bool]:
        room = await hub().room(game_id)
        seats, host = hub().seats_of(room, presented(request))
        return room, seats, host

    # --- routes ---------------------------------------------------------------------
    @app.post(
        "/api/games",
        status_code=201,
        tags=["games"],
        openapi_extra=create_example(),
        response_model=CreateOut,
        responses=refusals("storage_unavailable"),
    )
    async def create_game(body: CreateIn, request: Request) -> dict[str, Any]:
        """Create a game. The answer holds each human seat's secret link and the host's
        link: they are shown once (the server keeps only hashes)."""
        if not services.created.take(client_address(request.scope)):
            raise Refusal(
                "rate_limited",
                f"at most {settings.games_per_hour:g} new games an hour from one address",
            )
        created = await hub().create(
            body.game,
            body.players,
            [s.model_dump() for s in body.seats],
            dict(body.options),
        )
        base = base_url(request)
        gid = created.row.id
        return {
            "id": gid,
            "game": meta_of(created.row),
            "host": {"token": created.host_token, "link": f"{base}/g/{gid}#h={created.host_token}"},
            "seats": [
                {
                    "seat": s.seat,
                    "kind": s.kind,
                    "level": s.level,
                    "token": created.seat_tokens.get(s.seat),
                    "link": f"{base}/g/{gid}#s={created.seat_tokens[s.seat]}"
                    if s.seat in created.seat_tokens
                    else None,
                }
                for s in created.row.seats
            ],
            "spectate": f"{base}/g/{gid}",
        }

    @app.get(
        "/api/games/{game_id}",
        tags=["games"],
        response_model=GameOut,
        responses=refusals(*GAME, "bad_token"),
    )
    async def read_game(game_id: GameId, request: Request) -> dict[str, Any]:
        """The game as the caller may see it: a view per seat its tokens hold, or the
        public view for a spectator or a host."""
        room, seats, host = await opened(request, game_id)
        return room.audience.snapshot(seats, host)

    @app.post(
        "/api/games/{game_id}/join",
        tags=["seats"],
        response_model=JoinOut,
        responses=refusals(*GAME, "bad_token", "not_your_seat", *ENDED),
    )
    async def join(game_id: GameId, body: JoinIn, request: Request) -> dict[str, Any]:
        """Take the seats your link opens (the game starts when all human seats are taken)."""
        room, seats, host = await opened(request, game_id)
        if not seats:
            raise Refusal("not_your_seat", "send a seat's token to take that seat")
        await hub().take_seats(room, seats, body.name, body.names)
        return {"game": room.audience.meta(), "you": {"seats": sorted(seats), "host": host}}

    @app.post(
        "/api/games/{game_id}/actions",
        tags=["play"],
        response_model=VersionOut,
        responses=refusals(*GAME, *PLAY, "invalid_action", "illegal_action"),
    )
    async def act(game_id: GameId, body: ActionIn, request: Request) -> dict[str, Any]:
        """Submit an action for a seat you hold, at the version you saw."""
        room, seats, _host = await opened(request, game_id)
        step = await room.submit(seats, body.seat, body.version, body.action)
        return {"version": step.version}

    @app.post(
        "/api/games/{game_id}/undo",
        tags=["play"],
        response_model=VersionOut,
        responses=refusals(*GAME, *PLAY, "undo_refused"),
    )
    async def undo(game_id: GameId, body: UndoIn, request: Request) -> dict[str, Any]:
        """Take back your last action, while no one else has decided since and nothing
        hidden was revealed since (G-3)."""
        room, seats, _host = await opened(request, game_id)
        step = await room.undo(seats, body.seat, body.version)
        return {"version": step.version}

    @app.get(
        "/api/games/{game_id}/chat",
        tags=["chat"],
        response_model=ChatListOut,
        responses=refusals(*GAME),
    )
    async def read_chat(
        game_id: GameId,
        after: Annotated[
            int, Query(ge=0, le=MAX_INT, description="only the lines after this number")
        ] = 0,
    ) -> dict[str, Any]:
        """The chat's last lines (at most 200), oldest first."""
        room = await hub().room(game_id)
        rows = await hub().store.load_chat(room.id, after=after)
        return {"messages": [chat_json(r) for r in rows]}

    @app.post(
        "/api/games/{game_id}/chat",
        tags=["chat"],
        response_model=ChatOut,
        responses=refusals(*GAME, "bad_token", "chat_refused", "chat_full"),
    )
    async def post_chat(game_id: GameId, body: ChatIn, request: Request) -> dict[str, Any]:
        """Say something at the table (plain text; seats and spectators)."""
        room, seats, _host = await opened(request, game_id)
        row = await hub().chat(room, seats, body.text)
        return {"message": chat_json(row)}

    @app.get(
        "/api/games/{game_id}/record",
        tags=["records"],
        response_model=dict[str, Any],
        responses=refusals(*GAME, "record_unavailable"),
    )
    async def record(game_id: GameId) -> dict[str, Any]:
        """The full record (replayable with `euphrates replay`) once the game is over."""
        room = await hub().room(game_id)
        if room.status not in ("over", "abandoned"):
            raise Refusal(
                "record_unavailable",
                "the full record is available when the game is over; a seat can read its "
                "own log at /log",
            )
        return room_record(room)

    @app.get(
        "/api/games/{game_id}/log",
        tags=["records"],
        response_model=LogOut,
        responses=refusals(*GAME, "bad_token", "not_your_seat"),
    )
    async def seat_log(game_id: GameId, request: Request) -> dict[str, Any]:
        """What your seats have seen so far: every event they may see, by version."""
        room, seats, _host = await opened(request, game_id)
        if not seats:
            raise Refusal("not_your_seat", "a seat's log needs that seat's token")
        return room.audience.snapshot(seats, views=False, history=True)

    @app.post(
        "/api/games/{game_id}/seats/{seat}/bot",
        tags=["host"],
        response_model=GameOnly,
        responses=refusals(*GAME, "bad_token", "not_host", "seat_not_human", "game_over"),
    )
    async def seat_bot(
        game_id: GameId,
        seat: Annotated[int, PathParam(ge=0, le=LAST_SEAT)],
        body: BotIn,
        request: Request,
    ) -> dict[str, Any]:
        """Host only: a bot takes over a human seat (a player who left)."""
        room, _seats, host = await opened(request, game_id)
        if not host:
            raise Refusal("not_host", "only the host link can replace a player")
        await hub().replace_with_bot(room, seat, body.level)
        return {"game": room.audience.meta()}

    @app.post(
        "/api/games/{game_id}/abandon",
        tags=["host"],
        response_model=GameOnly,
        responses=refusals(*GAME, "bad_token", "not_host", "game_over"),
    )
    async def abandon(game_id: GameId, request: Request) -> dict[str, Any]:
        """Host only: end the game for everyone, unfinished."""
        room, _seats, host = await opened(request, game_id)
        if not host:
            raise Refusal("not_host", "only the host link can abandon the game")
        await hub().abandon(room)
        return {"game": room.audience.meta()}

    @app.get(
        "/api/games/{game_id}/replay/{step}",
        tags=["records"],
        response_model=ReplayOut,
        responses=refusals(*GAME, "record_unavailable"),
    )
    async def replay_step(
        game_id: GameId, step: Annotated[int, PathParam(ge=0, le=MAX_INT)]
    ) -> dict[str, Any]:
        """A finished game after its first `step` actions: every seat's view and the
        public one, and the events of that step. Once a game has ended its record is
        public, so a replay shows every hand."""
        room = await hub().room(game_id)
        if room.status not in ("over", "abandoned"):
            raise Refusal("record_unavailable", "a replay is available when the game is over")
        actions = room.actions()
        if not 0 <= step <= len(actions):
            raise Refusal("bad_request", f"step must be 0 … {len(actions)}")
        state, events = room.replay_to(step)
        views = {str(s): state.view(s) for s in range(room.row.players)}
        views["spectator"] = state.view(None)
        return {
            "game": room.audience.meta(),
            "step": step,
            "steps": len(actions),
            "action": actions[step - 1] if step else None,
            "events": [e.to_json() for e in events],
            "views": views,
        }

    @app.get(
        "/api/assets",
        tags=["server"],
        response_model=dict[str, AssetsOut],
        response_model_exclude_none=True,
        responses=refusals(),
    )
    async def assets() -> dict[str, Any]:
        """What each game's clients need to draw it besides the views, by game (the
        board's two sides; nothing for the card game)."""
        return {name: definition.assets() for name, definition in GAMES.items()}

    @app.get("/api/maps", tags=["server"], response_model=dict[str, MapOut], responses=refusals())
    async def maps() -> dict[str, Any]:
        """The board's sides (board-map.md): river, temple and bordered-treasure
        squares, so a client draws exactly the engine's board. The `maps` of
        `/api/assets`, kept where the browser reads them."""
        out: dict[str, Any] = {}
        for definition in GAMES.values():
            out.update(definition.assets().get("maps", {}))
        return out

    @app.get("/api/meta", tags=["server"], response_model=MetaOut, responses=refusals())
    async def meta() -> dict[str, Any]:
        """The games, their options, the numbers of players and the bots' levels."""
        from euphrates.bots.levels import LEVELS

        return {
            "games": {name: list(definition.options) for name, definition in GAMES.items()},
            "players": PLAYERS,
            "levels": list(LEVELS),
        }

    @app.get("/api/health", tags=["server"], response_model=HealthOut, responses=refusals())
    async def health() -> dict[str, Any]:
        """Liveness, and what the load test reports: memory, rooms and clients."""
        return {"ok": True, "rss_mb": rss_mb(), **hub().stats()}

    @app.websocket("/api/games/{game_id}/ws")
    async def socket(websocket: WebSocket, game_id: str) -> None:
        await serve_socket(websocket, hub(), game_id)

    if settings.web and WEB_DIR.is_dir():
        index = WEB_DIR / "index.html"

        @app.get("/", include_in_schema=False)
        async def lobby() -> Response:
            return FileResponse(index) if index.exists() else RedirectResponse("/docs")

        @app.get("/g/{game_id}", include_in_schema=False)
        async def table(game_id: str) -> Response:
            page = WEB_DIR / "table.html"
            return FileResponse(page) if page.exists() else RedirectResponse("/docs")

        @app.get("/replay/{game_id}", include_in_schema=False)
        async def replay_page(game_id: str) -> Response:
            page = WEB_DIR / "replay.html"
            return FileResponse(page) if page.exists() else RedirectResponse("/docs")

        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    else:

        @app.get("/", include_in_schema=False)
        async def root() -> Response:
            return RedirectResponse("/docs")

    return app


def room_record(room: Room) -> dict[str, Any]:
    from euphrates.match.records import record_of

    record = record_of(
        room.row.game,
        room.actions(),
        room.row.players,
        room.row.seed,
        room.row.options,
        seats=[seat_label(s) for s in room.row.seats],
        final=room.state,
    )
    return record.to_json()


def rss_mb() -> float:
    """Resident memory of this process (Linux), for the load test's report."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return 0.0

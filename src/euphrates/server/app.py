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
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles

from euphrates.server import db
from euphrates.server.bots import BotPool
from euphrates.server.config import Settings, async_db_url
from euphrates.server.hub import GAME_OPTIONS, Hub, chat_json, seat_label
from euphrates.server.listen import Listener
from euphrates.server.refusals import Refusal
from euphrates.server.room import Room, audience_list
from euphrates.server.schemas import (
    ActionIn,
    BotIn,
    ChatIn,
    CreateIn,
    JoinIn,
    UndoIn,
    create_example,
)
from euphrates.server.store import Store
from euphrates.server.ws import Bucket, serve_socket

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
        self.limits: dict[str, Bucket] = {}


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
        resumed = await hub.resume_all()
        if resumed:
            log.info("resumed %d games", resumed)
        try:
            yield
        finally:
            if services.listener is not None:
                await services.listener.close()
            await hub.close()
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
    # Static files and long histories compress well; WebSocket frames are left alone.
    app.add_middleware(GZipMiddleware, minimum_size=1024)

    def hub() -> Hub:
        assert services.hub is not None
        return services.hub

    @app.exception_handler(Refusal)
    async def _refusal(_request: Request, r: Refusal) -> JSONResponse:
        return JSONResponse({"error": r.to_json()}, status_code=r.status)

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, e: RequestValidationError) -> JSONResponse:
        errors = e.errors()
        if any(err.get("type") == "json_invalid" for err in errors):
            r = Refusal("bad_json", "the request body is not JSON")
        else:
            where = ".".join(str(p) for p in errors[0].get("loc", ()) if p != "body")
            r = Refusal("bad_request", f"{where}: {errors[0].get('msg', 'invalid')}")
        return JSONResponse({"error": r.to_json()}, status_code=r.status)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_request: Request, e: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "bad_request")
        return JSONResponse(
            {"error": {"code": code, "message": str(e.detail), "ruling": None}},
            status_code=e.status_code,
        )

    @app.middleware("http")
    async def _limits(request: Request, call_next: Any) -> Response:
        """Mutations are rate-limited per client address; bodies are capped."""
        if request.method == "POST":
            length = request.headers.get("content-length")
            if length is not None and (not length.isdigit() or int(length) > 16384):
                r = Refusal("too_large", "request bodies are at most 16 KiB")
                return JSONResponse({"error": r.to_json()}, status_code=r.status)
            key = request.client.host if request.client else "?"
            bucket = services.limits.get(key)
            if bucket is None:
                if len(services.limits) > 10000:
                    services.limits.clear()
                bucket = services.limits[key] = Bucket(
                    settings.rate_per_s * 5, settings.rate_burst * 5
                )
            if not bucket.take():
                r = Refusal("rate_limited", "too many requests; slow down")
                return JSONResponse({"error": r.to_json()}, status_code=r.status)
        response: Response = await call_next(request)
        return response

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
    @app.post("/api/games", status_code=201, tags=["games"], openapi_extra=create_example())
    async def create_game(body: CreateIn, request: Request) -> dict[str, Any]:
        """Create a game. The answer holds each human seat's secret link and the host's
        link: they are shown once (the server keeps only hashes)."""
        created = await hub().create(
            body.game,
            body.players,
            [s.model_dump() for s in body.seats],
            dict(body.options),
        )
        base = base_url(request)
        gid = created.row.id
        room = await hub().room(gid)
        return {
            "id": gid,
            "game": room.meta(),
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

    @app.get("/api/games/{game_id}", tags=["games"])
    async def read_game(game_id: str, request: Request) -> dict[str, Any]:
        """The game as the caller may see it: a view per seat its tokens hold, or the
        public view for a spectator or a host."""
        room, seats, host = await opened(request, game_id)
        return {
            "game": room.meta(),
            "you": {"seats": sorted(seats), "host": host},
            "version": room.version,
            "can_undo": room.undo_flags(seats),
            "views": {
                ("spectator" if a is None else str(a)): _view(room, a) for a in audience_list(seats)
            },
        }

    @app.post("/api/games/{game_id}/join", tags=["seats"])
    async def join(game_id: str, body: JoinIn, request: Request) -> dict[str, Any]:
        """Take the seats your link opens (the game starts when all human seats are taken)."""
        room, seats, host = await opened(request, game_id)
        if not seats:
            raise Refusal("not_your_seat", "send a seat's token to take that seat")
        await hub().take_seats(room, seats, body.name, body.names)
        return {"game": room.meta(), "you": {"seats": sorted(seats), "host": host}}

    @app.post("/api/games/{game_id}/actions", tags=["play"])
    async def act(game_id: str, body: ActionIn, request: Request) -> dict[str, Any]:
        """Submit an action for a seat you hold, at the version you saw."""
        room, seats, _host = await opened(request, game_id)
        version = await room.submit(seats, body.seat, body.version, body.action)
        return {"version": version}

    @app.post("/api/games/{game_id}/undo", tags=["play"])
    async def undo(game_id: str, body: UndoIn, request: Request) -> dict[str, Any]:
        """Take back your last action, while no one else has decided since and nothing
        hidden was revealed since (G-3)."""
        room, seats, _host = await opened(request, game_id)
        version = await room.undo(seats, body.seat, body.version)
        return {"version": version}

    @app.get("/api/games/{game_id}/chat", tags=["chat"])
    async def read_chat(game_id: str, after: int = 0) -> dict[str, Any]:
        room = await hub().room(game_id)
        rows = await hub().store.load_chat(room.id, after=max(0, after))
        return {"messages": [chat_json(r) for r in rows]}

    @app.post("/api/games/{game_id}/chat", tags=["chat"])
    async def post_chat(game_id: str, body: ChatIn, request: Request) -> dict[str, Any]:
        """Say something at the table (plain text; seats and spectators)."""
        room, seats, _host = await opened(request, game_id)
        row = await hub().chat(room, seats, body.text)
        return {"message": chat_json(row)}

    @app.get("/api/games/{game_id}/record", tags=["records"])
    async def record(game_id: str) -> dict[str, Any]:
        """The full record (replayable with `euphrates replay`) once the game is over."""
        room = await hub().room(game_id)
        if room.status not in ("over", "abandoned"):
            raise Refusal(
                "record_unavailable",
                "the full record is available when the game is over; a seat can read its "
                "own log at /log",
            )
        return room_record(room)

    @app.get("/api/games/{game_id}/log", tags=["records"])
    async def seat_log(game_id: str, request: Request) -> dict[str, Any]:
        """What your seats have seen so far: every event they may see, by version."""
        room, seats, _host = await opened(request, game_id)
        if not seats:
            raise Refusal("not_your_seat", "a seat's log needs that seat's token")
        return {
            "game": room.meta(),
            "you": {"seats": sorted(seats)},
            "version": room.version,
            "history": room.history_for(seats),
        }

    @app.post("/api/games/{game_id}/seats/{seat}/bot", tags=["host"])
    async def seat_bot(game_id: str, seat: int, body: BotIn, request: Request) -> dict[str, Any]:
        """Host only: a bot takes over a human seat (a player who left)."""
        room, _seats, host = await opened(request, game_id)
        if not host:
            raise Refusal("not_host", "only the host link can replace a player")
        await hub().replace_with_bot(room, seat, body.level)
        return {"game": room.meta()}

    @app.post("/api/games/{game_id}/abandon", tags=["host"])
    async def abandon(game_id: str, request: Request) -> dict[str, Any]:
        """Host only: end the game for everyone, unfinished."""
        room, _seats, host = await opened(request, game_id)
        if not host:
            raise Refusal("not_host", "only the host link can abandon the game")
        await hub().abandon(room)
        return {"game": room.meta()}

    @app.get("/api/games/{game_id}/replay/{step}", tags=["records"])
    async def replay_step(game_id: str, step: int) -> dict[str, Any]:
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
            "game": room.meta(),
            "step": step,
            "steps": len(actions),
            "action": actions[step - 1] if step else None,
            "events": [e.to_json() for e in events],
            "views": views,
        }

    @app.get("/api/maps", tags=["server"])
    async def maps() -> dict[str, Any]:
        """Both sides of the board (board-map.md): river, temple and bordered-treasure
        squares, so a client draws exactly the engine's board."""
        from euphrates.board.geometry import square_name, squares_of
        from euphrates.board.maps import ADVANCED, STANDARD

        def names(mask: int) -> list[str]:
            return [square_name(q) for q in squares_of(mask)]

        return {
            m.name: {
                "columns": 16,
                "rows": 11,
                "river": names(m.river),
                "temples": names(m.temples),
                "bordered": names(m.bordered),
            }
            for m in (STANDARD, ADVANCED)
        }

    @app.get("/api/meta", tags=["server"])
    async def meta() -> dict[str, Any]:
        from euphrates.bots.levels import LEVELS

        return {
            "games": {game: list(options) for game, options in GAME_OPTIONS.items()},
            "players": [2, 3, 4],
            "levels": list(LEVELS),
        }

    @app.get("/api/health", tags=["server"])
    async def health() -> dict[str, Any]:
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


def _view(room: Room, audience: int | None) -> dict[str, Any]:
    return room.view_for(audience)


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

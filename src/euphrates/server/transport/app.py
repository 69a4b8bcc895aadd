"""The application: the door every request passes, the routes, the pages and the
services behind them, put together.

Routes live with the features that own them (`features/*/routes.py`, gathered in
routers.py), what they need in `features/services.py` (started and stopped with the
application). Here are only what concerns every route: the guard
(hosts, rate limits, body cap, failures nobody foresaw), the trusted proxies, the one
error shape for whatever the framework refuses, and the OpenAPI description.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from euphrates.server.common.buckets import Buckets
from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.services import Services
from euphrates.server.transport.guard import Guard, refusal_response
from euphrates.server.transport.pages import WEB_DIR, pages
from euphrates.server.transport.routers import ROUTERS

DESCRIPTION = """Play *Tigris & Euphrates* and *Contest of Kings* over HTTP and WebSocket.

Create a game (`POST /api/games`): you get one secret link per human seat, a host link
and a public spectator link. Send a link's token as `Authorization: Bearer <token>`;
several tokens (one client holding several seats) are separated by commas. Live play
uses the WebSocket `/api/games/{id}/ws` (see docs/server.md for its messages).
Every refusal is `{"error": {"code", "message", "ruling"}}` with a fitting status.
"""


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    services = Services(settings)
    app = FastAPI(
        title="Euphrates game server",
        version="1",
        description=DESCRIPTION,
        lifespan=services.lifespan,
    )
    app.state.services = services
    _describe_own_errors(app)
    # Static files and long histories compress well; WebSocket frames are left alone.
    app.add_middleware(GZipMiddleware, minimum_size=1024)
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
    _refuse_in_one_shape(app)
    for router in ROUTERS:
        app.include_router(router)
    app.include_router(pages(settings.web))
    if settings.web and WEB_DIR.is_dir():
        app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")
    return app


def _describe_own_errors(app: FastAPI) -> None:
    """FastAPI's description without its validation errors' 422: this server answers
    a request it cannot read with 400 and its own error shape."""
    generated = app.openapi

    def openapi() -> dict[str, Any]:
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


def _refuse_in_one_shape(app: FastAPI) -> None:
    """Every refusal, the routes' own and the framework's (a body it cannot read, a
    path it does not know), is the JSON error shape."""

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

"""The door of the HTTP server: what every request passes before any route sees it.

A pure ASGI middleware, outermost in the application, so that nothing escapes it:

- the `Host` header must name the server as it is served (Starlette's
  `TrustedHostMiddleware` decides; a page on another name that resolves here — DNS
  rebinding — is refused before its origin is even looked at);
- API requests are rate-limited per client address, reads like writes;
- a body is counted as it arrives and refused at the cap, whether its length was
  declared or it comes in chunks, so no request makes the server hold more than the
  cap;
- a failure nobody foresaw is logged once (the request's method and path with the
  traceback, never its body) and answered with the JSON error `server_error`.

Every refusal here has the same shape as the routes' own (`{"error": {"code",
"message", "ruling"}}`).
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence

from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.utils import ClientDisconnected

from euphrates.server.common.buckets import Buckets
from euphrates.server.common.clients import client_address
from euphrates.server.common.refusals import Refusal

log = logging.getLogger("euphrates.server")


def refusal_response(r: Refusal, close: bool = False) -> JSONResponse:
    headers = {"connection": "close"} if close else None
    return JSONResponse({"error": r.to_json()}, status_code=r.status, headers=headers)


class Guard:
    def __init__(
        self,
        app: ASGIApp,
        *,
        allowed_hosts: Sequence[str],
        requests: Buckets,
        max_body: int,
    ) -> None:
        self.app = app
        self.requests = requests
        self.max_body = max_body
        self.hosts = TrustedHostMiddleware(self._admitted, allowed_hosts=list(allowed_hosts))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        # Starlette's middleware decides on the host. Its own refusal (plain text) is
        # dropped; a request it admits continues in `_admitted` with the real `send`.
        scope[_SEND] = send
        await self.hosts(scope, receive, _discard)
        if scope.pop(_SEND, None) is None:
            return
        r = Refusal("bad_host", "the Host header does not name this server")
        if scope["type"] == "websocket":
            await deny_socket(scope, receive, send, r)
        else:
            await refusal_response(r)(scope, receive, send)

    async def _admitted(self, scope: Scope, receive: Receive, _discarded: Send) -> None:
        send: Send = scope.pop(_SEND)
        if scope["type"] == "websocket":
            try:
                await self.app(scope, receive, send)
            except ClientDisconnected:  # it left before the answer: nothing failed
                return
            except Exception:
                log.error("WebSocket %s failed", scope.get("path"), exc_info=True)
                with contextlib.suppress(Exception):
                    await send({"type": "websocket.close", "code": 1011})
            return
        started = False

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            if scope["path"].startswith("/api/") and not self.requests.take(client_address(scope)):
                r = Refusal("rate_limited", "too many requests; slow down")
                await refusal_response(r)(scope, receive, send)
                return
            replay = await self._read_body(scope, receive, send)
            if replay is not None:
                await self.app(scope, replay, watched)
        except Exception:
            # Once, with the traceback; the body is not logged (it may be anyone's words).
            log.error("%s %s failed", scope.get("method"), scope.get("path"), exc_info=True)
            if not started:
                r = Refusal("server_error", "the server failed on that request")
                await refusal_response(r)(scope, receive, send)

    async def _read_body(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """Read the body up to the cap and return a `receive` that hands it over in
        one piece; None when it was refused here (answered) or the client left."""
        too_large = Refusal("too_large", f"request bodies are at most {self.max_body // 1024} KiB")
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_body):
                await refusal_response(too_large, close=True)(scope, receive, send)
                return None
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return None  # the client is gone
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await refusal_response(too_large, close=True)(scope, receive, send)
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        first: Message | None = {"type": "http.request", "body": b"".join(chunks)}

        async def replay() -> Message:
            nonlocal first
            if first is not None:
                message, first = first, None
                return message
            return await receive()

        return replay


_SEND = "euphrates.send"


async def _discard(_message: Message) -> None:
    return None


async def deny_socket(scope: Scope, receive: Receive, send: Send, r: Refusal) -> None:
    """Refuse a WebSocket handshake: with the JSON error where the server can answer a
    handshake over HTTP, else with a plain close (HTTP 403)."""
    if "websocket.http.response" in scope.get("extensions", {}):
        await refusal_response(r)(scope, receive, send)
    else:
        await send({"type": "websocket.close", "code": 1008})

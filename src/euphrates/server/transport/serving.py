"""How the server meets a connection: uvicorn's settings, written once for `euphrates
serve` and the tests' servers (so that a test serves as production does), and the HTTP
protocol with the limits uvicorn does not keep.

uvicorn's HTTP protocol (httptools) closes a connection left idle between two requests
(its keep-alive timeout), but not one whose client keeps sending, however slowly, and
it takes as many connections from one address as are opened: a client that sends a
byte a second, of its headers or of its body, or that opens thousands of sockets,
holds the server's descriptors and memory at no cost of its own. So here:

- a request's head and body must arrive whole within `request_timeout` seconds of the
  connection's opening (of the request's first byte, on a connection kept alive);
  otherwise it is answered `request_timeout` (408) and the connection closed. Only what
  the client owes is timed: the application's answer is not;
- a request's head is at most `max_header` bytes (httptools, unlike h11, keeps no such
  limit): beyond, `headers_too_large` (431);
- one client address holds at most `max_http_connections_per_address` connections at
  once (a WebSocket counts until its upgrade, then under the WebSocket cap, ws.py). One
  more is answered `too_many_connections` (429) at once and closed before anything is
  read from it, so a refused connection costs nothing. A trusted proxy's connections
  are not counted: they carry many clients, and the proxy keeps their limits.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
from http import HTTPStatus
from typing import Any, ClassVar

from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.server import ServerState

from euphrates.server.common.config import Settings
from euphrates.server.common.refusals import Refusal


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """What `uvicorn.Config` is given besides the application, where it listens and
    how it logs."""
    return {
        "http": protocol_for(settings),
        "timeout_keep_alive": settings.keep_alive,
        "ws_max_size": settings.max_frame,
        # Messages are small patches: compressing them costs more CPU than it saves.
        "ws_per_message_deflate": False,
        "lifespan": "on",
        # A server told to stop waits this long for requests and sockets in flight,
        # then cancels them and shuts down: one stuck connection never holds a stop.
        "timeout_graceful_shutdown": 10,
        # uvicorn would trust X-Forwarded-For from loopback; the app trusts only the
        # proxies it is told of (--trusted-proxy), so no client can pick its address.
        "proxy_headers": False,
    }


def _plain(address: str) -> str:
    """One spelling per address: an IPv4 client of a dual-stack socket is its IPv4."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)


class Limits:
    """One server's limits on its HTTP connections, and the connections each client
    address holds now (one event loop touches it: no lock)."""

    def __init__(self, settings: Settings) -> None:
        self.request_timeout = settings.request_timeout
        self.max_header = settings.max_header
        self.most = settings.max_http_connections_per_address
        self.proxies = frozenset(_plain(a) for a in settings.trusted_proxies)
        self.held: dict[str, int] = {}

    def take(self, address: str) -> bool:
        held = self.held.get(address, 0)
        if held >= self.most:
            return False
        self.held[address] = held + 1
        return True

    def give_back(self, address: str) -> None:
        left = self.held.pop(address, 1) - 1
        if left > 0:
            self.held[address] = left


def raw_refusal(r: Refusal) -> bytes:
    """A refusal as a whole HTTP response, for the protocol to write itself where no
    application is running; the connection closes after it."""
    body = json.dumps({"error": r.to_json()}).encode()
    head = (
        f"HTTP/1.1 {r.status} {HTTPStatus(r.status).phrase}\r\n"
        "content-type: application/json\r\n"
        f"content-length: {len(body)}\r\n"
        "connection: close\r\n\r\n"
    )
    return head.encode() + body


class LimitedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with the module's limits, for one connection."""

    limits: ClassVar[Limits]

    def __init__(
        self,
        config: Config,
        server_state: ServerState,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        super().__init__(config, server_state, app_state, _loop)
        self.counted: str | None = None
        """The address this connection is counted under while it is HTTP."""
        self.deadline: asyncio.TimerHandle | None = None
        self.in_head = True
        self.head_bytes = 0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        address = _plain(self.client[0]) if self.client else None
        if address is not None and address not in self.limits.proxies:
            if not self.limits.take(address):
                most = self.limits.most
                self._refuse(
                    Refusal("too_many_connections", f"at most {most} connections from one address")
                )
                return
            self.counted = address
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._release()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return  # refused or cut off: nothing more is read
        if self.in_head:
            self.head_bytes += len(data)
        super().data_received(data)
        if (
            self.in_head
            and self.head_bytes > self.limits.max_header
            and not self.transport.is_closing()
        ):
            most = self.limits.max_header // 1024
            self._refuse(Refusal("headers_too_large", f"request headers are at most {most} KiB"))

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self.deadline is None:  # a kept-alive connection's next request
            self._arm()

    def on_headers_complete(self) -> None:
        self.in_head = False
        self.head_bytes = 0
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()
        self.in_head = True

    def handle_websocket_upgrade(self) -> None:
        """A WebSocket is held to its own limits (ws.py) from here on."""
        self._disarm()
        self._release()
        super().handle_websocket_upgrade()

    def _arm(self) -> None:
        self.deadline = self.loop.call_later(self.limits.request_timeout, self._expired)

    def _disarm(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _release(self) -> None:
        if self.counted is not None:
            self.limits.give_back(self.counted)
            self.counted = None

    def _expired(self) -> None:
        self.deadline = None
        if self.transport.is_closing():
            return
        seconds = f"{self.limits.request_timeout:g}"
        self._refuse(Refusal("request_timeout", f"a request must arrive within {seconds} s"))

    def _refuse(self, r: Refusal) -> None:
        """Answer `r` and close: unless an answer is being written already (to an
        earlier request, pipelined), which is cut short instead of mixed with this one.
        An application still waiting for a body hears that its client is gone."""
        cycle = self.cycle
        answering = False
        if cycle is not None and not cycle.response_complete:
            answering = cycle.response_started
            cycle.disconnected = True
            cycle.message_event.set()
        if not answering:
            self.transport.write(raw_refusal(r))
        self.transport.close()


def protocol_for(settings: Settings) -> type[asyncio.Protocol]:
    """The HTTP protocol of one server: its limits and its own count of each address's
    connections (the tests run several servers in one process: each counts apart)."""
    limits = Limits(settings)

    class ServerHttp(LimitedHttp):
        pass

    ServerHttp.limits = limits
    return ServerHttp

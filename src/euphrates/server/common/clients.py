"""Who a request comes from: the client's address, by which its limits are counted."""

from __future__ import annotations

from starlette.types import Scope


def client_address(scope: Scope) -> str:
    """The client's address: the socket's peer, or what a trusted proxy said it was
    (the proxy middleware, when configured, has already put that in the scope)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"

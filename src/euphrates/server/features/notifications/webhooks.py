"""Webhooks out: a JSON POST that Discord and Slack both accept, to an address a player
gave — on a server anyone may sign up to, so a door into the server's own network
(server-side request forgery) unless it is guarded.

The guard: https only; no user name or password in the address; the name is resolved
when the message is sent and **every** address it resolves to must be public (not
loopback, private, link-local, shared, multicast, reserved or unspecified, IPv4 inside
IPv6 included); the connection then goes to an address that was checked (the name
is kept for TLS and `Host`), so a name that resolves differently a moment later
(DNS rebinding) reaches nothing new; no redirect is followed; a short timeout. An
admin may allow networks that are not public (`--webhook-allow 192.168.1.0/24`), and
to those plain http too: a club's chat bot on its own LAN, or a test's sink.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx

TIMEOUT = 10.0
MAX_URL = 500

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address


class WebhookRefused(ValueError):
    """An address a webhook may not be sent to; the message says why, without the
    address (it often holds the hook's secret)."""


class DeliveryError(Exception):
    """A message that did not go out: `permanent` when trying again cannot help;
    `retry_after`, the seconds the receiver asked to wait (429)."""

    def __init__(self, reason: str, permanent: bool = False, retry_after: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.permanent = permanent
        self.retry_after = retry_after


def networks(values: Sequence[str]) -> list[Network]:
    """`--webhook-allow`'s networks (a ValueError names a bad one)."""
    out: list[Network] = []
    for value in values:
        try:
            out.append(ipaddress.ip_network(value.strip("[]"), strict=False))
        except ValueError:
            raise ValueError(
                f"--webhook-allow must be an address or a network (10.0.0.0/8), not {value!r}"
            ) from None
    return out


def _plain(address: Address) -> Address:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def allowed(address: Address, allow: Sequence[Network]) -> bool:
    """An address a webhook may reach: a public one, or one in an allowed network."""
    address = _plain(address)
    if any(address in n for n in allow if n.version == address.version):
        return True
    return address.is_global and not address.is_multicast


def _in_allowed(address: Address, allow: Sequence[Network]) -> bool:
    address = _plain(address)
    return any(address in n for n in allow if n.version == address.version)


def check_url(url: str, allow: Sequence[Network]) -> str:
    """A webhook address as it is saved: its form, and its host when that is an
    address. A name is resolved (and checked) only when a message is sent."""
    if len(url) > MAX_URL:
        raise WebhookRefused(f"a webhook address is at most {MAX_URL} characters")
    if any(ord(c) <= 32 or ord(c) == 127 for c in url):
        raise WebhookRefused("a webhook address has no spaces or control characters")
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http"):
        raise WebhookRefused("a webhook address starts with https://")
    if parts.username is not None or parts.password is not None:
        raise WebhookRefused("a webhook address carries no user name or password")
    try:
        port = parts.port
    except ValueError:
        raise WebhookRefused("the webhook address's port is not a port") from None
    host = parts.hostname
    if not host:
        raise WebhookRefused("the webhook address names no host")
    if port == 0:
        raise WebhookRefused("the webhook address's port is not a port")
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not allowed(literal, allow):
        raise WebhookRefused("that webhook address is not a public one")
    if parts.scheme == "http" and (
        not allow or (literal is not None and not _in_allowed(literal, allow))
    ):
        raise WebhookRefused("a webhook address starts with https://")
    return url


async def resolve(url: str, allow: Sequence[Network]) -> list[Address]:
    """Every address the webhook's host resolves to now, each checked; refused if any
    is not allowed (or, over http, not in an allowed network)."""
    check_url(url, allow)
    parts = urlsplit(url)
    host = parts.hostname or ""
    port = parts.port or (443 if parts.scheme == "https" else 80)
    loop = asyncio.get_running_loop()
    try:
        async with asyncio.timeout(TIMEOUT):
            infos = await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, TimeoutError):
        raise DeliveryError("the webhook's name does not resolve") from None
    found: list[Address] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%")[0])
        if address not in found:
            found.append(address)
    if not found:
        raise DeliveryError("the webhook's name does not resolve")
    for address in found:
        if not allowed(address, allow):
            raise WebhookRefused("that webhook's name leads to an address that is not public")
        if parts.scheme == "http" and not _in_allowed(address, allow):
            raise WebhookRefused("a webhook address starts with https://")
    return found


def body(text: str) -> dict[str, Any]:
    """What Discord (`content`) and Slack (`text`) each read; both ignore the other's
    field. No mention is parsed by Discord, whatever a name holds."""
    return {"content": text, "text": text, "allowed_mentions": {"parse": []}}


async def post(url: str, payload: dict[str, Any], allow: Sequence[Network]) -> int:
    """POST `payload` as JSON to the webhook; its HTTP status, a 2xx. Anything else
    raises DeliveryError (or WebhookRefused, which is permanent)."""
    addresses = await resolve(url, allow)
    parts = urlsplit(url)
    host = parts.hostname or ""
    target = httpx.URL(url).copy_with(host=str(addresses[0]))
    headers = {
        "host": parts.netloc.rpartition("@")[2],
        "content-type": "application/json",
        "user-agent": "euphrates-notifier",
    }
    extensions = {"sni_hostname": host} if parts.scheme == "https" else {}
    data = json.dumps(payload).encode()
    try:
        async with (
            httpx.AsyncClient(follow_redirects=False, timeout=TIMEOUT, trust_env=False) as client,
            client.stream(
                "POST", target, content=data, headers=headers, extensions=extensions
            ) as response,
        ):
            status = response.status_code
            retry_after = response.headers.get("retry-after")
    except httpx.HTTPError as e:
        raise DeliveryError(f"the webhook could not be reached: {type(e).__name__}") from None
    if 200 <= status < 300:
        return status
    if status == 429 or status >= 500 or status == 408:
        wait = None
        if retry_after is not None and retry_after.strip().isdigit():
            wait = float(retry_after.strip())
        raise DeliveryError(f"the webhook answered HTTP {status}", retry_after=wait)
    if 300 <= status < 400:
        raise DeliveryError(f"the webhook answered HTTP {status}: redirects are not followed", True)
    raise DeliveryError(f"the webhook answered HTTP {status}", permanent=True)

"""Webhooks out: a JSON POST that Discord and Slack both accept, to an address a player
gave — on a server anyone may sign up to, so a door into the server's own network
(server-side request forgery) unless it is guarded.

The guard: https only; no user name or password in the address; a host that is a
number in any form but four decimal parts (`2130706433`, `0x7f000001`, `0177.0.0.1`,
`127.1`: resolvers read them all as 127.0.0.1) refused when the address is saved; the
name is resolved when the message is sent and **every** address it resolves to must
be public — global by the standard library (`ipaddress`: not loopback, private,
link-local, shared, multicast, reserved or unspecified; IPv4 inside IPv6 read as the
IPv4) and in none of the special-purpose ranges it misses or that lead elsewhere
(SPECIAL: NAT64, 6to4 and Teredo, which carry an IPv4 address inside — a private one
as well as a public one; 192.0.0.0/24; ORCHID; the documentation ranges); the
connection then goes to an address that was checked (the name is kept for TLS and
`Host`), so a name that resolves differently a moment later (DNS rebinding) reaches
nothing new; no redirect is followed; a short timeout. An admin may allow networks
that are not public (`--webhook-allow 192.168.1.0/24`), and to those plain http too: a
club's chat bot on its own LAN, or a test's sink.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import re
import socket
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit

import httpx

TIMEOUT = 10.0
MAX_URL = 500

Network = ipaddress.IPv4Network | ipaddress.IPv6Network
Address = ipaddress.IPv4Address | ipaddress.IPv6Address

SPECIAL: tuple[tuple[Network, str], ...] = tuple(
    (ipaddress.ip_network(network), kind)
    for network, kind in (
        ("64:ff9b::/96", "NAT64"),
        ("64:ff9b:1::/48", "local NAT64"),
        ("2002::/16", "6to4"),
        ("2001::/32", "Teredo"),
        ("2001:10::/28", "ORCHID"),
        ("2001:20::/28", "ORCHIDv2"),
        ("192.0.0.0/24", "IETF protocol assignments"),
        ("192.0.2.0/24", "documentation"),
        ("198.51.100.0/24", "documentation"),
        ("203.0.113.0/24", "documentation"),
        ("2001:db8::/32", "documentation"),
        ("3fff::/20", "documentation"),
        ("100.64.0.0/10", "shared (carrier-grade NAT)"),
        ("198.18.0.0/15", "benchmarking"),
        ("::/96", "IPv4-compatible (deprecated)"),
        ("::ffff:0:0:0/96", "IPv4-translated"),
        ("fec0::/10", "site-local (deprecated)"),
    )
)
"""Ranges a webhook may not reach that `is_global` lets through (in some Python
versions: NAT64, 6to4, 192.0.0.8, 3fff::/20, fec0::/10, …), or that it refuses only
under another name: named here so that a refusal says which."""

_NUMBER = re.compile(r"[0-9]+|0x[0-9a-f]*")
"""A label a resolver reads as a number (decimal, octal with a leading 0, hex)."""
_HOST = re.compile(r"[a-z0-9._-]+")


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


def not_public(address: Address) -> str | None:
    """What kind of address this is, when a webhook may not reach it; None for a
    public one."""
    address = _plain(address)
    if address.is_unspecified:
        return "unspecified"
    if address.is_loopback:
        return "loopback"
    for network, kind in SPECIAL:
        if address.version == network.version and address in network:
            return f"{kind}, {network}"
    if address.is_link_local:
        return "link-local"
    if address.is_multicast:
        return "multicast"
    if address.is_reserved:
        return "reserved"
    if address.is_private:
        return "private"
    if not address.is_global:
        return "not global"
    return None


def allowed(address: Address, allow: Sequence[Network]) -> bool:
    """An address a webhook may reach: a public one, or one in an allowed network."""
    return _in_allowed(address, allow) or not_public(address) is None


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
    if ":" not in host:  # not an IPv6 address: a name, or an IPv4 address
        _check_name(host)
    try:
        literal: Address | None = ipaddress.ip_address(host)
    except ValueError:
        literal = None
    if literal is not None and not allowed(literal, allow):
        why = not_public(literal)
        raise WebhookRefused(f"that webhook address is not a public one ({why})")
    if parts.scheme == "http" and (
        not allow or (literal is not None and not _in_allowed(literal, allow))
    ):
        raise WebhookRefused("a webhook address starts with https://")
    return url


def _check_name(host: str) -> None:
    """A host name as a resolver will read it (IDNA: full-width digits and dots are
    ASCII ones); refused if that is not a name, or is a number written in any form
    but an IPv4 address's four decimal parts in ASCII — resolvers take `2130706433`,
    `0x7f000001`, `0177.0.0.1`, `127.1` and `１２７.０.０.１` for 127.0.0.1, and a
    check that reads them as names would let them by."""
    try:
        name = host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise WebhookRefused("the webhook address's host is not a valid name") from None
    if not _HOST.fullmatch(name):
        raise WebhookRefused("the webhook address's host is not a valid name")
    labels = name.split(".")
    if len(labels) > 1 and labels[-1] == "":
        labels.pop()  # a trailing dot
    if not _NUMBER.fullmatch(labels[-1]):
        return
    try:
        ipaddress.IPv4Address(host)
    except ValueError:
        raise WebhookRefused(
            "the webhook address's host is a number written short, in octal or in "
            "hexadecimal: write an address as four decimal numbers (a.b.c.d), or give a name"
        ) from None


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
            why = not_public(address)
            raise WebhookRefused(
                f"that webhook's name leads to an address that is not public ({why})"
            )
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

"""Which webhook addresses pass (notifications/webhooks.py): every special-purpose
range a webhook may not reach, each refused under its name, whether an address is
written in the link or a name resolves to it; numeric hosts in the forms resolvers
read as IPv4 addresses (decimal, hexadecimal, octal, fewer than four parts) refused
when the address is saved, over the route as well; `--webhook-allow` still opening
what it names."""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from typing import Any

import pytest

from euphrates.server.common.config import Settings
from euphrates.server.features.notifications.webhooks import (
    WebhookRefused,
    allowed,
    check_url,
    networks,
    not_public,
    resolve,
)
from tests.server.harness import running_server
from tests.server.people import Person, forget_accounts

SPECIAL = [
    ("64:ff9b::808:808", "NAT64"),  # 8.8.8.8 through a NAT64 gateway
    ("64:ff9b::a00:1", "NAT64"),  # 10.0.0.1 through it
    ("64:ff9b:1::1", "local NAT64"),
    ("2002:7f00:1::1", "6to4"),  # 127.0.0.1 inside
    ("2002:808:808::1", "6to4"),
    ("2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"),
    ("2001:10::1", "ORCHID"),
    ("2001:20::1", "ORCHIDv2"),
    ("192.0.0.8", "IETF protocol assignments"),
    ("192.0.0.9", "IETF protocol assignments"),
    ("192.0.0.170", "IETF protocol assignments"),
    ("192.0.2.1", "documentation"),
    ("198.51.100.1", "documentation"),
    ("203.0.113.1", "documentation"),
    ("2001:db8::1", "documentation"),
    ("3fff::1", "documentation"),
    ("3fff:fff::1", "documentation"),
    ("100.64.0.1", "shared"),
    ("198.18.0.1", "benchmarking"),
    ("::7f00:1", "IPv4-compatible"),
    ("::ffff:0:7f00:1", "IPv4-translated"),
    ("fec0::1", "site-local"),
]
ORDINARY = [
    ("127.0.0.1", "loopback"),
    ("::1", "loopback"),
    ("::ffff:127.0.0.1", "loopback"),
    ("0.0.0.0", "unspecified"),
    ("::", "unspecified"),
    ("10.0.0.1", "private"),
    ("192.168.0.1", "private"),
    ("::ffff:10.0.0.1", "private"),
    ("fc00::1", "private"),
    ("169.254.169.254", "link-local"),
    ("fe80::1", "link-local"),
    ("224.0.0.1", "multicast"),
    ("ff02::1", "multicast"),
    ("240.0.0.1", "reserved"),
    ("255.255.255.255", "reserved"),  # the broadcast address
]
NUMERIC_HOSTS = [
    "2130706433",  # 127.0.0.1 as one decimal number
    "0x7f000001",  # as one hexadecimal number
    "0X7F000001",
    "017700000001",  # as one octal number
    "0177.0.0.1",  # octal parts
    "0x7f.0.0.1",  # a hexadecimal part
    "127.0.0.01",  # a leading zero: octal to some readers
    "127.1",  # fewer than four parts
    "127.0.1",
    "10.1",
    "8.8.8.8.",  # a trailing dot
    "1.2.3.4.5",  # more than four
    "0x",
    "１２７.０.０.１",  # full-width digits: IDNA makes them 127.0.0.1
    "127。0。0。1",  # ideographic full stops, dots to IDNA
    "example.0x10",  # a name whose last label is a number
    "example.123",
]


@pytest.mark.parametrize(("address", "kind"), SPECIAL + ORDINARY)
def test_special_and_private_ranges_are_refused_by_name(address: str, kind: str) -> None:
    parsed = ipaddress.ip_address(address)
    assert not allowed(parsed, [])
    why = not_public(parsed)
    assert why is not None and kind in why, why
    literal = f"[{address}]" if ":" in address else address
    with pytest.raises(WebhookRefused) as refused:
        check_url(f"https://{literal}/hook", [])
    assert "not a public one" in str(refused.value) and kind in str(refused.value)


@pytest.mark.parametrize(
    "address", ["8.8.8.8", "1.1.1.1", "2606:4700::1111", "2001:4860:4860::8888", "::ffff:8.8.8.8"]
)
def test_public_addresses_pass(address: str) -> None:
    assert not_public(ipaddress.ip_address(address)) is None
    literal = f"[{address}]" if ":" in address else address
    assert check_url(f"https://{literal}/hook", [])


def test_allowed_networks_still_open_what_they_name() -> None:
    allow = networks(["64:ff9b::/96", "192.0.0.0/24", "127.0.0.0/8"])
    assert allowed(ipaddress.ip_address("64:ff9b::a00:1"), allow)
    assert allowed(ipaddress.ip_address("192.0.0.8"), allow)
    assert check_url("https://[64:ff9b::a00:1]/hook", allow)
    assert check_url("http://127.0.0.1:9000/hook", allow)  # http too, to an allowed one
    assert not allowed(ipaddress.ip_address("2002:7f00:1::1"), allow)
    # Allowed or not, a number written short stays refused: write it out.
    with pytest.raises(WebhookRefused, match="four decimal numbers"):
        check_url("http://127.1:9000/hook", allow)


@pytest.mark.parametrize("host", NUMERIC_HOSTS)
def test_numeric_hosts_are_refused_when_saved(host: str) -> None:
    with pytest.raises(WebhookRefused) as refused:
        check_url(f"https://{host}/hook", [])
    assert "four decimal numbers" in str(refused.value), refused.value
    assert host not in str(refused.value)


@pytest.mark.parametrize(
    "host",
    [
        "discord.com",
        "hooks.slack.com",
        "0x10.example.org",
        "1e100.net",
        "123.example.org",
        "xn--bcher-kva.example",
    ],
)
def test_names_that_hold_digits_pass(host: str) -> None:
    assert check_url(f"https://{host}/hook", [])


@pytest.mark.parametrize("host", ["a..b", "exa mple.org", "ex%61mple.org", "a" * 64 + ".org"])
def test_hosts_that_are_no_names_are_refused(host: str) -> None:
    with pytest.raises(WebhookRefused):
        check_url(f"https://{host}/hook", [])


@pytest.mark.parametrize(("address", "kind"), [("64:ff9b::a00:1", "NAT64"), ("192.0.0.8", "IETF")])
def test_a_name_resolving_into_a_special_range_is_refused_when_sent(
    address: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name checks nothing when it is saved; every address it resolves to, when a
    message is sent."""

    async def resolved(host: str, port: int, **_: Any) -> list[Any]:
        family = socket.AF_INET6 if ":" in address else socket.AF_INET
        public = ("2606:4700::1111", port, 0, 0) if ":" in address else ("8.8.8.8", port)
        return [
            (family, socket.SOCK_STREAM, 6, "", public),
            (family, socket.SOCK_STREAM, 6, "", (address, port)),
        ]

    loop = asyncio.new_event_loop()
    monkeypatch.setattr(loop, "getaddrinfo", resolved)
    assert check_url("https://hooks.example.org/x", [])
    with pytest.raises(WebhookRefused) as refused:
        loop.run_until_complete(resolve("https://hooks.example.org/x", []))
    loop.close()
    assert kind in str(refused.value) and "not public" in str(refused.value)


def test_saving_a_numeric_or_special_host_is_refused(db_url: str) -> None:
    forget_accounts(db_url)
    with running_server(Settings(db_url=db_url, bot_workers=0)) as base:
        ann = Person(base)
        assert ann.signup("Ann").status_code == 201
        for url in (
            "https://2130706433/hook",
            "https://0x7f000001/hook",
            "https://127.1/hook",
            "https://0177.0.0.1/hook",
            "https://[64:ff9b::a00:1]/hook",
            "https://[2002:7f00:1::1]/hook",
            "https://192.0.0.8/hook",
            "https://203.0.113.9/hook",
        ):
            r = ann.post("/api/account/notifications", {"webhook": url})
            assert r.status_code == 422, (url, r.text)
            error = r.json()["error"]
            assert error["code"] == "bad_webhook" and url not in error["message"], error
        prefs = ann.get("/api/account/notifications").json()
        assert prefs["webhook"] is None
        # A public address written out is saved.
        r = ann.post("/api/account/notifications", {"webhook": "https://8.8.8.8/hook"})
        assert r.status_code == 200 and r.json()["webhook"] == "https://8.8.8.8/hook", r.text

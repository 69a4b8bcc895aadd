"""`euphrates serve`'s options for the names it answers to and whom it trusts."""

from __future__ import annotations

import argparse

import pytest

from euphrates.core.errors import ArgumentError
from euphrates.server.config import Settings
from euphrates.server.serve import add_arguments, settings_from


def _settings(*argv: str) -> Settings:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return settings_from(parser.parse_args(list(argv)))


def _refused(*argv: str) -> str:
    with pytest.raises(ArgumentError) as refused:
        _settings(*argv)
    return str(refused.value)


def test_loopback_answers_to_its_loopback_names_only() -> None:
    hosts = _settings().hosts()
    assert set(hosts) == {"127.0.0.1", "localhost", "[::1]"}
    assert "[::1]" in _settings("--host", "::1").hosts()


def test_a_named_address_answers_to_that_address_and_the_public_name() -> None:
    hosts = _settings("--host", "192.0.2.7", "--public-url", "https://play.example.org").hosts()
    assert set(hosts) == {"192.0.2.7", "play.example.org"}
    assert "localhost" not in hosts


def test_a_wildcard_address_needs_the_names_it_is_reached_by() -> None:
    for wildcard in ("0.0.0.0", "::"):
        message = _refused("--host", wildcard, "--port", "0")
        assert "--public-url" in message and "--allowed-host" in message
    hosts = _settings("--host", "0.0.0.0", "--allowed-host", "games.example.org").hosts()
    assert hosts == ["games.example.org"]
    hosts = _settings("--host", "::", "--public-url", "http://[2001:db8::1]:8000").hosts()
    assert hosts == ["[2001:db8::1]"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--allowed-host", "http://x.example"],
        ["--allowed-host", "x.example:80"],
        ["--allowed-host", ""],
        ["--public-url", "ftp://x.example"],
        ["--public-url", "x.example"],
        ["--trusted-proxy", "proxy.example"],
    ],
)
def test_bad_names_and_addresses_are_refused(argv: list[str]) -> None:
    assert argv[0] in _refused("--port", "0", *argv)


def test_trusted_proxies_are_addresses() -> None:
    assert _settings("--trusted-proxy", "10.0.0.2").trusted_proxies == ["10.0.0.2"]
    assert _settings().trusted_proxies == []

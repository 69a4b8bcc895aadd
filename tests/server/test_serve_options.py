"""`euphrates serve`'s options for the names it answers to and whom it trusts."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NoReturn

import pytest

from euphrates.core.errors import ArgumentError
from euphrates.server.common.config import Settings
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


def test_the_data_directory_expands_the_home_as_the_terminal_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`EUPHRATES_DATA_DIR=~/x` is the home's x, for the server as for the terminal; a
    `~user` without a home is one clear error naming the variable."""
    from euphrates.server.common.config import data_dir, default_db_url
    from euphrates.terminal.storage import data_dir as terminal_data_dir

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("EUPHRATES_DATA_DIR", "~/games-here")
    assert data_dir() == tmp_path / "games-here" == terminal_data_dir()
    assert default_db_url() == f"sqlite:///{tmp_path / 'games-here' / 'euphrates.db'}"
    monkeypatch.setenv("EUPHRATES_DATA_DIR", "~nosuchuser-of-euphrates/x")
    with pytest.raises(ArgumentError) as refused:
        data_dir()
    assert "EUPHRATES_DATA_DIR" in str(refused.value)
    assert "nosuchuser-of-euphrates" in str(refused.value)


def _loadtest_refused(monkeypatch: pytest.MonkeyPatch, *argv: str) -> str:
    from euphrates.bench import loadtest

    def started(*_args: object) -> NoReturn:
        raise AssertionError("servers were started for a load test that is refused")

    monkeypatch.setattr(loadtest, "_start_servers", started)
    parser = argparse.ArgumentParser()
    loadtest.add_arguments(parser)
    with pytest.raises(ArgumentError) as refused:
        loadtest.run(parser.parse_args(list(argv)))
    return str(refused.value)


@pytest.mark.parametrize("games", ["0", "-1", "2001", str(10**12)])
def test_the_load_test_has_a_bounded_number_of_games(
    monkeypatch: pytest.MonkeyPatch, games: str
) -> None:
    """Every game is created and its clients connected before play starts: a count
    beyond what one machine can hold is refused at once, not after minutes of work."""
    message = _loadtest_refused(monkeypatch, "--games", games, "--seconds", "1")
    assert "--games" in message and "2000" in message


def test_hint_workers_their_budget_and_the_levels_bots() -> None:
    default = _settings()
    assert (default.hint_workers, default.hints_per_minute, default.bot_levels) == (1, 10, {})
    chosen = _settings(
        "--hint-workers", "0", "--hints-per-minute", "3", "--bot-level", "expert=search:300i"
    )
    assert (chosen.hint_workers, chosen.hints_per_minute) == (0, 3)
    assert chosen.bot_levels == {"expert": "search:300i"}
    assert "--hint-workers must be 0 … 64" in _refused("--hint-workers", "-1")
    assert "--hints-per-minute" in _refused("--hints-per-minute", "0")
    assert "LEVEL one of" in _refused("--bot-level", "wizard=greedy")
    assert "--bot-level expert" in _refused("--bot-level", "expert=search:0i")
    assert "LEVEL one of" in _refused("--bot-level", "expert")


@pytest.mark.parametrize("flood", ["-1", "201"])
def test_the_hint_flood_has_a_bounded_number_of_games(
    monkeypatch: pytest.MonkeyPatch, flood: str
) -> None:
    from euphrates.server import serve

    def started(*_args: object) -> NoReturn:
        raise AssertionError("a server was started for a benchmark that is refused")

    monkeypatch.setattr(serve, "spawn", started)
    message = _loadtest_refused(monkeypatch, "--hint-flood", flood)
    assert "--hint-flood must be 1 … 200" in message

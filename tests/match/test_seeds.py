"""Seeds: one-way, stable across versions, separate per domain, 64-bit."""

from __future__ import annotations

import hashlib

import pytest

from euphrates.core.errors import ArgumentError
from euphrates.core.seeds import bot_seed, decision_seed, derive, fresh_seed, game_seed


def test_the_derivation_is_stable() -> None:
    """Records name their game seeds: the derivation must never change."""
    assert game_seed(1, 0) == 17432199805351650961
    assert game_seed(1, 1) == 14705220447905275370
    assert bot_seed(1, 0, 0) == 1173587914817361035
    assert decision_seed(5, 0) == 789925040265288779
    digest = hashlib.blake2b(b"game:1:0", digest_size=8).digest()
    assert game_seed(1) == int.from_bytes(digest, "big")


def test_domains_and_parts_are_separate() -> None:
    seeds = set()
    for base in (0, 1, 2, 2**64 - 1):
        for index in range(20):
            seeds.add(game_seed(base, index))
            for seat in range(4):
                seeds.add(bot_seed(base, index, seat))
    assert len(seeds) == 4 * 20 * 5  # no game seed equals a bot seed, no two alike
    assert derive("game", 1, 23) != derive("game", 12, 3)  # parts are delimited
    assert all(0 <= s < 2**64 for s in seeds)


def test_a_bot_seed_is_not_a_simple_function_of_the_game_seed() -> None:
    """The old `seed * 31 + seat` let a bot compute the deal from its own seed."""
    for base in range(50):
        g = game_seed(base)
        for seat in range(4):
            b = bot_seed(base, 0, seat)
            assert b not in (g, g * 31 + seat, g + seat, g ^ seat, (g * 1_000_003) * 8 + seat)


def test_bad_bases_are_refused() -> None:
    for bad in (-1, 2**64, "7", 1.0, True):
        with pytest.raises(ArgumentError):
            game_seed(bad)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError):
            bot_seed(bad, 0, 0)  # type: ignore[arg-type]


def test_fresh_seeds_are_64_bit_and_differ() -> None:
    seeds = {fresh_seed() for _ in range(32)}
    assert len(seeds) == 32
    assert all(0 <= s < 2**64 for s in seeds)

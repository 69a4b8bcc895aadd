"""Seeds that do not leak: every game and every bot gets its own 64-bit seed from a base
seed through a one-way hash, in separate domains.

A bot knows its own seed (it seeds its generator with it). Were a bot's seed a simple
function of the game's seed (`seed * 31 + seat`), the bot could invert it, re-create the
game with that seed and read the whole bag or deck. BLAKE2b cannot be inverted, and
the domain names (`game`, `bot`, `decision`) keep a bot's seed from ever equalling a
game's seed, so knowing one's own seed tells nothing about any other.

`fresh_seed()` is for unseeded games: 64 bits from the operating system's generator,
which nothing in the process can predict.
"""

from __future__ import annotations

import hashlib
import secrets

from euphrates.core.protocol import check_seed


def derive(domain: str, *parts: int) -> int:
    """A 64-bit seed from `domain` and `parts` (BLAKE2b, 8-byte digest)."""
    text = ":".join([domain, *(str(int(p)) for p in parts)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def game_seed(base: int, index: int = 0) -> int:
    """The seed game `index` of a run with seed `base` is dealt with."""
    return derive("game", check_seed(base), index)


def bot_seed(base: int, index: int, seat: int) -> int:
    """The seed of the bot in `seat` of game `index` of a run with seed `base`."""
    return derive("bot", check_seed(base), index, seat)


def decision_seed(bot: int, decision: int) -> int:
    """The seed of a bot's `decision`-th choice (a bot built afresh for each choice, as a
    worker does, still plays a seeded game exactly again)."""
    return derive("decision", bot, decision)


def fresh_seed() -> int:
    """A base seed nobody can guess: 64 bits from the operating system."""
    return secrets.randbits(64)

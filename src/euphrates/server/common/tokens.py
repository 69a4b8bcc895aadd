"""Secret links: a token is the only key to act for a seat or to host a game.

Tokens carry 192 random bits. The database keeps only their SHA-256, so a leaked
database gives no one a seat; a presented token is hashed and compared with each
stored hash in constant time (`hmac.compare_digest`), so response times say nothing
about how close a guess was. Game ids are public (a spectator's link) and random too,
so games cannot be enumerated.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable

TOKEN_BYTES = 24  # 192 bits
MAX_TOKEN_LENGTH = 64
MAX_TOKENS = 8
"""Tokens one request or connection may present: every seat of a game and its host's
(several players at one screen), with room to spare."""


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    """72 random bits in 12 characters, never starting with "-": an id is typed after
    commands (`euphrates admin end-game ID`), where a leading "-" reads as an option
    (one id in 64 did). Redrawing costs under 0.03 bits."""
    while True:
        game_id = secrets.token_urlsafe(9)
        if not game_id.startswith("-"):
            return game_id


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def well_formed(token: object) -> bool:
    return (
        isinstance(token, str)
        and 0 < len(token) <= MAX_TOKEN_LENGTH
        and token.isascii()
        and all(c.isalnum() or c in "-_" for c in token)
    )


def matches(token: str, stored: str | None) -> bool:
    """Whether `token` hashes to `stored`, compared in constant time."""
    if stored is None:
        return False
    return hmac.compare_digest(token_hash(token).encode(), stored.encode())


def find(token: str, stored: Iterable[tuple[int, str | None]]) -> int | None:
    """The key of the entry whose hash `token` matches; every entry is compared, so
    the time taken does not depend on which one (if any) matched."""
    found = None
    for key, h in stored:
        if matches(token, h):
            found = key
    return found

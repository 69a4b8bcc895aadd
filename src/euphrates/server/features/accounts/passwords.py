"""Account names and passwords: how a name is written and compared, and how a password
is hashed (Argon2id) and checked.

A name is kept as its owner wrote it (NFC) and compared folded: case-insensitively and
in compatibility form (NFKC of the casefold), so `Ann`, `ANN` and `Ａｎｎ` are one
account. Hashing runs in a thread, at most two at once: Argon2id takes tens of
milliseconds and 64 MiB on purpose, and the event loop must keep serving tables.
An unknown name is checked against a dummy hash, so that it costs the time a wrong
password does and the answer's timing does not tell which names exist.
"""

from __future__ import annotations

import asyncio
import threading
import unicodedata

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import DELETED_PREFIX

NAME_MIN, NAME_MAX = 2, 24
PASSWORD_MIN, PASSWORD_MAX = 8, 256
"""A long password is fine; an unbounded one would make each attempt cost the server."""
_EXTRA = frozenset("_-. ")

_hasher = PasswordHasher()  # argon2-cffi's RFC 9106 low-memory profile, type Argon2id
_slots = threading.BoundedSemaphore(2)
"""Hashes computed at once, by any event loop of the process."""
_dummy: str | None = None


def clean_account_name(name: object) -> str:
    """An account's name: NFC, 2–24 letters, digits, marks, spaces, `_`, `-` and `.`,
    starting with a letter or digit, single spaces."""
    if not isinstance(name, str):
        raise Refusal("bad_name", "a name must be text")
    text = unicodedata.normalize("NFC", name).strip()
    if not NAME_MIN <= len(text) <= NAME_MAX:
        raise Refusal("bad_name", f"a name is {NAME_MIN} to {NAME_MAX} characters")
    if "  " in text or unicodedata.category(text[0])[0] not in "LN":
        raise Refusal("bad_name", "a name starts with a letter or digit and has single spaces")
    for ch in text:
        if ch not in _EXTRA and unicodedata.category(ch)[0] not in "LNM":
            raise Refusal("bad_name", "a name holds letters, digits, spaces, '_', '-' and '.'")
    if text.lower().startswith(DELETED_PREFIX):
        raise Refusal("bad_name", f"names starting with {DELETED_PREFIX!r} are reserved")
    return text


def check_password(password: object) -> str:
    if not isinstance(password, str):
        raise Refusal("bad_password", "a password must be text")
    text = unicodedata.normalize("NFC", password)
    if not PASSWORD_MIN <= len(text) <= PASSWORD_MAX:
        raise Refusal("bad_password", f"a password is {PASSWORD_MIN} to {PASSWORD_MAX} characters")
    return text


def _hash(password: str) -> str:
    with _slots:
        return _hasher.hash(password)


def _verify(stored: str, password: str) -> bool:
    with _slots:
        try:
            return bool(_hasher.verify(stored, password))
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False


async def hash_password(password: str) -> str:
    return await asyncio.to_thread(_hash, password)


async def warm() -> None:
    """Make the dummy hash before the first log-in, which would otherwise pay for it
    (and so tell that its name is unknown)."""
    global _dummy
    if _dummy is None:
        _dummy = await hash_password("not a password anyone has")


async def verify_password(stored: str | None, password: str) -> bool:
    """Whether `password` matches `stored`; with `stored` None (no such account) the
    same work is done against a dummy hash, and the answer is False."""
    await warm()
    assert _dummy is not None
    against = stored if stored and stored.startswith("$argon2") else _dummy
    # Hashed as check_password keeps it (NFC): the same password typed with an accent
    # as a separate mark (NFD) must match, not count as a wrong guess.
    typed = unicodedata.normalize("NFC", password)
    ok = await asyncio.to_thread(_verify, against, typed)
    return ok and against is stored

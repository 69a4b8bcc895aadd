"""Guessing a password, slowed where it is guessed: per account name and client
address. A few wrong passwords are free (typos); then each attempt of that pair must
wait twice as long as the one before — 1, 2, 4 … seconds, up to a quarter of an hour —
and is refused with `rate_limited` until then, its password unchecked. The owner,
from any other address, logs in at once: wrong passwords sent against a name lock no
one else out (a lock-out per name alone would be a way to keep a player from their
account). A right password clears its pair; a pair left alone for a day starts
again. The counts are in the database (store/logins.py), so every server process
refuses alike.

What one address may try over all names is the per-address bucket's business
(`logins_per_minute`, in the routes): it stops one address from spraying names.
"""

from __future__ import annotations

import math
from datetime import timedelta

from euphrates.server.common.refusals import Refusal
from euphrates.server.common.text import name_key
from euphrates.server.store.database import Database
from euphrates.server.store.logins import LoginFailures

FREE = 5
"""Attempts of one pair with no wait after them."""
LONGEST = 900.0
"""The longest wait, in seconds."""
FORGET = timedelta(days=1)
"""A pair with no attempt this long starts again from nothing."""


def delay(attempts: int) -> float:
    """The seconds a pair waits after its `attempts`-th attempt since its last right
    password: none after the first FREE, then 1, 2, 4 … up to LONGEST."""
    if attempts <= FREE:
        return 0.0
    return min(LONGEST, 2.0 ** min(attempts - FREE - 1, 30))


class Lockout:
    def __init__(self, database: Database) -> None:
        self.failures = LoginFailures(database)

    async def admit(self, name: str, address: str) -> None:
        """Count an attempt at `name`'s password from `address`, or refuse it while
        that pair must wait."""
        wait = await self.failures.attempt(name_key(name), address, delay, FORGET)
        if wait > 0:
            raise Refusal(
                "rate_limited",
                "too many wrong passwords for this name from this address; "
                f"try again in {math.ceil(wait)} s",
            )

    async def passed(self, name: str, address: str) -> None:
        """The password was right: the pair's attempts are forgotten."""
        await self.failures.clear(name_key(name), address)

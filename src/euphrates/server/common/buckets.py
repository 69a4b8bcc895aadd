"""Token buckets: how often a client address (or a name, an account) may do something —
requests, log-ins, new games, messages — a steady rate with a burst."""

from __future__ import annotations

import time
from collections.abc import Callable


class Bucket:
    """A token bucket: `rate` a second, `burst` at once."""

    __slots__ = ("at", "burst", "level", "rate")

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.level = float(burst)
        self.at = time.monotonic() if now is None else now

    def take(self, now: float | None = None) -> bool:
        if now is None:
            now = time.monotonic()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level >= 1:
            self.level -= 1
            return True
        return False

    def full(self, now: float) -> bool:
        return self.level + (now - self.at) * self.rate >= self.burst


class Buckets:
    """One bucket per key (a client address). Buckets that have refilled are the same
    as new ones, so when there are too many they are dropped, and only those."""

    def __init__(
        self,
        rate: float,
        burst: float,
        most: int = 20_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.most = most
        self.clock = clock
        """Where the buckets read the time: a test of a budget holds it still, so that a
        slow machine's seconds between two requests do not refill it."""
        self.buckets: dict[str, Bucket] = {}

    def take(self, key: str) -> bool:
        now = self.clock()
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.most:
                for k in [k for k, b in self.buckets.items() if b.full(now)]:
                    del self.buckets[k]
            bucket = self.buckets[key] = Bucket(self.rate, self.burst, now)
        return bucket.take(now)

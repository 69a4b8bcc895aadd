"""Server settings: where games are kept and the limits every connection is held to.

The defaults are what `euphrates serve` runs with on a fresh machine: SQLite in the
user's data directory, loopback only, bots in as many worker processes as there are
cores. Everything a test or a deployment changes is a field here, never a global.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


def data_dir() -> Path:
    """The user's data directory (`platformdirs`), or `EUPHRATES_DATA_DIR` when set,
    read as the terminal reads it: `~` and `~user` expanded (a shell leaves a quoted
    `~` alone), a `~user` without a home an ArgumentError naming the variable."""
    explicit = os.environ.get("EUPHRATES_DATA_DIR")
    if explicit:
        from euphrates.match.files import user_path

        return user_path(explicit, "EUPHRATES_DATA_DIR=")
    from platformdirs import user_data_dir

    return Path(user_data_dir("euphrates", appauthor=False))


def default_db_url() -> str:
    return f"sqlite:///{data_dir() / 'euphrates.db'}"


def async_db_url(url: str) -> str:
    """The SQLAlchemy async URL for a user's `--db`: `sqlite:///file.db` or
    `postgresql://user@host/db` as people write them, the drivers added here."""
    if url.startswith(("sqlite+aiosqlite:", "postgresql+asyncpg:")):
        return url
    if url.startswith("sqlite:"):
        return "sqlite+aiosqlite:" + url[len("sqlite:") :]
    for prefix in ("postgresql:", "postgres:"):
        if url.startswith(prefix):
            return "postgresql+asyncpg:" + url[len(prefix) :]
    raise ValueError(f"--db must be a sqlite:/// or postgresql:// URL, not {url.split(':')[0]!r}")


def cpu_count() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


REVIEW_DEPTH = "full"
"""The review's depth when none is given; the test suite lowers it, as it lowers the
bots' pace, since every game it ends is reviewed in the background."""


@dataclass
class Settings:
    db_url: str = field(default_factory=default_db_url)
    bot_workers: int = field(default_factory=lambda: max(1, cpu_count()))
    bot_pace: float = 0.4
    """Seconds a bot waits before it moves: a table where bots answer instantly is hard
    to follow, and it leaves a player a moment to take an action back (B-, G-3)."""
    clock_day: float = 86400.0
    """A day of a turn-based clock, in seconds: shorter only for trials and load tests."""
    forfeit_grace: float = 60.0
    """Real-time: seconds a player out of time has to move or take the seat back before
    the seat is forfeited (docs/fair-play.md); shorter only in tests."""
    max_message: int = 4096
    """The largest WebSocket message a client may send (bytes); the protocol layer cuts
    anything above `max_frame`, the server answers `too_large` below that."""
    max_frame: int = 65536
    max_body: int = 16384
    """The largest HTTP request body (bytes), counted as it arrives."""
    rate_per_s: float = 20.0
    rate_burst: int = 40
    requests_per_s: float | None = None
    """HTTP requests to /api/ one client address may make a second (twice that at
    once); by default five times `rate_per_s`."""
    chat_max: int = 500
    name_max: int = 40
    hello_timeout: float = 10.0
    max_connections_per_address: int = 64
    """WebSocket connections one client address may hold at once (a household behind one
    address opens a few; hundreds are an attack)."""
    max_http_connections_per_address: int = 64
    """HTTP connections one client address may hold open at once (a browser opens up to
    six and keeps each a few seconds; thousands are an attack). A trusted proxy's are
    not counted (transport/serving.py)."""
    request_timeout: float = 10.0
    """Seconds a request's headers and body have to arrive whole, from the connection's
    opening (or the request's first byte, on a connection kept alive): a client that
    sends a byte a second holds nothing for long."""
    keep_alive: int = 5
    """Seconds an idle connection is kept open between two requests (uvicorn's)."""
    max_header: int = 16384
    """The largest request head (request line and headers, bytes), counted as it arrives."""
    games_per_hour: float = 60.0
    """Games one client address may create an hour (a burst of as many at once)."""
    chat_lines: int = 1000
    """Chat lines a game keeps; more are refused (`chat_full`)."""
    waiting_expiry: float = 86400.0
    """Seconds a game may wait for its players since it was created or a seat was last
    taken; then it expires (`expired`)."""
    logins_per_minute: float = 10.0
    """Log-in and sign-up attempts a minute per client address (as many at once), over
    every name: one address cannot try many names fast. Guessing one name's password
    from one address is slowed besides, by growing delays (features/accounts/lockout.py)."""
    signups_per_hour: float = 20.0
    """Accounts one client address may create an hour (as many at once)."""
    session_days: float = 30.0
    """How long a log-in lasts (then the browser logs in again)."""
    presence_grace: float = 5.0
    """Seconds an account (or a seat at a table) still counts as connected after its
    last connection closed: a page reloaded or a network hiccup makes no dot flicker
    and writes nothing."""
    public_url: str | None = None
    """Base of the links the server hands out; by default the address it was reached at."""
    listen_url: str | None = None
    """Where `euphrates serve` listens (set once bound): the links of messages sent
    out of the browser when there is no `public_url`."""
    trusted_proxies: list[str] = field(default_factory=list)
    """Addresses of reverse proxies whose `X-Forwarded-For` names the client. From any
    other peer the header is ignored: the client's address (for the per-address
    limits) is the socket's peer."""
    allowed_hosts: list[str] = field(default_factory=lambda: list(LOOPBACK_NAMES))
    """The names the server answers to in `Host` (with `public_url`'s): a page served
    from any other name that resolves to this machine (DNS rebinding) is refused.
    `euphrates serve` sets them from --host and --allowed-host."""
    replay_buffer: int = 64
    """How many recent versions' patches a game keeps per audience for reconnects."""
    bot_command: list[str] | None = None
    """The bot worker's command (tests put a recording worker here); by default
    `python -m euphrates.bots.worker`."""
    hint_workers: int = 1
    """Bot workers of their own for hints and reviews, started at a lower scheduling
    priority, so that no table's move waits behind a hint (game/workers.py); 0: hints
    and reviews take a table's worker only while another stays idle."""
    hints_per_minute: float = 10.0
    """Hints one account — or, signed out, one client address — may take a minute (as
    many at once): a hint is a second of a worker's search."""
    bot_levels: dict[str, str] = field(default_factory=dict)
    """The bot a level plays with where it is not bots/levels.py's (`strong`:
    `search:300i`). A fixed number of iterations makes a move the same work however
    loaded the machine, so that a benchmark's time per move measures only waiting."""
    smtp_url: str | None = None
    """Where e-mail goes out (`smtp://user:pass@host:port`, `smtps://…`); None: the
    server sends no e-mail (mail.py). Never printed: it may hold a password."""
    mail_from: str | None = None
    """The sender of the server's mail; by default `euphrates@` the public name."""
    webhook_allow: list[str] = field(default_factory=list)
    """Networks a webhook may reach although they are not public (`127.0.0.1/32`), and
    over plain http: a club's own chat bot on its LAN, or a test's sink (webhooks.py)."""
    notify_untimed_after: float = 600.0
    """Seconds a decision in a game without a clock waits before its player is told
    out of the browser: two people playing live are not mailed every move."""
    notify_retry: float = 30.0
    """Seconds before a failed message is tried again, doubled each time (with jitter)."""
    notify_attempts: int = 8
    """Attempts before a message is given up (about two hours at the default retry)."""
    review_poll: float = 5.0
    """Seconds between a server's looks for an ended game's review to compute
    (reviews.py); a game that ends on this server is looked for at once."""
    review_depth: str = field(default_factory=lambda: REVIEW_DEPTH)
    """How deep the review judges each move (bots/review.py, DEPTHS): "full", or
    "quick" for a tenth of the rollouts or fewer, each shorter (a machine that cannot
    spare the full review; the tests)."""
    tournaments_by: str = "members"
    """Who may create a tournament: "members" (any signed-in account) or "admins"."""
    web: bool = True
    """Serve the browser tables (the package's static files) beside the API."""

    @property
    def secure_cookies(self) -> bool:
        """Cookies only over TLS when the server is reached over https."""
        return bool(self.public_url and self.public_url.startswith("https://"))

    def hosts(self) -> list[str]:
        """Every name a request's `Host` may give, IPv6 literals in brackets."""
        names = list(self.allowed_hosts)
        if self.public_url:
            name = urlsplit(self.public_url).hostname
            if name:
                names.append(f"[{name}]" if ":" in name else name)
        return names

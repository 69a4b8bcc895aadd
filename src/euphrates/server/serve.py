"""`euphrates serve`: run the game server with uvicorn and say where it listens.

The address is printed once the socket is bound (with `--port 0` the system picks a
free port, which tests and the load generator use), as one line that starts with
`serving on`, then the lobby's address again for people to open.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import ipaddress
import logging
import os
import re
import socket
import subprocess
import sys
import webbrowser
from urllib.parse import urlsplit

from euphrates.core.errors import ArgumentError
from euphrates.server.common.config import LOOPBACK_NAMES, Settings, async_db_url, default_db_url
from euphrates.server.features.notifications.mail import parse_smtp_url

HOST_NAME = re.compile(
    r"(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?)*"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (a wildcard, 0.0.0.0 or ::, needs --public-url or "
        "--allowed-host)",
    )
    p.add_argument("--port", type=int, default=8000, help="port (0: any free port)")
    p.add_argument(
        "--db",
        default=None,
        help="database URL: sqlite:///path.db or postgresql://user@host/db "
        "(default: SQLite in the user's data directory)",
    )
    p.add_argument(
        "--bot-workers", type=int, default=None, help="bot processes (default: one per core)"
    )
    p.add_argument(
        "--bot-pace", type=float, default=0.4, help="seconds a bot waits before it moves"
    )
    p.add_argument(
        "--hint-workers",
        type=int,
        default=1,
        help="bot processes of their own, at a lower priority, for hints and reviews, so "
        "that no table's bot waits behind them (0: they take a table's bot process only "
        "while another stays idle)",
    )
    p.add_argument(
        "--review-depth",
        choices=["full", "quick"],
        default="full",
        help="how deep the review of an ended game judges each move (quick: 16 rollouts a "
        "move instead of up to 176, each shorter, for a small machine)",
    )
    p.add_argument(
        "--hints-per-minute",
        type=float,
        default=10,
        help="hints one account (signed out, one address) may take a minute (as many at once)",
    )
    p.add_argument(
        "--bot-level",
        action="append",
        default=[],
        metavar="LEVEL=BOT",
        help="play a level with another bot (repeatable; strong=search:300i: a fixed "
        "number of iterations, for benchmarks)",
    )
    p.add_argument(
        "--rate-limit",
        type=float,
        default=20.0,
        help="messages a second one connection may send (twice that at once)",
    )
    p.add_argument(
        "--request-limit",
        type=float,
        default=None,
        help="HTTP requests to /api/ one client address may make a second (twice that at "
        "once; default: five times --rate-limit)",
    )
    p.add_argument(
        "--games-per-hour",
        type=float,
        default=60,
        help="games one client address may create an hour (as many at once)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=64,
        help="WebSocket connections one client address may hold at once",
    )
    p.add_argument(
        "--max-http-connections",
        type=int,
        default=64,
        help="HTTP connections one client address may hold open at once (a trusted "
        "proxy's are not counted)",
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="a request's headers and body must arrive within this time; a slower "
        "connection is closed",
    )
    p.add_argument("--chat-lines", type=int, default=1000, help="chat lines a game keeps")
    p.add_argument(
        "--expire-waiting",
        type=float,
        default=24,
        metavar="HOURS",
        help="a game still waiting for players this long after its last seat was taken "
        "(or its creation) expires",
    )
    p.add_argument("--open", action="store_true", help="open the lobby in a browser")
    p.add_argument(
        "--public-url",
        default=None,
        help="base of the links handed out (http[s]://name[:port]); its name is one the "
        "server answers to",
    )
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name clients reach the server by (repeatable; *.example.org for its "
        "subdomains). Requests naming any other host are refused (DNS rebinding). On "
        "loopback the loopback names are allowed, on an address that address; with a "
        "wildcard --host (0.0.0.0, ::) give --public-url or --allowed-host",
    )
    p.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDR",
        help="address of a reverse proxy whose X-Forwarded-For names the client "
        "(repeatable); from anyone else the header is ignored",
    )
    p.add_argument(
        "--clock-day",
        type=float,
        default=86400.0,
        metavar="SECONDS",
        help="the length of a day on turn-based clocks (default a day; shorter for trials)",
    )
    p.add_argument(
        "--smtp",
        default=os.environ.get("EUPHRATES_SMTP") or None,
        metavar="URL",
        help="send e-mail (turn messages, address checks) through this server: "
        "smtp://user:password@host:587 (STARTTLS when offered; ?starttls=required or "
        "never), smtps://…:465 (TLS). Without it the server sends no e-mail. Default: "
        "the environment's EUPHRATES_SMTP, which keeps the password out of the process list",
    )
    p.add_argument(
        "--mail-from",
        default=None,
        metavar="ADDRESS",
        help="the sender of the server's e-mail (default: euphrates@ the public name)",
    )
    p.add_argument(
        "--webhook-allow",
        action="append",
        default=[],
        metavar="NETWORK",
        help="a network webhooks may reach although it is not public, over http too "
        "(repeatable; 192.168.1.0/24). By default webhooks go to public https addresses only",
    )
    p.add_argument(
        "--notify-untimed-after",
        type=float,
        default=10,
        metavar="MINUTES",
        help="in a game without a clock, tell a player out of the browser only once a "
        "decision has waited this long for them (turn-based games: at once)",
    )
    p.add_argument(
        "--tournaments-by",
        choices=["members", "admins"],
        default="members",
        help="who may create a tournament: any signed-in member (default) or admins only",
    )
    p.add_argument("--log-level", default="warning", choices=["debug", "info", "warning"])


BOUNDS = (
    ("port", 0, 65535, ""),
    ("bot_workers", 0, 64, ""),
    ("bot_pace", 0, 60, " seconds"),
    ("hint_workers", 0, 64, ""),
    ("hints_per_minute", 0.01, 1_000_000, ""),
    ("clock_day", 0.1, 86400, " seconds"),
    ("rate_limit", 1, 100_000, " messages a second"),
    ("request_limit", 1, 1_000_000, " requests a second"),
    ("games_per_hour", 1, 1_000_000, ""),
    ("max_connections", 1, 1_000_000, ""),
    ("max_http_connections", 1, 1_000_000, ""),
    ("request_timeout", 0.1, 3600, " seconds"),
    ("chat_lines", 1, 1_000_000, ""),
    ("expire_waiting", 0.01, 24 * 365, " hours"),
    ("notify_untimed_after", 0, 7 * 24 * 60, " minutes"),
)
"""Each numeric option's range (None, where allowed, takes the default); NaN fails
every comparison, so it is refused too."""


def settings_from(args: argparse.Namespace) -> Settings:
    for name, low, high, unit in BOUNDS:
        value = getattr(args, name)
        if value is not None and not low <= value <= high:
            option = "--" + name.replace("_", "-")
            raise ArgumentError(f"{option} must be {_plain(low)} … {_plain(high)}{unit}")
    url = args.db or default_db_url()
    async_db_url(url)  # refuse an unknown scheme before starting
    settings = Settings(
        db_url=url,
        bot_pace=args.bot_pace,
        clock_day=args.clock_day,
        public_url=_public_url(args.public_url),
        rate_per_s=args.rate_limit,
        rate_burst=max(1, int(args.rate_limit * 2)),
        allowed_hosts=_allowed_hosts(args.host, args.allowed_host, args.public_url),
        trusted_proxies=[_address("--trusted-proxy", a) for a in args.trusted_proxy],
        requests_per_s=args.request_limit,
        games_per_hour=args.games_per_hour,
        max_connections_per_address=args.max_connections,
        max_http_connections_per_address=args.max_http_connections,
        request_timeout=args.request_timeout,
        chat_lines=args.chat_lines,
        waiting_expiry=args.expire_waiting * 3600,
        smtp_url=_smtp(args.smtp),
        mail_from=_mail_from(args.mail_from),
        webhook_allow=_webhook_allow(args.webhook_allow),
        notify_untimed_after=args.notify_untimed_after * 60,
        hint_workers=args.hint_workers,
        review_depth=args.review_depth,
        hints_per_minute=args.hints_per_minute,
        bot_levels=_bot_levels(args.bot_level),
        tournaments_by=args.tournaments_by,
    )
    if args.bot_workers is not None:
        settings.bot_workers = args.bot_workers
    return settings


def _bot_levels(values: list[str]) -> dict[str, str]:
    from euphrates.bots.levels import LEVELS, make_bot  # the bots load only when asked for

    levels = {}
    for value in values:
        level, equals, spec = value.partition("=")
        if not equals or level not in LEVELS:
            raise ArgumentError(f"--bot-level must be LEVEL=BOT, LEVEL one of {', '.join(LEVELS)}")
        try:
            make_bot(spec, 0)
        except ValueError as e:
            raise ArgumentError(f"--bot-level {level}: {e}") from None
        levels[level] = spec
    return levels


def _smtp(url: str | None) -> str | None:
    if url is None:
        return None
    try:
        parse_smtp_url(url)
    except ValueError as e:  # its message never repeats the URL: it may hold a password
        raise ArgumentError(str(e)) from None
    return url


def _mail_from(address: str | None) -> str | None:
    if address is not None and (
        "@" not in address or any(c in address for c in "\r\n") or len(address) > 300
    ):
        raise ArgumentError("--mail-from must be an address (Name <name@example.org>)")
    return address


def _webhook_allow(values: list[str]) -> list[str]:
    # here, not at the top: every `euphrates` command builds serve's parser, and the
    # webhooks' HTTP client is a tenth of a second to load
    from euphrates.server.features.notifications.webhooks import networks

    try:
        return [str(n) for n in networks(values)]
    except ValueError as e:
        raise ArgumentError(str(e)) from None


def _plain(number: float) -> str:
    return str(int(number)) if float(number).is_integer() else str(number)


def _public_url(url: str | None) -> str | None:
    if url is None:
        return None
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ArgumentError(f"--public-url must be http://name[:port] or https://…, not {url!r}")
    return url.rstrip("/")


def _address(option: str, value: str) -> str:
    try:
        return str(ipaddress.ip_address(value.strip("[]")))
    except ValueError:
        raise ArgumentError(f"{option} must be an IP address, not {value!r}") from None


def _allowed_hosts(bound: str, named: list[str], public_url: str | None) -> list[str]:
    """The names a request's Host may give: the bound address (with the loopback names
    on loopback) and those named. A wildcard address names nothing a client uses."""
    names = []
    for name in named:
        if HOST_NAME.fullmatch(name):
            names.append(name.lower())
        else:
            try:
                names.append(f"[{ipaddress.IPv6Address(name.strip('[]'))}]")
            except ValueError:
                raise ArgumentError(
                    f"--allowed-host must be a name or an address without scheme or port, "
                    f"not {name!r}"
                ) from None
    try:
        address = ipaddress.ip_address(bound)
    except ValueError:  # a name, such as localhost
        return [*({bound.lower(), *LOOPBACK_NAMES} if bound == "localhost" else {bound}), *names]
    if address.is_unspecified:
        if not names and not public_url:
            raise ArgumentError(
                f"--host {bound} answers on every address: name the server as clients "
                "reach it with --public-url or --allowed-host"
            )
        return names
    literal = f"[{address}]" if address.version == 6 else str(address)
    if address.is_loopback:
        return [*dict.fromkeys([*LOOPBACK_NAMES, literal]), *names]
    return [literal, *names]


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from euphrates.server.transport.app import create_app
    from euphrates.server.transport.serving import uvicorn_options

    settings = settings_from(args)
    logging.basicConfig(level=args.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
    sock = socket.socket(socket.AF_INET6 if ":" in args.host else socket.AF_INET)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        raise OSError(f"cannot listen on {args.host}:{args.port}: {e.strerror}") from None
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    address = f"http://{shown}:{port}/"
    settings.listen_url = address.rstrip("/")
    config = uvicorn.Config(
        create_app(settings),
        log_level=args.log_level,
        access_log=args.log_level != "warning",
        **uvicorn_options(settings),
    )
    server = uvicorn.Server(config)

    async def main() -> int:
        with server.capture_signals():
            config.load()
            server.lifespan = config.lifespan_class(config)
            await server.startup(sockets=[sock])
            if server.should_exit:
                return 1
            where = settings.db_url.rsplit("@", 1)[-1]  # never print a password
            print(f"serving on {address} (games in {where})", flush=True)
            if settings.smtp_url:  # never its password
                print(f"e-mail through {parse_smtp_url(settings.smtp_url).shown()}", flush=True)
            lobby = f"{settings.public_url}/" if settings.public_url else address
            print(f"open {lobby} in a browser to play; Ctrl-C stops the server", flush=True)
            if args.open:
                _open(lobby)
            await server.main_loop()
            await server.shutdown(sockets=[sock])
        return 0

    # Long-lived objects (engines' tables, the app) need not be traversed by every
    # collection; games allocate many short-lived ones, so collect less often.
    gc.collect()
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    try:
        import uvloop

        with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
            return runner.run(main())
    except ImportError:  # pragma: no cover - uvloop is optional (not on every platform)
        return asyncio.run(main())


def spawn(db: str, *extra: str) -> tuple[subprocess.Popen[str], str]:
    """`euphrates serve` in a child process on a free loopback port, for the load test
    and the crash tests: returns the process and its address, once it listens."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "euphrates", "serve", "--port", "0", "--db", db, *extra],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if not line.startswith("serving on "):
        proc.kill()
        raise RuntimeError(f"the server did not start: {line.strip()!r}")
    return proc, line.split()[2].rstrip("/")


def _open(address: str) -> None:
    """Open the lobby where there is a screen. Without one (a server, a container),
    Python would start a text browser in this very terminal: the address is enough."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return
    try:
        webbrowser.open(address)
    except Exception as e:  # no browser here: the printed address is enough
        print(f"(could not open a browser: {e})", file=sys.stderr)

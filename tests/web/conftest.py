"""Browser tests: each test starts its own server (uvicorn in a process of its own,
forked from one that imported the server, with a temporary SQLite file) and drives
pages in headless Chromium.

Chromium is the system's (`/usr/bin/chromium`, or `EUPHRATES_CHROMIUM`); nothing is
downloaded. Without it the tests are skipped, except in CI (`CI=true`), where a
missing browser is a failure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import signal
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from euphrates.server.features.deps import SESSION_COOKIE
from tests.web.server_forks import ServerForks

CHROMIUM = os.environ.get("EUPHRATES_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).parent / "screenshots"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# How long a server may take to answer its health check: on a loaded machine (a full
# `make test` on 2 cores beside other work) starting Python and the app took over
# 20 s; a server that works answers long before, one that failed to start is seen
# at once (its process ends).
START_BOUND = 120.0


def _missing(what: str) -> None:
    if IN_CI:
        pytest.fail(f"{what} (browser tests must run in CI)")
    pytest.skip(what)


class Server:
    """A running server and small helpers for its HTTP API."""

    def __init__(self, base: str) -> None:
        self.base = base

    def call(
        self, method: str, path: str, body: Any = None, tokens: list[str] | None = None
    ) -> Any:
        headers = {"content-type": "application/json"}
        if tokens:
            headers["authorization"] = "Bearer " + ",".join(tokens)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, headers=headers, method=method)
        with urllib.request.urlopen(req, timeout=10) as res:
            return json.loads(res.read())

    def create(
        self,
        players: int,
        *,
        options: dict[str, bool] | None = None,
        game: str = "board",
        bots: Sequence[str] = (),
    ) -> Any:
        """A game whose first seats are people's and whose last are bots of `bots`' levels."""
        seats = [{"kind": "human"}] * (players - len(bots))
        seats += [{"kind": "bot", "level": level} for level in bots]
        return self.call(
            "POST",
            "/api/games",
            {"game": game, "players": players, "seats": seats, "options": options or {}},
        )

    def join(self, game: Any, names: Sequence[str | None]) -> None:
        """Seat i takes its seat as names[i] over HTTP (None: left untaken)."""
        for seat, name in enumerate(names):
            if name is not None:
                token = game["seats"][seat]["token"]
                self.call("POST", f"/api/games/{game['id']}/join", {"name": name}, [token])

    def view(self, game_id: str, token: str, seat: int) -> Any:
        return self.call("GET", f"/api/games/{game_id}", tokens=[token])["views"][str(seat)]


@pytest.fixture(scope="session")
def forks() -> Iterator[ServerForks]:
    """One interpreter per test process that has imported the server and forks one
    for each test that asks."""
    with ServerForks() as f:
        yield f


def _ended(done: int, seconds: float) -> bool:
    """Whether the process behind pidfd `done` ends within `seconds`."""
    return bool(select.select([done], [], [], seconds)[0])


@contextmanager
def serving(
    forks: ServerForks,
    tmp_path: Path,
    bot_workers: int,
    seed: int | None = None,
    forfeit_grace: float | None = None,
) -> Iterator[Server]:
    """A server in a process of its own with a fresh SQLite file (`tmp_path /
    "games.db"`) and `bot_workers` bot worker processes, dealing every game from `seed`
    if given; stopped (SIGTERM, as a service manager would) on leaving."""
    log = tmp_path / "server.log"
    pid, port = forks.start(tmp_path / "games.db", bot_workers, seed, log, forfeit_grace)
    done = os.pidfd_open(pid)
    base = f"http://127.0.0.1:{port}"
    try:
        # The socket listens already: the request waits until the app serves it.
        try:
            urllib.request.urlopen(base + "/api/health", timeout=START_BOUND).read()
        except OSError as e:
            raise RuntimeError(f"server did not start ({e}): {log.read_text()}") from None
        yield Server(base)
    finally:
        os.kill(pid, signal.SIGTERM)
        stopped = _ended(done, 20)
        if not stopped:
            os.kill(pid, signal.SIGKILL)
            _ended(done, 10)
        os.close(done)
        # A server that ignores SIGTERM makes a service manager wait and then kill it:
        # a defect of its own (a task that swallowed its cancellation), not slowness.
        assert stopped, f"the server did not stop within 20 s of SIGTERM: {log.read_text()}"


@pytest.fixture
def server(forks: ServerForks, tmp_path: Path) -> Iterator[Server]:
    with serving(forks, tmp_path, 0) as s:
        yield s


@pytest.fixture
def bot_server(forks: ServerForks, tmp_path: Path) -> Iterator[Server]:
    """A server whose bot seats play, in one bot worker process (skipped where the
    worker, `euphrates.bots.worker`, is absent)."""
    if importlib.util.find_spec("euphrates.bots.worker") is None:
        pytest.skip("the bot worker (euphrates.bots.worker) is not here")
    with serving(forks, tmp_path, 1) as s:
        yield s


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Python Playwright is not installed")
    if not Path(CHROMIUM).exists():
        _missing(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        # Playwright's own --disable-features, read from the browser it starts: Chromium
        # keeps only the last such switch, so ours must repeat Playwright's list.
        probe = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        theirs = _switch_of_our_browser("--disable-features=")
        probe.close()
        if theirs is None:
            pytest.fail("could not read Playwright's --disable-features from its Chromium")
        features = ",".join(filter(None, [theirs, *QUIET_FEATURES]))
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            args=[*ARGS, f"--disable-features={features}"],
            ignore_default_args=[f"--disable-features={theirs}"],
        )
        yield b
        b.close()


QUIET_FEATURES = ("WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
"""The address bar's pop-ups, which a headless browser never shows: Chromium starts a
renderer for them in every browser context (every test page), and on a full suite those
renderers used more CPU than the pages under test (README, *Two commands*)."""


def _switch_of_our_browser(prefix: str) -> str | None:
    """A switch's value on the command line of the Chromium this process's Playwright
    driver started, `""` when it has none, None when no browser is found."""
    args = _our_browser_args()
    if args is None:
        return None
    return next((a[len(prefix) :] for a in args if a.startswith(prefix)), "")


def _our_browser_args() -> list[str] | None:
    """The command line of the Chromium this process's Playwright driver started (its
    grandchild), None when there is none."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    drivers = {pid for pid, parent in parents.items() if parent == os.getpid()}
    for pid, parent in parents.items():
        if parent not in drivers:
            continue
        try:
            args = Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")
        except OSError:
            continue
        if "--remote-debugging-pipe" in args:
            return args
    return None


class Pages:
    """Opens pages that record console errors, page errors and WebSocket frames."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.frames: dict[Any, list[tuple[float, str]]] = {}

    def open(
        self,
        url: str,
        *,
        locale: str = "en-US",
        width: int = 1400,
        height: int = 900,
        touch: bool = False,
        init: str | None = None,
        worker: bool = False,
        motion: str = "reduce",
        session: str | None = None,
    ) -> Any:
        """A page in a new context; `init` is a script run in it before the page's own.
        The service worker is blocked unless `worker` (tests/web/test_install.py tests
        it): every other test sees the pages as the server serves them.

        Pages ask for reduced motion unless `motion` says otherwise (test_follow.py
        checks the animations, and that none run under reduced motion): a conflict's
        glow and the guided game's pulsing ring, endless animations, kept Chromium
        drawing every frame of every table open in a test, 8 % of a core each, and the
        screenshots caught them at whatever frame they had reached.

        `session` is an account's session cookie, set before the first page loads: a
        page costs Chromium some 0.6 CPU-seconds, and signed-in pages used to load a
        page of the site first only to have somewhere to set it."""
        ctx = self.browser.new_context(
            viewport={"width": width, "height": height},
            locale=locale,
            has_touch=touch,
            is_mobile=touch,
            service_workers="allow" if worker else "block",
            reduced_motion=motion,
        )
        self.contexts.append(ctx)
        if session is not None:
            site = urllib.parse.urlsplit(url)
            cookie = {"name": SESSION_COOKIE, "value": session}
            ctx.add_cookies([{**cookie, "url": f"{site.scheme}://{site.netloc}/"}])
        if init:
            ctx.add_init_script(init)
        page = ctx.new_page()
        frames: list[tuple[float, str]] = []
        self.frames[page] = frames

        def on_console(msg: Any) -> None:
            if msg.type == "error":
                where = (msg.location or {}).get("url") or ""
                self.errors.append(
                    f"console: {msg.text} ({where})" if where else f"console: {msg.text}"
                )

        def on_ws(ws: Any) -> None:
            ws.on("framereceived", lambda f: frames.append((time.monotonic(), f)))

        page.on("console", on_console)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("websocket", on_ws)
        page.goto(url)
        return page

    def close(self) -> None:
        for ctx in self.contexts:
            ctx.close()
        self.contexts.clear()


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    p = Pages(browser)
    try:
        yield p
    finally:
        p.close()
    assert not p.errors, "errors in the browser:\n" + "\n".join(p.errors)


def shot(page: Any, name: str) -> Path:
    SCREENSHOTS.mkdir(exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path

"""The browser's pages, beside the API: the lobby, a table, a replay, a game's rules,
a player's profile, the leaderboards, the fair-play rules, the account's settings, the
admins' page (the scripts and styles they load are the static files under /static).

The pages differ only in the module they start, so they are one file,
`web/page.html`, filled in once per page and kept. Every page refuses to send a referrer:
a table's address carries a seat's token in its fragment, and no link followed from a
page should ever learn even the page's path.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from euphrates import __version__
from euphrates.core.errors import EuphratesError
from euphrates.games import GAMES
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import GameName
from euphrates.server.features.deps import ServicesDep
from euphrates.words.book import LANGS

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
TEMPLATE = WEB_DIR / "page.html"
PRELOAD = '<link rel="modulepreload" href="/static/js/{game}/table.js">'
"""A table's game module (its name is the game's) is fetched while the page's own
script starts, one round trip earlier, and only that game's."""


@cache
def _page(script: str, game: str | None = None) -> str:
    html = TEMPLATE.read_text(encoding="utf-8").replace("{script}", script)
    return html.replace("<!--preload-->", PRELOAD.format(game=game) if game else "")


def _send(script: str, game: str | None = None) -> Response:
    return HTMLResponse(_page(script, game), headers={"cache-control": "no-cache"})


@cache
def _worker() -> str:
    """The service worker with this release's fingerprint: the hash of every static file,
    so that any change of them is a new worker, which drops the old copies. The same in
    every process of one installation."""
    digest = hashlib.sha256(__version__.encode())
    for path in sorted(p for p in WEB_DIR.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(WEB_DIR)).encode())
        digest.update(path.read_bytes())
    code = (WEB_DIR / "worker" / "sw.js").read_text(encoding="utf-8")
    # the pages' texts of every language, for the offline page of a first visit
    pages = json.dumps([f"/static/words/{lang}/pages.json" for lang in LANGS])
    code = code.replace("__PAGES__", pages)
    return code.replace("__VERSION__", f"{__version__}-{digest.hexdigest()[:16]}")


def pages(web: bool) -> APIRouter:
    """The pages' routes; without the browser tables (`web` false, or a package
    without them) the root leads to the API's description."""
    router = APIRouter(include_in_schema=False)
    if not (web and TEMPLATE.exists()):

        @router.get("/")
        async def root() -> Response:
            return RedirectResponse("/docs")

        return router

    @router.get("/")
    async def lobby() -> Response:
        return _send("lobby")

    @router.get("/sw.js")
    async def service_worker() -> Response:
        # at the root, so that it may answer for every page; always asked again
        return Response(
            _worker(),
            media_type="text/javascript",
            headers={"cache-control": "no-cache", "service-worker-allowed": "/"},
        )

    @router.get("/offline")
    async def offline_page() -> Response:
        return _send("offline")

    @router.get("/g/{game_id}")
    async def table(game_id: str, services: ServicesDep) -> Response:
        # the room is loaded now rather than at the page's first request: no extra work
        try:
            game = (await services.rooms.room(game_id)).row.game
        except (Refusal, EuphratesError):
            game = None  # the page itself says what is wrong
        return _send("table", game if game in GAMES else None)

    @router.get("/replay/{game_id}")
    async def replay_page(game_id: str) -> Response:
        return _send("replay")

    @router.get("/rules/{game}")
    async def rules_page(game: GameName) -> Response:
        return _send("rules")

    @router.get("/t/{tournament_id}")
    async def tournament_page(tournament_id: str) -> Response:
        return _send("tournament")

    @router.get("/leaderboards")
    async def leaderboards_page() -> Response:
        return _send("leaderboard")

    @router.get("/fair-play")
    async def fair_play_page() -> Response:
        return _send("fairplay")

    @router.get("/u/{name}")
    async def profile_page(name: str) -> Response:
        return _send("profile")

    @router.get("/account/notifications")
    async def settings_page() -> Response:
        return _send("settings")

    @router.get("/admin")
    async def admin_page() -> Response:
        return _send("admin")

    return router

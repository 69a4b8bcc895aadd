"""The browser's pages, beside the API: the lobby, a table, a replay, a game's rules,
a player's profile, the leaderboards, the account's settings (the scripts and styles they load are the static files under /static).

The pages differ only in the module they start, so they are one file,
`web/page.html`, filled in once per page and kept. Every page refuses to send a referrer:
a table's address carries a seat's token in its fragment, and no link followed from a
page should ever learn even the page's path.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from euphrates.server.features.api import GameName

WEB_DIR = Path(__file__).resolve().parents[2] / "web"
TEMPLATE = WEB_DIR / "page.html"
PRELOAD = '<link rel="modulepreload" href="/static/js/board/table.js">'
"""A table is most often the board game's: its module is fetched while the page's own
script starts, one round trip earlier."""


@cache
def _page(script: str) -> str:
    html = TEMPLATE.read_text(encoding="utf-8").replace("{script}", script)
    return html.replace("<!--preload-->", PRELOAD if script == "table" else "")


def _send(script: str) -> Response:
    return HTMLResponse(_page(script), headers={"cache-control": "no-cache"})


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

    @router.get("/g/{game_id}")
    async def table(game_id: str) -> Response:
        return _send("table")

    @router.get("/replay/{game_id}")
    async def replay_page(game_id: str) -> Response:
        return _send("replay")

    @router.get("/rules/{game}")
    async def rules_page(game: GameName) -> Response:
        return _send("rules")

    @router.get("/leaderboards")
    async def leaderboards_page() -> Response:
        return _send("leaderboard")

    @router.get("/u/{name}")
    async def profile_page(name: str) -> Response:
        return _send("profile")

    @router.get("/account/notifications")
    async def settings_page() -> Response:
        return _send("settings")

    return router

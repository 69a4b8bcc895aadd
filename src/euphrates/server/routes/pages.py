"""The browser's pages, beside the API: the lobby, a table, a replay (the scripts and
styles they load are the static files under /static)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse, RedirectResponse, Response

WEB_DIR = Path(__file__).resolve().parent.parent.parent / "web"


def _page(name: str) -> Response:
    page = WEB_DIR / name
    return FileResponse(page) if page.exists() else RedirectResponse("/docs")


def pages(web: bool) -> APIRouter:
    """The pages' routes; without the browser tables (`web` false, or a package
    without them) the root leads to the API's description."""
    router = APIRouter(include_in_schema=False)
    if not (web and WEB_DIR.is_dir()):

        @router.get("/")
        async def root() -> Response:
            return RedirectResponse("/docs")

        return router

    @router.get("/")
    async def lobby() -> Response:
        return _page("index.html")

    @router.get("/g/{game_id}")
    async def table(game_id: str) -> Response:
        return _page("table.html")

    @router.get("/replay/{game_id}")
    async def replay_page(game_id: str) -> Response:
        return _page("replay.html")

    return router

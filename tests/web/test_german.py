"""The German pages: no English word of the page's texts is left on the lobby, the
table with a pending revolt, the final scoring or the replay."""

from __future__ import annotations

import random

from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import assert_german, english_words, german_end, wait_version


def finish(server: Server, gid: str, tokens: list[str]) -> None:
    rng = random.Random(3)
    for _ in range(600):
        doc = server.call("GET", f"/api/games/{gid}", tokens=tokens)
        if doc["game"]["status"] == "over":
            return
        seat = doc["views"]["0"]["decision"]["seat"]
        view = doc["views"][str(seat)]
        swaps = [a for a in view["legal"] if a.startswith("swap")]
        action = max(swaps, key=len) if swaps and rng.random() < 0.6 else rng.choice(view["legal"])
        server.call(
            "POST",
            f"/api/games/{gid}/actions",
            {"version": view["version"], "seat": seat, "action": action},
            [tokens[seat]],
        )
    raise AssertionError("the game did not end")


def test_german_pages(server: Server, pages: Pages) -> None:
    lobby = pages.open(server.base + "/", locale="de-DE")
    lobby.wait_for_selector("#create")
    english = english_words(lobby)
    assert {"tile", "turn", "players", "revolt"} <= english
    assert_german(lobby, "lobby", english)
    shot(lobby, "lobby-de")

    game = server.create(2)
    gid = game["id"]
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Anna", "Bernd"])
    first = server.view(gid, tokens[0], 0)["turn"]["active"]
    second = 1 - first
    for version, (seat, action) in enumerate(((first, "KJ1"), (first, "PH7"), (second, "KL1"))):
        body = {"version": version, "seat": seat, "action": action}
        server.call("POST", f"/api/games/{gid}/actions", body, [tokens[seat]])
    table = pages.open(f"{server.base}/g/{gid}#s={tokens[second]}", locale="de-DE")
    table.wait_for_selector("#commit")
    table.hover("svg.board .hit rect[data-sq=K1]")
    assert "Revolte" in table.locator("div.conflict").inner_text()
    assert_german(table, "table", english)
    table.click(".tablist [data-tab=chat]")
    assert_german(table, "chat", english)
    shot(table, "conflict-de")

    finish(server, gid, tokens)
    wait_version(table, server.view(gid, tokens[0], 0)["version"])
    german_end(table, english)

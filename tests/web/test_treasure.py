"""A treasure with a real choice (B-30) at the board table: the choice pointed at lights
its square, and once it is answered nothing of it stays lit; the panel says bordered
treasures come first only where that limits the choice."""

from __future__ import annotations

from typing import Any

from tests.web.cards_helpers import act
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import lit_squares, open_seat, version, wait_version

# The trader beside the temple on F10, then a row of tiles to the temple on K11: the
# kingdom holds two treasures, neither bordered, so the trader's owner chooses.
PATH = ["G10", "H10", "I10", "J10", "K10"]
LAND = {"red": "r", "green": "g", "black": "k"}


def treasure_ahead(server: Server, game: Any) -> tuple[int, str]:
    """Over HTTP: the first player's trader on F11 and tiles from G10 towards K10 (the
    other player passes), until the tile on K10 is the trader's owner's first action of
    a turn. Returns that seat and the tile action that makes the choice."""
    for _ in range(200):
        view0 = server.view(game["id"], game["seats"][0]["token"], 0)
        d = view0["decision"]
        assert d["kind"] == "action", d
        seat = d["seat"]
        if view0["turn"]["first"] != seat:
            act(server, game, seat, "pass")
            continue
        view = server.view(game["id"], game["seats"][seat]["token"], seat)
        filled = {sq for sqs in view["board"]["tiles"].values() for sq in sqs}
        todo = [sq for sq in PATH if sq not in filled]
        hand = view["seats"][seat]["hand"]
        land = [letter for colour, letter in LAND.items() if hand[colour]]
        first_action = view["turn"]["actions_done"] == 0
        if view["seats"][seat]["leaders"]["trader"] is None:
            act(server, game, seat, "TF11")
        elif len(todo) == 1 and not first_action:
            act(server, game, seat, "pass")
        elif not land:
            act(server, game, seat, "swap " + "b" * hand["blue"])
        elif len(todo) == 1:
            return seat, f"{land[0]}{todo[0]}"
        else:
            act(server, game, seat, f"{land[0]}{todo[0]}")
    raise AssertionError("the row of tiles was not laid")


def at_the_choice(server: Server, pages: Pages) -> tuple[Any, Any, int]:
    game = server.create(2)
    server.join(game, ["Ann", "Bob"])
    seat, last = treasure_ahead(server, game)
    page = open_seat(pages, server, game, seat, ["Ann", "Bob"][seat])
    v = version(page)
    page.click(f".hand-tile[data-colour={dict(r='red', g='green', k='black')[last[0]]}] >> nth=0")
    page.click(f"svg.board .hit rect[data-sq={last[1:]}]")
    wait_version(page, v + 1)
    page.wait_for_selector(".choices.treasures")
    legal = server.view(game["id"], game["seats"][seat]["token"], seat)["legal"]
    assert sorted(legal) == ["treasure F10", "treasure K11"]
    return game, page, seat


def test_a_treasure_taken_leaves_nothing_lit(server: Server, pages: Pages) -> None:
    game, page, seat = at_the_choice(server, pages)
    # Both treasures are lit; pointing at one lights only it.
    assert lit_squares(page) == {"F10", "K11"}
    page.hover("button[data-treasure=K11]")
    assert lit_squares(page) == {"K11"}
    v = version(page)
    page.click("button[data-treasure=K11]")
    wait_version(page, v + 1)
    page.wait_for_selector(".choices.treasures", state="detached")
    # The turn's second action: a tile lights exactly the server's squares for it.
    view = server.view(game["id"], game["seats"][seat]["token"], seat)
    assert (view["decision"]["seat"], view["decision"]["kind"]) == (seat, "action")
    colour = next(c for c in ("red", "green", "black", "blue") if view["seats"][seat]["hand"][c])
    page.click(f".hand-tile[data-colour={colour}] >> nth=0")
    letter = {"red": "r", "green": "g", "black": "k", "blue": "b"}[colour]
    wanted = {a[1:] for a in view["legal"] if a.startswith(letter) and a[1:2].isupper()}
    assert lit_squares(page) == wanted
    shot(page, "treasure-after")

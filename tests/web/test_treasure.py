"""A treasure with a real choice (B-30) at the board table: the choice pointed at lights
its square, and once it is answered nothing of it stays lit; the panel says bordered
treasures come first only where one was taken first."""

from __future__ import annotations

from typing import Any

from tests.web.cards_helpers import act
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import lit_squares, open_seat, version, wait_version

LETTERS = {"red": "r", "green": "g", "black": "k", "blue": "b"}
# A row of tiles from the temple on F10 to the one on K11: a trader beside F10 then
# holds two treasures, neither bordered, and its owner chooses which to take.
ROW = ["G10", "H10", "I10", "J10", "K10"]
# With B9 … F9 too, the kingdom also holds the bordered treasure on B8, which goes
# first by itself; the choice between F10 and K11 follows.
BORDERED_ROW = ["B9", "C9", "D9", "E9", "F9", *ROW]


def laid(server: Server, game: Any, squares: list[str]) -> int:
    """Over HTTP, both players lay tiles on `squares` (blue on the river, B-12),
    swapping tiles when none fits, until all are laid and a turn begins; returns the
    seat whose turn it is."""
    for _ in range(200):
        view0 = server.view(game["id"], game["seats"][0]["token"], 0)
        assert view0["decision"]["kind"] == "action", view0["decision"]
        seat = view0["decision"]["seat"]
        view = server.view(game["id"], game["seats"][seat]["token"], seat)
        filled = {sq for sqs in view["board"]["tiles"].values() for sq in sqs}
        todo = [sq for sq in squares if sq not in filled]
        first_action = view["turn"]["actions_done"] == 0
        if not todo and first_action:
            return int(seat)
        hand = view["seats"][seat]["hand"]
        fits = [
            f"{LETTERS[c]}{sq}"
            for sq in todo
            for c in LETTERS
            if hand[c] and f"{LETTERS[c]}{sq}" in view["legal"]
        ]
        if fits:
            act(server, game, seat, fits[0])
        elif todo and first_action:
            act(server, game, seat, "swap " + "".join(LETTERS[c] * hand[c] for c in LETTERS))
        else:
            act(server, game, seat, "pass")
    raise AssertionError("the tiles were not laid")


def trader_to_choice(server: Server, pages: Pages, squares: list[str], at: str) -> Any:
    """A two-player game with `squares` laid; the player to move places the trader on
    `at` by clicks, which leaves the choice between the treasures on F10 and K11."""
    game = server.create(2)
    server.join(game, ["Ann", "Bob"])
    seat = laid(server, game, squares)
    page = open_seat(pages, server, game, seat, ["Ann", "Bob"][seat])
    v = version(page)
    page.click(".hand-leader[data-leader=trader]")
    page.click(f"svg.board .hit rect[data-sq={at}]")
    wait_version(page, v + 1)
    page.wait_for_selector(".choices.treasures")
    view = server.view(game["id"], game["seats"][seat]["token"], seat)
    assert sorted(view["legal"]) == ["treasure F10", "treasure K11"]
    return game, page, seat


def test_a_treasure_taken_leaves_nothing_lit(server: Server, pages: Pages) -> None:
    game, page, seat = trader_to_choice(server, pages, ROW, "F11")
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
    wanted = {a[1:] for a in view["legal"] if a.startswith(LETTERS[colour])}
    assert lit_squares(page) == wanted


def test_bordered_first_said_only_where_it_applied(server: Server, pages: Pages) -> None:
    _, page, _ = trader_to_choice(server, pages, ROW, "F11")
    hint = page.locator(".choices.treasures .hint").inner_text()
    assert "B-30" in hint and "bordered" not in hint.lower(), hint
    shot(page, "treasure-choice")

    _, page, _ = trader_to_choice(server, pages, BORDERED_ROW, "A8")
    hint = page.locator(".choices.treasures .hint").inner_text()
    assert "B8" in hint and "bordered" in hint and "B-30" in hint, hint
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator(".choices.treasures").scroll_into_view_if_needed()
    shot(page, "treasure-bordered-phone")

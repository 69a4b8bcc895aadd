"""The host's box at the table: it stays open while the game moves on, and replacing a
player who left with a bot works from it."""

from __future__ import annotations

from tests.web.conftest import Pages, Server
from tests.web.helpers import open_seat, place_leader, wait_version


def test_host_box_stays_open_and_seats_a_bot(server: Server, pages: Pages) -> None:
    game = server.create(2)
    first = server.view(game["id"], game["seats"][0]["token"], 0)["turn"]["active"]
    mover = open_seat(pages, server, game, first, "Ann")
    other = 1 - first
    tokens = f"s={game['seats'][other]['token']}&h={game['host']['token']}"
    host = pages.open(f"{server.base}/g/{game['id']}#{tokens}")
    host.wait_for_selector("#your-name, svg.board")
    if host.locator("#your-name").count():
        host.fill("#your-name", "Bob")
        host.click(".ask-name button[type=submit]")
    host.wait_for_selector("details.host")
    host.click("details.host summary")
    assert host.locator("details.host[open]").count() == 1
    place_leader(mover, "king", "J1")
    wait_version(host, 1)
    assert host.locator("details.host[open]").count() == 1
    # The host hands the first player's seat to a bot: the box shows the change.
    host.locator("details.host button.small").nth(first).click()
    host.wait_for_function(
        f"() => [...document.querySelectorAll('.seat')].some(e => e.dataset.seat === '{first}'"
        " && /bot/i.test(e.textContent))",
        timeout=10000,
    )

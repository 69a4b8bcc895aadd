"""Following every turn, on the card table: both of an opponent's actions outlined and
replayed, the your-turn title, and the public counts beside the deck."""

from __future__ import annotations

from tests.web.cards_helpers import act, open_cards, views
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import wait_version


def test_an_opponents_turn_on_the_card_table(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    server.join(game, ["Ann", "Bob"])
    first = views(server, game)[0]["active"]
    second = 1 - first
    watcher = open_cards(pages, server, game, [second], "Bob", locale="de-DE")
    columns = []
    for _ in range(2):
        legal = views(server, game)[first]["legal"]
        move = next(a for a in legal if a[0] in "rbgk" and a[1:].isdigit() and a[1:] not in columns)
        columns.append(move[1:])
        v = act(server, game, first, move)
    wait_version(watcher, v)
    # Both cards, in two columns, outlined; the words in German.
    watcher.wait_for_function(
        "() => document.querySelectorAll('svg.layout .marks .last').length === 2"
    )
    assert "2 Schritte seit deinem letzten Zug" in watcher.inner_text("#since")
    watcher.wait_for_function("() => document.title.startsWith('● ')")
    spectator = server.call("GET", f"/api/games/{game['id']}")["views"]["spectator"]
    laid = {c: 0 for c in "rbgk"}
    for column in spectator["layout"]["columns"]:
        for card in column:
            laid[card] += 1
    for colour, letter, total in (
        ("red", "r", 65),
        ("blue", "b", 40),
        ("green", "g", 40),
        ("black", "k", 40),
    ):
        assert spectator["not_seen"][colour] == total - laid[letter]
        assert watcher.inner_text(f".not-seen-n[data-colour={colour}]").strip() == str(
            total - laid[letter]
        )
    shot(watcher, "follow-cards-since-last-turn")
    watcher.click("#replay-turn")
    watcher.wait_for_function(
        "() => document.querySelector('#replaying')?.textContent.includes('1 von 2')"
    )
    assert watcher.locator("svg.layout .marks .last").count() == 1
    watcher.wait_for_selector("#since")
    assert watcher.locator("svg.layout .marks .last").count() == 2

"""Following every turn, on the board table: what the opponent's turn changed outlined
(every step, not only the last), replayed on request, the your-turn title, icon and
tone, the public counts beside the bag, animations (and none under reduced motion),
and at the end the banner with the places and the statistics the server computes."""

from __future__ import annotations

import random
from typing import Any

from tests.web.cards_helpers import act, views
from tests.web.conftest import SCREENSHOTS, Pages, Server, shot
from tests.web.helpers import open_seat, wait_version

# Counts each piece animation started (js/shared/motion.js names them "piece").
COUNT_ANIMATIONS = """
window.__pieceAnimations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  const a = animate.apply(this, args);
  queueMicrotask(() => { if (a.id === "piece") window.__pieceAnimations += 1; });
  return a;
};
"""


def animations(page: Any) -> int:
    return int(page.evaluate("() => window.__pieceAnimations"))


def outlined(page: Any) -> set[str]:
    """The squares outlined as changed (the marks' `last` rectangles), by position."""
    return set(
        page.evaluate(
            """() => [...document.querySelectorAll('svg.board .marks rect.last')]
                 .map(r => `${r.getAttribute('x')},${r.getAttribute('y')}`)"""
        )
    )


def tile_moves(view: Any) -> list[str]:
    """Tile placements on land away from every leader: no conflict, no decision after."""
    return [a for a in view["legal"] if a[0] in "rgk" and a[1:2].isalpha()]


def two_land_tiles_first(server: Server) -> Any:
    """A duel whose first player holds two tiles for the land, so that two placements
    away from the leaders exist: the deal is the server's secret, and about one deal in
    three hundred gives fewer (the rest of the hand blue), so such a deal is dealt again."""
    for _ in range(10):
        game = server.create(2)
        server.join(game, ["Ann", "Bob"])
        seen = views(server, game)
        first = seen[0]["turn"]["active"]
        hand = seen[first]["seats"][first]["hand"]
        if hand["red"] + hand["green"] + hand["black"] >= 2:
            return game
    raise AssertionError("ten deals without two land tiles for the first player")


def test_an_opponents_turn_outlined_replayed_and_counted(server: Server, pages: Pages) -> None:
    game = two_land_tiles_first(server)
    first = views(server, game)[0]["turn"]["active"]
    second = 1 - first
    watcher = open_seat(
        pages, server, game, second, "Bob", init=COUNT_ANIMATIONS, motion="no-preference"
    )
    still = open_seat(pages, server, game, first, "Ann", init=COUNT_ANIMATIONS)  # reduced
    watcher.click("#sound-toggle")
    assert watcher.evaluate("() => localStorage.getItem('euphrates.sound')") == "1"
    assert not watcher.title().startswith("●")
    plain_icon = watcher.evaluate("() => document.querySelector('link[rel=icon]').href")

    played = []
    for _ in range(2):
        view = views(server, game)[first]
        move = tile_moves(view)[0]
        played.append(move[1:])
        v = act(server, game, first, move)
    wait_version(watcher, v)
    wait_version(still, v)

    # Both of the opponent's actions are outlined, not only the last.
    watcher.wait_for_function(
        "() => document.querySelectorAll('svg.board .marks rect.last').length === 2"
    )
    assert "2 steps since your last turn" in watcher.inner_text("#since")
    # It is Bob's turn: the title, the icon and the tone say so.
    watcher.wait_for_function("() => document.title.startsWith('● ')")
    assert watcher.evaluate("() => document.querySelector('link[rel=icon]').href") != plain_icon
    assert watcher.evaluate("() => document.body.dataset.chimes") == "1"
    assert not still.title().startswith("●")
    # Animations ran where motion is welcome, none where it is not.
    assert animations(watcher) > 0
    assert animations(still) == 0

    # The public counts: the same on both pages, the view's, and the colour's total less
    # the tiles on the board (nothing was taken off yet).
    spectator = server.call("GET", f"/api/games/{game['id']}")["views"]["spectator"]
    totals = {"red": 57, "blue": 36, "green": 30, "black": 30}
    for colour, total in totals.items():
        expected = total - len(spectator["board"]["tiles"][colour])
        assert spectator["not_seen"][colour] == expected
        for page in (watcher, still):
            shown = page.inner_text(f".not-seen-n[data-colour={colour}]").strip()
            assert shown == str(expected), (colour, shown)
    shot(watcher, "follow-since-last-turn")

    # The replay: one step after the other, each outlining its own square, then back.
    before = animations(watcher)
    watcher.click("#replay-turn")
    watcher.wait_for_function(
        "() => document.querySelector('#replaying')?.textContent.includes('1 of 2')"
    )
    assert len(outlined(watcher)) == 1
    watcher.wait_for_function(
        "() => document.querySelector('#replaying')?.textContent.includes('2 of 2')"
    )
    assert len(outlined(watcher)) == 1
    watcher.wait_for_selector("#since")
    assert len(outlined(watcher)) == 2
    assert animations(watcher) > before
    # Ann's page: nothing since her own turn, nothing to replay: no count of nothing, no
    # button that does nothing.
    assert still.inner_text("#since") == "Nothing to replay: no move since your last turn."
    assert still.locator("#replay-turn").count() == 0

    # Bob plays: Ann's page now outlines his steps, and it is her turn.
    view = views(server, game)[second]
    v = act(server, game, second, tile_moves(view)[0])
    still.wait_for_function(
        "() => document.querySelectorAll('svg.board .marks rect.last').length === 1"
    )
    view = views(server, game)[second]
    v = act(server, game, second, tile_moves(view)[0])
    still.wait_for_function("() => document.title.startsWith('● ')")
    wait_version(watcher, v)
    assert not watcher.title().startswith("●")
    # Bob's page: nothing happened since his own turn.
    assert "Nothing to replay" in watcher.inner_text("#since")
    assert watcher.locator("#replay-turn").count() == 0
    # Under reduced motion the replay steps through without a single animation.
    still.click("#replay-turn")
    still.wait_for_selector("#replaying")
    still.wait_for_selector("#since")
    assert animations(still) == 0


def test_the_end_banner_and_the_statistics(server: Server, pages: Pages) -> None:
    game = server.create(2)
    server.join(game, ["Ann", "Bob"])
    rng = random.Random(7)
    for _ in range(3000):
        vs = views(server, game)
        if vs[-1]["status"] == "over":
            break
        seat = vs[0]["decision"]["seat"]
        act(server, game, seat, rng.choice(vs[seat]["legal"]))
    assert vs[-1]["status"] == "over"
    outcome = vs[0]["outcome"]
    stats = server.call("GET", f"/api/games/{game['id']}/stats")
    page = open_seat(pages, server, game, 0, "Ann")
    page.wait_for_selector(".end-banner")
    winners = [("Ann", "Bob")[s] for s in outcome["winners"]]
    assert all(w in page.inner_text(".end-winner") for w in winners)
    places = page.eval_on_selector_all(
        ".end-places li", "els => els.map(e => [Number(e.dataset.seat), Number(e.dataset.place)])"
    )
    assert sorted(places) == [[s, p] for s, p in enumerate(outcome["places"])]
    # The banner comes first, above the board; the statistics under the scoring.
    assert (
        page.locator(".end-banner").bounding_box()["y"]
        < page.locator("svg.board").bounding_box()["y"]
    )
    page.wait_for_selector(".stats-panel table.stats")
    shown = stats_in_dom(page)
    assert shown == expected_rows(stats)
    assert page.locator(".points-chart").count() == 2
    assert page.locator(".points-chart svg path").count() == 8
    # Each chart's axes: points from 0 to the player's highest colour at any step, steps
    # from 0 to the last, and a legend naming the four colours.
    for seat in (0, 1):
        chart = page.locator(f".points-chart[data-seat='{seat}']")
        top = max(max(e["points"][seat]) for e in stats["timeline"])
        texts = "els => els.map(e => e.textContent)"
        ys = chart.locator("text.tick-y").evaluate_all(texts)
        assert ys[0] == "0" and ys[-1] == str(max(1, top)), (ys, top)
        xs = chart.locator("text.tick-x").evaluate_all(texts)
        assert xs == ["0", str(stats["timeline"][-1]["step"])], xs
        assert chart.locator(".chart-legend li").all_inner_texts() == [
            "red",
            "blue",
            "green",
            "black",
        ]
    shot(page, "follow-end-banner")
    SCREENSHOTS.mkdir(exist_ok=True)
    page.locator(".stats-charts").screenshot(path=str(SCREENSHOTS / "stats-charts.png"))

    replay = pages.open(f"{server.base}/replay/{game['id']}?step={stats['steps']}")
    replay.wait_for_selector(".stats-panel table.stats")
    assert stats_in_dom(replay) == shown


def stats_in_dom(page: Any) -> list[list[str]]:
    return [
        [c.strip() for c in row]
        for row in page.eval_on_selector_all(
            ".stats-panel table.stats tbody tr",
            "rows => rows.map(r => [...r.querySelectorAll('td')].map(c => c.textContent))",
        )
    ]


def expected_rows(stats: Any) -> list[list[str]]:
    seats = stats["seats"]
    rows = []
    for which in ("revolts", "wars"):
        for k in ("won_attacking", "lost_attacking", "won_defending", "lost_defending"):
            rows.append([str(s[which][k]) for s in seats])
    for k in ("monuments", "treasures", "catastrophes", "placed"):
        rows.append([str(s[k]) for s in seats])
    for c in ("red", "blue", "green", "black"):
        rows.append([str(s["points"][c]) for s in seats])
    return rows

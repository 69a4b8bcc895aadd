"""One person plays a whole card game against two bots through the page, to the final
scoring (piles per colour, treasure cards as wildcards, the weakest colours compared,
the winner, why the game ended); then the record replays to the same outcome and the
replay viewer steps through it. The bots play in the server's worker processes
(`python -m euphrates.bots.worker`)."""

from __future__ import annotations

import random
from typing import Any

from euphrates.bots.greedy import GreedyBot
from euphrates.cards import CARDS
from tests.web.cards_helpers import click_column, clicked, open_cards, pick_card
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import (
    Watch,
    downloads_record,
    replayed_record,
    scoring_rows,
    step_through_replay,
    wait_version,
)


def open_piles(page: Any, selector: str) -> list[str | None]:
    """Each pile's counts per colour and treasure cards, or None where it is closed."""
    return list(
        page.locator(selector).evaluate_all(
            "xs => xs.map(x => x.classList.contains('open') ? x.dataset.counts : null)"
        )
    )


def choose(view: Any, rng: random.Random) -> str:
    """The greedy bot's choice from Ann's own view, with cards laid rather than a pass
    now and then, so that the deck runs out sooner."""
    cards: list[str] = [a for a in view["legal"] if a[0] in "rbgk" and a[1:].isdigit()]
    if cards and rng.random() < 0.3:
        return rng.choice(cards)
    return GreedyBot(rng.randrange(1 << 30)).choose(CARDS, view)


def test_cards_whole_game_against_bots(bot_server: Server, pages: Pages) -> None:
    server = bot_server
    rng = random.Random(11)
    game = server.create(3, game="cards", bots=["intermediate"] * 2, options={"open_piles": False})
    gid = game["id"]
    token = game["seats"][0]["token"]
    page = open_cards(pages, server, game, [0], "Ann", width=1280, height=1000)
    by_click = 0
    watch = Watch(server, gid, token)
    midgame = False
    for _ in range(600):
        view = watch.own_decision()
        if view["decision"] is None:
            break
        wait_version(page, view["version"])
        if not midgame and view["deck_count"] <= 80 and view["decision"]["kind"] == "action":
            page.evaluate("() => window.scrollTo(0, 0)")
            shot(page, "cards-midgame")
            midgame = True
        action = choose(view, rng)
        if by_click < 5 and action[0] in "rbgk" and action[1:].isdigit():
            # Some cards by clicks: the card, then its column.
            colour = {"r": "red", "b": "blue", "g": "green", "k": "black"}[action[0]]
            pick_card(page, colour)
            clicked(page, click_column, page, int(action[1:]))
            by_click += 1
        else:
            page.fill("#notation", action)
            page.press("#notation", "Enter")
            wait_version(page, view["version"] + 1)
    final = watch.game_over()
    outcome = final["outcome"]
    wait_version(page, final["version"])
    page.wait_for_selector(".scoring")
    page.evaluate("() => window.scrollTo(0, 0)")
    shot(page, "cards-scoring")
    rows = scoring_rows(page, outcome, 3)
    for i in range(3):
        seat = int(rows.nth(i).get_attribute("data-seat") or -1)
        treasures = rows.nth(i).locator("td.num.treasure").inner_text()
        assert int(treasures) == sum(outcome["wildcards"][seat])
    winner = page.locator(f".seat[data-seat='{outcome['winners'][0]}'] .seat-name").inner_text()
    assert winner in page.locator(".winner-line").inner_text()
    # The header says who won, not only that the game is over.
    status = page.locator("#status").inner_text()
    assert status.startswith("Game over: ") and winner in status, status
    assert (
        page.locator(".seat[data-seat='1'] .seat-name").inner_text() == "Bull (bot, intermediate)"
    )
    assert page.locator(".end-reason").count() == 1
    # The scoring turned every closed pile over (C-9): each shows its colours.
    piles = [",".join(str(pile.count(k)) for k in "rbgkt") for pile in final["scored"]]
    assert open_piles(page, ".seat .pile") == piles

    # The record replays through the engine to the same outcome.
    record = replayed_record(server, gid, outcome)

    # The replay viewer draws the card game: arrow keys step, the record downloads.
    page.click("text=Watch the replay")
    page.wait_for_selector("svg.layout")
    assert page.locator("svg.layout .card.head").count() == 8
    step_through_replay(page, len(record["actions"]))
    shown = page.evaluate(
        "() => [...document.querySelectorAll('svg.layout .pieces .card')].filter(c => !c.classList.contains('head')).length"
    )
    lay = final["layout"]
    bridges = sum(b is not None for b in lay["bridges"])
    assert shown == sum(len(c) for c in lay["columns"]) + bridges
    assert open_piles(page, ".replay-piles .pile") == piles
    downloads_record(page, record)

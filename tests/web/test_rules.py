"""The rules reference (web/rules/, js/rules/): its own page and the panel opened from
every table and the lobby, in both games and both languages, with diagrams drawn by the
tables' own SVG code; a decision panel's "why?" and a refusal's ruling land on their
place in it; the war order shows each war's strengths as the war will count them."""

from __future__ import annotations

import random
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from euphrates.board.game import BOARD
from euphrates.bots.greedy import GreedyBot
from tests.web.cards_helpers import act, open_cards, views
from tests.web.conftest import Pages, Server, serving, shot
from tests.web.helpers import choose_lang, open_seat, wait_version
from tests.web.server_forks import ServerForks
from tests.web.test_rules_text import SECTIONS

TITLES = {
    ("board", "en"): "Tigris & Euphrates: how to play",
    ("board", "de"): "Euphrat & Tigris: so wird gespielt",
    ("cards", "en"): "Contest of Kings: how to play",
    ("cards", "de"): "Wettstreit der Könige: so wird gespielt",
}
# What a drawn example holds: the board's tiles, the layout's cards.
PIECES = {"board": "svg.rules-board .pieces g.tile", "cards": "svg.rules-layout .pieces g.card"}


def drawn(root: Any, game: str) -> None:
    """The reference in `root` shows every section and examples drawn with pieces."""
    root.locator(PIECES[game]).first.wait_for()
    for section in SECTIONS[game]:
        assert root.locator(f"section#rule-{section}").count() == 1, section
    assert root.locator("figure.rules-fig svg").count() >= 6


def panel_open(page: Any, game: str, lang: str) -> Any:
    """The reference's panel, open over the page, in `lang`."""
    panel = page.locator("dialog.rules-panel[open]")
    panel.wait_for()
    page.wait_for_function(
        f"() => document.querySelector('dialog.rules-panel h1')?.textContent === {TITLES[(game, lang)]!r}"
    )
    drawn(panel, game)
    return panel


def landed(page: Any, anchor: str) -> None:
    """The panel scrolled to `anchor` and marked it: its top is inside the panel."""
    page.wait_for_selector(f"dialog.rules-panel [id='rule-{anchor}'].landed")
    inside = page.evaluate(
        """(id) => {
        const d = document.querySelector('dialog.rules-panel').getBoundingClientRect();
        const e = document.getElementById(id).getBoundingClientRect();
        return e.top >= d.top - 1 && e.top < d.bottom;
    }""",
        f"rule-{anchor}",
    )
    assert inside, anchor


@pytest.mark.parametrize("game", ["board", "cards"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_reference_page(server: Server, pages: Pages, game: str, lang: str) -> None:
    # The page in the language its address asks for, landing on a ruling's anchor.
    anchor = "B-24" if game == "board" else "C-12"
    page = pages.open(f"{server.base}/rules/{game}?lang={lang}#rule-{anchor}")
    page.wait_for_selector("article.rules h1")
    assert page.locator("article.rules h1").inner_text() == TITLES[(game, lang)]
    assert page.evaluate("document.documentElement.lang") == lang
    drawn(page, game)
    page.wait_for_selector(f"[id='rule-{anchor}'].landed")
    # A ruling cited in the text goes to its place on the same page.
    cited = page.locator(".intro a.ruling-link").first
    target = cited.get_attribute("data-rule")
    cited.click()
    page.wait_for_selector(f"[id='rule-{target}'].landed")
    assert page.evaluate("location.hash") == f"#rule-{target}"
    if lang == "en":
        shot(page, f"rules-{game}")


def test_unknown_game_has_no_rules_page(server: Server) -> None:
    with pytest.raises(urllib.error.HTTPError) as e:
        urllib.request.urlopen(f"{server.base}/rules/chess")
    assert e.value.code == 400


def test_reference_from_the_lobby(server: Server, pages: Pages) -> None:
    page = pages.open(server.base + "/")
    for lang in ("en", "de"):
        choose_lang(page, lang)
        for game in ("board", "cards"):
            # The game's own button: the header's first buttons are the leaderboards
            # and fair play until the server's offer (which games it has) arrives.
            page.click(f"header .rules-button[href^='/rules/{game}?']")
            panel_open(page, game, lang)
            if lang == "de" and game == "cards":
                shot(page, "rules-lobby-cards-de")
            page.click("dialog.rules-panel .rules-close")


@pytest.mark.parametrize("game", ["board", "cards"])
def test_reference_from_a_table_in_both_languages(server: Server, pages: Pages, game: str) -> None:
    created = server.create(2, game=game)
    server.join(created, ["Ann", "Bob"])
    url = f"{server.base}/g/{created['id']}#s={created['seats'][0]['token']}"
    page = pages.open(url)
    page.wait_for_selector("header .rules-button")
    page.click("header .rules-button")
    panel_open(page, game, "en")
    # The table keeps its seat: the page's address (the token's fragment) is untouched.
    page.click("dialog.rules-panel .rules-toc a >> nth=4")
    landed(page, SECTIONS[game][4])
    assert page.evaluate("location.href") == url
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog.rules-panel[open]", state="detached")
    choose_lang(page, "de")
    page.click("header .rules-button")
    panel_open(page, game, "de")


def test_why_and_refusal_link_into_the_reference(server: Server, pages: Pages) -> None:
    game = server.create(2)
    tokens = [s["token"] for s in game["seats"]]
    server.join(game, ["Ann", "Bob"])
    first = server.view(game["id"], tokens[0], 0)["turn"]["active"]
    page = open_seat(pages, server, game, first, "Ann")
    # A refused action: a blue tile on land (B-12). Its ruling is a link to its place.
    page.click(".hand-tile >> nth=0")
    colour = page.locator(".hand-tile >> nth=0").get_attribute("data-colour")
    page.click(
        "svg.board .hit rect[data-sq=J1]" if colour == "blue" else "svg.board .hit rect[data-sq=E1]"
    )
    link = page.locator(".notice a.ruling-link")
    link.first.wait_for()
    ruling = link.first.get_attribute("data-rule")
    assert ruling and ruling.startswith(("B-", "G-")), ruling
    link.first.click()
    panel_open(page, "board", "en")
    landed(page, ruling)
    page.click("dialog.rules-panel .rules-close")
    # Two kings beside one temple start a revolt: the commitment's panel has a "why?".
    other = open_seat(pages, server, game, 1 - first, "Bob")
    page.click(".hand-leader[data-leader=king]")
    page.click("svg.board .hit rect[data-sq=J1]")
    wait_version(page, 1)
    page.click("#pass")
    wait_version(other, 2)
    other.click(".hand-leader[data-leader=king]")
    other.click("svg.board .hit rect[data-sq=L1]")
    other.wait_for_selector(".decision.mine #commit")
    # The defender, before the attacker commits, is told what the attacker has and
    # the most their own hand can reach.
    reach = page.locator(".decision .reach")
    reach.wait_for()
    assert "The attacker has 1 now; you can reach at most" in reach.inner_text()
    # The info line says each side's strength while the revolt is pending.
    names = ["Ann", "Bob"]
    line = f"{names[1 - first]} attacks with 1, {names[first]} defends with 1"
    assert line in page.locator(".square-info").inner_text()
    other.click(".decision.mine a.why")
    panel_open(other, "board", "en")
    landed(other, "revolt")
    shot(other, "rules-why-revolt")


def board_to_war_order(server: Server, game: Any) -> tuple[list[str], Any]:
    """Greedy play over HTTP (seeded deal) until the active player orders wars."""
    tokens = [s["token"] for s in game["seats"]]
    for _ in range(200):
        doc = server.call("GET", f"/api/games/{game['id']}", tokens=tokens)
        d = doc["views"]["0"]["decision"]
        view = doc["views"][str(d["seat"])]
        if d["kind"] == "war_order":
            return tokens, view
        action = GreedyBot(7).choose(BOARD, view)
        server.call(
            "POST",
            f"/api/games/{game['id']}/actions",
            {"version": view["version"], "seat": d["seat"], "action": action},
            [tokens[d["seat"]]],
        )
    raise AssertionError("no war order came")


def test_board_war_order_shows_strengths(forks: ServerForks, tmp_path: Path, pages: Pages) -> None:
    # Seed 7 with this greedy play brings two wars at once within 40 actions.
    with serving(forks, tmp_path, 0, seed=7) as server:
        game = server.create(2)
        server.join(game, ["Ann", "Bob"])
        tokens, view = board_to_war_order(server, game)
        seat = view["decision"]["seat"]
        page = open_seat(pages, server, game, seat, "Ann")
        choice = page.locator(".war-choice >> nth=0")
        choice.wait_for()
        strength = choice.locator(".war-strength").inner_text()
        colour = choice.get_attribute("data-war")
        shot(page, "rules-war-order")
        choice.click()
        wait_version(page, view["version"] + 1)
        ctx = server.view(game["id"], tokens[seat], seat)["decision"]["context"]
        leader = {"red": "priest", "blue": "farmer", "green": "trader", "black": "king"}[colour]
        assert ctx["colour"] == colour
        assert (
            strength == f"{leader}: {ctx['attacker_strength']} against {ctx['defender_strength']}"
        )
        # Closed while its server still runs: a page left open would try to reconnect
        # to the stopped server, and that failure is a console error of its own.
        pages.close()


def test_cards_war_order_shows_strengths(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    server.join(game, ["Ann", "Bob"])
    rng = random.Random(1)
    vs = cards_to_war_order(server, game, rng)
    seat = vs[0]["decision"]["seat"]
    page = open_cards(pages, server, game, [seat], "Ann")
    choice = page.locator(".war-choice >> nth=0")
    choice.wait_for()
    # The war order's "why?" opens the war's rules, in the card game's reference.
    page.click(".decision.mine a.why")
    panel_open(page, "cards", "en")
    landed(page, "war")
    page.click("dialog.rules-panel .rules-close")
    strength = choice.locator(".war-strength").inner_text()
    colour = choice.get_attribute("data-war")
    choice.click()
    wait_version(page, vs[0]["version"] + 1)
    ctx = views(server, game)[seat]["decision"]["context"]
    leader = {"red": "priest", "blue": "farmer", "green": "trader", "black": "king"}[colour]
    assert strength == f"{leader}: {ctx['attacker_strength']} against {ctx['defender_strength']}"


def cards_to_war_order(server: Server, game: Any, rng: random.Random) -> dict[int, Any]:
    """Over HTTP: traders on heads 3 and 4, priests on their first cards, three cards
    under each, then a bridge in gap 3-4: two wars, and the active player orders them."""
    for _ in range(200):
        vs = views(server, game)
        d = vs[0]["decision"]
        if d["kind"] == "war_order":
            return vs
        seat = d["seat"]
        legal = vs[seat]["legal"]
        if d["kind"] != "action":
            no = [a for a in ("point none", "exchange none", "decline", "commit 0") if a in legal]
            act(server, game, seat, no[0] if no else legal[0])
            continue
        lay = vs[0]["layout"]
        mine = vs[seat]["leaders"][seat]
        own = 3 + seat
        short = [c for c in (3, 4) if len(lay["columns"][c - 1]) < 3]
        hand = vs[seat]["hand"] or ""
        bridge = [a for a in legal if a.endswith("3-4") and a[0] in "rbgk"]
        if mine["T"] is None and f"T{own}.0" in legal:
            act(server, game, seat, f"T{own}.0")
        elif short and hand:
            act(server, game, seat, f"{hand[0]}{short[0]}")
        elif mine["P"] is None and f"P{own}.1" in legal:
            act(server, game, seat, f"P{own}.1")
        elif bridge and all(vs[s]["leaders"][s]["T"] and vs[s]["leaders"][s]["P"] for s in (0, 1)):
            act(server, game, seat, rng.choice(bridge))
        else:
            act(server, game, seat, "pass")
    raise AssertionError("no war order came")

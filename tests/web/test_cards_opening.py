"""Two players in two browsers play an opening of Contest of Kings. The decisive steps
are clicks: leaders, a card appended (and taken back), the king's point (C-9), a revolt
with commitments (C-10), a point decided by the player who is not active, a face-down
bridge that starts a war (C-11..C-13) with its commitments, the treasure exchange
(C-14) and a ship (C-15). The approach between them (cards to reach three a column,
a run of three) is played over HTTP for both seats. After every decisive step both
pages show exactly what the engine's views say."""

from __future__ import annotations

import statistics
from typing import Any

from tests.web.cards_helpers import (
    COLOURS,
    LETTERS,
    act,
    click_column,
    click_gap,
    click_spot,
    clicked,
    commit,
    commit_options,
    lit,
    open_cards,
    pick_card,
    pick_leader,
    previews,
    same_table,
    settle,
    views,
)
from tests.web.conftest import Pages, Server, shot
from tests.web.helpers import wait_version


def agree(server: Server, game: Any, pages: dict[int, Any]) -> dict[int, Any]:
    """Both pages are at the server's version and show their seats' views."""
    vs = views(server, game)
    for seat, page in pages.items():
        same_table(page, vs[seat])
    return vs


def hand(vs: dict[int, Any], seat: int) -> str:
    return str(vs[seat]["hand"])


def answer_point(page: Any) -> None:
    """The point panel: pay when the hand can, else decline."""
    page.wait_for_selector(".decision.mine[data-kind=point]")
    button = "#point-pay" if page.locator("#point-pay:not([disabled])").count() else "#point-none"
    clicked(page, page.click, button)


def test_cards_opening_revolt_war_ship(server: Server, pages: Pages) -> None:
    game = server.create(2, game="cards")
    p = {
        0: open_cards(pages, server, game, [0], "Ann"),
        1: open_cards(pages, server, game, [1], "Bob"),
    }
    vs = views(server, game)
    a = int(vs[0]["active"])
    b = 1 - a
    pa, pb = p[a], p[b]
    # The waiting player's leaders are greyed out, and say why (title and a line).
    why = f"Not your turn: {['Ann', 'Bob'][a]} moves now."
    king = pb.locator(".hand-leader[data-leader=king]")
    assert king.is_disabled() and why in (king.get_attribute("title") or "")
    assert king.get_attribute("aria-description") == why
    assert pb.locator(".hand .leaders-why").inner_text() == why

    # Turn 1: the king onto head 1; the lit spots are exactly the server's.
    pick_leader(pa, "king")
    assert lit(pa) == {x[1:] for x in vs[a]["legal"] if x.startswith("K")}
    clicked(pa, click_spot, pa, "1.0")
    wait_version(pb, 1)
    assert pb.locator("svg.layout .leader[data-spot='1.0'][data-leader=K]").count() == 1
    # taken back and placed again (undo as the server allows it)
    assert pa.locator("#undo").count() == 1 and pb.locator("#undo").count() == 0
    clicked(pa, pa.click, "#undo")
    assert pa.locator("svg.layout .leader").count() == 0
    pick_leader(pa, "king")
    clicked(pa, click_spot, pa, "1.0")
    vs = agree(server, game, p)
    # A card appended under it: the king collects any colour without its own leader
    # there (C-9), so its owner decides the point.
    colour = next(COLOURS[x] for x in "bgkr" if x in hand(vs, a))
    pick_card(pa, colour)
    assert lit(pa) == {x[1:] for x in vs[a]["legal"] if x[0] == LETTERS[colour]}
    wait_version(pb, clicked(pa, click_column, pa, 1))
    assert pb.locator(".decision[data-kind=point] .waiting").count() == 1
    answer_point(pa)
    vs = agree(server, game, p)
    assert "adds a" in pa.locator("ol.log").inner_text()

    # Turn 2: the second king into the same column — a revolt (C-10).
    assert int(vs[0]["active"]) == b
    pick_leader(pb, "king")
    wait_version(pa, clicked(pb, click_spot, pb, "1.1"))
    pb.wait_for_selector("#commit")
    assert pa.locator("#commit").count() == 0
    assert "Revolt of the kings" in pa.locator("div.conflict").inner_text()
    att = 1 if 1 in commit_options(pb) else 0
    commit(pb, att)
    pa.wait_for_selector("#commit")
    conflict = pa.locator("div.conflict").inner_text()
    assert "Revolt" in conflict and f"+ {att} =" in conflict
    # The defender decides in the other player's turn: the header says so, and the
    # leaders wait for the decision.
    assert pa.locator("#status").inner_text() == "Your decision: commitment"
    assert pa.locator(".hand .leaders-why").inner_text() == "First decide: commitment."
    # The tab is marked: this seat decides now (js/shared/follow.js).
    assert pa.title().startswith("● Your decision: commitment")
    shot(pa, "cards-revolt")
    commit(pa, max(commit_options(pa)))
    vs = views(server, game)
    if vs[0]["decision"]["kind"] == "point":  # won with nothing committed (C-10)
        answer_point(p[vs[0]["decision"]["seat"]])
    vs = agree(server, game, p)
    log = pb.locator("ol.log").inner_text()
    assert "Revolt of the kings" in log and f"commits {att}" in log and "wins the revolt" in log
    winner = a if vs[a]["leaders"][a]["K"] else b
    loser = 1 - winner

    # The approach to a war over HTTP: traders on heads 3 and 4, priests under them,
    # three cards in each column. On the loser's turn one card goes to column 1 by
    # clicks: the winner's king collects it, so the winner decides while not active.
    told_winner = False
    for _ in range(80):
        vs = settle(server, game)
        seat = int(vs[0]["active"])
        lay = vs[0]["layout"]
        mine = vs[seat]["leaders"][seat]
        own_col = 3 if seat == a else 4
        cards_in = hand(vs, seat)
        if not told_winner and seat == loser and vs[seat]["actions_left"] == 2 and cards_in:
            c = next(COLOURS[x] for x in "bgrk" if x in cards_in)
            page = p[seat]
            pick_card(page, c)
            clicked(page, click_column, page, 1)
            pw = p[winner]
            pw.wait_for_selector(".decision.mine[data-kind=point]")
            assert pw.locator("#status").inner_text() == "Your decision: a point"
            assert page.locator(".decision[data-kind=point] .waiting").count() == 1
            answer_point(pw)
            told_winner = True
            continue
        legal = vs[seat]["legal"]
        short = [c for c in (3, 4) if len(lay["columns"][c - 1]) < 3]
        if mine["T"] is None and f"T{own_col}.0" in legal:
            act(server, game, seat, f"T{own_col}.0")
        elif mine["P"] is None and f"P{own_col}.1" in legal:
            act(server, game, seat, f"P{own_col}.1")
        elif short and cards_in:
            letter = next(x for x in "bkrg" if x in cards_in)
            act(server, game, seat, f"{letter}{short[0]}")
        elif (
            not short
            and told_winner
            and all(vs[s]["leaders"][s]["T"] and vs[s]["leaders"][s]["P"] for s in (0, 1))
        ):
            break
        else:
            act(server, game, seat, "pass")
    else:
        raise AssertionError("the war could not be set up")
    vs = agree(server, game, p)

    # The bridge by clicks: laid face down; the other page sees only its back (C-19).
    seat = int(vs[0]["active"])
    page, other = p[seat], p[1 - seat]
    colour = COLOURS[sorted(hand(vs, seat))[0]]
    pick_card(page, colour)
    assert "3-4" in lit(page)
    assert lit(page) == {x[1:] for x in vs[seat]["legal"] if x[0] == LETTERS[colour]}
    clicked(page, click_gap, page, "3-4")
    wait_version(other, vs[0]["version"] + 1)
    assert other.locator(".card.bridge[data-spot='3-4']").get_attribute("data-card") == "?"
    assert (
        page.locator(".card.bridge[data-spot='3-4']").get_attribute("data-card") == LETTERS[colour]
    )
    assert "face-down bridge between 3 and 4" in other.locator("ol.log").inner_text()
    wars = 0
    for _ in range(6):
        vs = views(server, game)
        d = vs[0]["decision"]
        if d["kind"] == "war_order":
            p[d["seat"]].wait_for_selector(".war-choice")
            shot(p[d["seat"]], "cards-war-order")
            clicked(p[d["seat"]], p[d["seat"]].click, ".war-choice >> nth=0")
            # The choice pointed at was answered: nothing of it stays outlined.
            assert previews(p[d["seat"]]) == set()
        elif d["kind"] == "commit":
            attacker = p[d["seat"]]
            attacker.wait_for_selector("#commit")
            assert "War of the" in attacker.locator("div.conflict").inner_text()
            commit(attacker, commit_options(attacker)[-1] if wars == 0 else 0)
            vs = views(server, game)
            defender = p[vs[0]["decision"]["seat"]]
            defender.wait_for_selector("#commit")
            if wars == 0:
                shot(defender, "cards-war")
            commit(defender, 0)
            wars += 1
        elif d["kind"] == "point":
            answer_point(p[d["seat"]])
        elif d["kind"] == "exchange":
            ex = p[d["seat"]]
            ex.wait_for_selector(".decision.mine[data-kind=exchange]")
            takes = [x.split()[1] for x in vs[d["seat"]]["legal"] if x.startswith("exchange ")]
            assert lit(ex) == {f"{c}.0" for c in takes if c != "none"}
            clicked(ex, ex.click, "#exchange-none")
        else:
            break
    assert wars >= 1
    vs = agree(server, game, p)
    assert vs[0]["layout"]["bridges"][2] == LETTERS[colour]
    log = other.locator("ol.log").inner_text()
    assert "War of the" in log and "wins the war" in log and "is turned up" in log
    shot(page, "cards-table")

    # The approach to a ship over HTTP: three cards of one colour in a row in an empty
    # column without leaders; the fourth by clicks, then the ship (C-15).
    vs = views(server, game)
    target = next(
        c
        for c in (8, 7, 6, 2)
        if not vs[0]["layout"]["columns"][c - 1]
        and not any(
            (sp or "").startswith(f"{c}.") for s in (0, 1) for sp in vs[s]["leaders"][s].values()
        )
    )
    run = max("rbgk", key=lambda x: hand(vs, 0).count(x) + hand(vs, 1).count(x))
    for _ in range(120):
        vs = settle(server, game)
        seat = int(vs[0]["active"])
        col = vs[0]["layout"]["columns"][target - 1]
        assert all(x == run for x in col), col
        if len(col) == 3 and run in hand(vs, seat):
            break
        act(server, game, seat, f"{run}{target}" if run in hand(vs, seat) else "pass")
    else:
        raise AssertionError("no run of four could be built")
    vs = agree(server, game, p)
    page = p[seat]
    pick_card(page, COLOURS[run])
    clicked(page, click_column, page, target)
    page.wait_for_selector(".decision.mine[data-kind=ship]")
    ships = page.locator(".ship-choice").evaluate_all("bs => bs.map(b => b.dataset.ship)")
    assert ships == (["br", "bg", "bk"] if run == "b" else [f"b{run}"])
    shot(page, "cards-ship")
    # Pointed at, the ship outlines its four cards; answered (here typed, the mouse
    # still on the panel), nothing of it stays outlined.
    page.hover(".ship-choice >> nth=0")
    assert len(previews(page)) == 4
    page.fill("#notation", f"ship {ships[0]}")
    clicked(page, page.press, "#notation", "Enter")
    vs = settle(server, game)
    vs = agree(server, game, p)
    assert previews(page) == set()
    assert vs[0]["layout"]["columns"][target - 1] == [ships[0]]
    assert f"ship in column {target}" in p[1 - seat].locator("ol.log").inner_text()

    # A catastrophe by clicks: the lit cards are the server's; one leaves the game (C-7).
    vs = settle(server, game)
    seat = int(vs[0]["active"])
    page = p[seat]
    spots = {x[1:] for x in vs[seat]["legal"] if x.startswith("x")}
    page.click("#catastrophe")
    assert spots and lit(page) == spots
    spot = sorted(spots)[0]
    clicked(page, click_spot, page, spot)
    vs = settle(server, game)
    vs = agree(server, game, p)
    assert len(vs[0]["out"]) == 1 and vs[0]["catastrophes"][seat] is False
    assert "plays the catastrophe" in p[1 - seat].locator("ol.log").inner_text()

    # Every opponent's move that reached the other page was measured there (WS frame →
    # next frame painted). The figure is printed, not held to a bound: a timed assertion
    # failed only when the machine was overloaded (a median of 109 ms with four workers).
    measures = pa.evaluate(
        "() => performance.getEntriesByType('measure').filter(m => m.name.startsWith('update')).map(m => m.duration)"
    )
    assert measures and all(m >= 0 for m in measures), measures
    print(
        f"update → painted: median {statistics.median(measures):.1f} ms, max {max(measures):.1f} ms"
    )

"""The rules reference's figures as the browser draws them: on the laptop and the
phone, in both languages, every figure shows exactly the pieces of its position in the
claim table (web/rules/claims/<game>.json) that tests/web/test_rules_claims.py plays
through the engine, the page does not scroll sideways, and each figure is kept as a
screenshot (tests/web/screenshots/rules-<game>-<lang>-<screen>-<figure>.png)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.conftest import Pages, Server, shot
from tests.web.rules_claims import GAMES, table
from tests.web.screens import LAPTOP, PHONE, Screen, no_sideways_scroll, open_on

LEADER_OF = {"red": "priest", "blue": "farmer", "green": "trader", "black": "king"}

# What each drawn figure holds, read from the pieces the drawings put in the page.
DRAWN = """() => [...document.querySelectorAll('figure.rules-fig')].map((f) => ({
  fig: f.dataset.fig,
  claims: f.dataset.claims,
  label: f.querySelector('[role=img]')?.getAttribute('aria-label') ?? '',
  drawings: [...f.querySelectorAll('svg[data-example]')].map((svg) => ({
    step: svg.dataset.step ?? '',
    pieces: [...svg.querySelectorAll('.pieces g[data-sq], .pieces g[data-spot]')].map((g) => ({
      kind: g.getAttribute('class').split(' ')[0],
      sq: g.dataset.sq ?? g.dataset.spot, colour: g.dataset.colour ?? '', seat: g.dataset.seat ?? '',
      card: g.dataset.card ?? '', leader: g.dataset.leader ?? '', monument: g.dataset.monument ?? '',
    })),
  })),
}))"""


def board_pieces(drawn: list[dict[str, str]]) -> dict[str, Any]:
    """A board drawing's pieces in the claim table's terms."""
    out: dict[str, Any] = {"tiles": {}, "treasures": [], "catastrophes": [], "monuments": []}
    leaders: dict[int, dict[str, str]] = {}
    for p in drawn:
        if p["kind"] == "tile":
            out["tiles"].setdefault(p["colour"], []).append(p["sq"])
        elif p["kind"] == "leader":
            leaders.setdefault(int(p["seat"]), {})[LEADER_OF[p["colour"]]] = p["sq"]
        elif p["kind"] in ("treasure", "catastrophe"):
            out[f"{p['kind']}s" if p["kind"] == "catastrophe" else "treasures"].append(p["sq"])
        elif p["kind"] == "monument":
            out["monuments"].append((p["monument"], p["sq"]))
        elif p["kind"] == "unification":
            out["unification"] = p["sq"]
    out["leaders"] = {s: ls for s, ls in leaders.items() if ls}
    return normal(out)


def board_expected(fig: dict[str, Any]) -> dict[str, Any]:
    b = fig.get("board", {})
    out = {
        "tiles": {c: sqs for c, sqs in b.get("tiles", {}).items() if sqs},
        "treasures": b.get("treasures", []),
        "catastrophes": b.get("catastrophes", []),
        "monuments": [(m["monument"], m["square"]) for m in b.get("monuments", [])],
        "leaders": {s: ls for s, ls in enumerate(fig.get("leaders", [])) if ls},
    }
    if b.get("unification"):
        out["unification"] = b["unification"]
    return normal(out)


def cards_pieces(drawn: list[dict[str, str]], shown: int) -> dict[str, Any]:
    """A layout drawing's pieces in the claim table's terms, for the columns shown."""
    heads = ""
    columns: list[list[tuple[int, str]]] = [[] for _ in range(shown)]
    bridges: dict[str, str] = {}
    leaders: dict[int, dict[str, str]] = {}
    for p in drawn:
        spot = p["sq"]
        if p["kind"] == "card" and "-" in spot:
            if int(spot[0]) < shown:
                bridges[spot] = p["card"]
        elif p["kind"] == "card":
            col, row = (int(x) for x in spot.split("."))
            if col > shown:
                continue
            if row == 0:
                heads += p["card"]
            else:
                columns[col - 1].append((row, p["card"]))
        elif p["kind"] == "leader":
            leaders.setdefault(int(p["seat"]), {})[p["leader"]] = spot
    cards = [[c for _, c in sorted(col)] for col in columns]
    return {"heads": heads, "columns": cards, "bridges": bridges, "leaders": leaders}


def cards_expected(fig: dict[str, Any]) -> dict[str, Any]:
    lay = fig["layout"]
    shown = len(lay["columns"])
    bridges = {
        f"{g + 1}-{g + 2}": "?" if lay.get("face_down") == f"{g + 1}-{g + 2}" else card
        for g, card in enumerate(lay.get("bridges", []))
        if card
    }
    return {
        "heads": lay.get("heads", "tttttttt")[:shown],
        "columns": lay["columns"],
        "bridges": bridges,
        "leaders": {s: ls for s, ls in enumerate(fig.get("leaders", [])) if ls},
    }


def normal(doc: dict[str, Any]) -> dict[str, Any]:
    out = dict(doc)
    out["tiles"] = {c: sorted(sqs) for c, sqs in doc["tiles"].items()}
    for key in ("treasures", "catastrophes", "monuments"):
        out[key] = sorted(doc[key])
    return out


def check_drawn(game: str, drawn: list[dict[str, Any]]) -> None:
    figures = table(game)["figures"]
    assert {d["fig"] for d in drawn} == set(figures)
    for d in drawn:
        fig = figures[d["fig"]]
        assert d["claims"] and d["label"], d["fig"]
        if d["fig"] == "scoring":
            continue
        steps = {x["step"]: x["pieces"] for x in d["drawings"]}
        wanted = {"before": fig["before"], "after": fig} if fig.get("steps") else {"": fig}
        assert set(steps) == set(wanted), d["fig"]
        for step, pieces in wanted.items():
            if game == "board":
                assert board_pieces(steps[step]) == board_expected(pieces), (d["fig"], step)
            else:
                shown = len(pieces["layout"]["columns"])
                got = cards_pieces(steps[step], shown)
                assert got == cards_expected(pieces), (d["fig"], step)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", ["en", "de"])
def test_figures_draw_the_claim_tables_positions(
    server: Server, pages: Pages, game: str, lang: str
) -> None:
    screen: Screen
    for screen in (LAPTOP, PHONE):
        page = open_on(pages, f"{server.base}/rules/{game}?lang={lang}", screen)
        page.wait_for_selector("figure.rules-fig svg .pieces g")
        check_drawn(game, page.evaluate(DRAWN))
        no_sideways_scroll(page)
        for name in table(game)["figures"]:
            page.evaluate(
                "(f) => document.querySelector(`figure[data-fig=${f}]`).scrollIntoView()", name
            )
            shot(page, f"rules-{game}-{lang}-{screen.name}-{name}")

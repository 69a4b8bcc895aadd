"""The rules reference's figures are positions the engines load, and what their texts
say is what the engines do (web/rules/claims/<game>.json, tests/web/rules_claims.py).

Every figure and every caption names its claims, in every language; every claim is
named by a text; the drawing reads the figures from the claim table itself (no
position of its own); the marks a figure draws (a kingdom, a conflict's leaders) are
the engine's; and a caption says no point, number or square that its claims do not
back: a caption that gives the king a black point from a red-blue monument fails."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from euphrates.board.geometry import flood, parse_square, square_name, squares_of
from tests.web.rules_claims import (
    GAMES,
    SQUARE,
    WEB,
    board_conflict,
    board_regions,
    cards_conflict,
    check,
    shown_state,
    table,
    window,
)

LANGS = ("en", "de", "nl", "hu")
CLAIMS = [(game, name) for game in GAMES for name in table(game)["claims"]]
# A caption's "<colour> point", as each language says it.
COLOUR_POINT = {
    "en": re.compile(r"\b(red|blue|green|black) points?\b"),
    "de": re.compile(r"\b(rot|blau|grün|schwarz)(?:e|en|er|es)? Siegpunkte?n?\b"),
    "nl": re.compile(r"\b(rood|rode|blauwe?|groene?|zwarte?) zegepunt(?:en)?\b"),
    "hu": re.compile(r"\b(piros|kék|zöld|fekete) győzelmi pont\w*"),
}
COLOUR_WORD = {
    "en": {"red": "red", "blue": "blue", "green": "green", "black": "black"},
    "de": {"rot": "red", "blau": "blue", "grün": "green", "schwarz": "black"},
    "nl": {
        **{"rood": "red", "rode": "red", "blauw": "blue", "blauwe": "blue"},
        **{"groen": "green", "groene": "green", "zwart": "black", "zwarte": "black"},
    },
    "hu": {"piros": "red", "kék": "blue", "zöld": "green", "fekete": "black"},
}
RULING = re.compile(r"\b[BCG]-\d+\b")
NUMBER = re.compile(r"\b\d+\b")


def text(game: str, lang: str) -> Any:
    return json.loads((WEB / "words" / lang / f"rules-{game}.json").read_text(encoding="utf-8"))


def blocks(game: str, lang: str) -> list[dict[str, Any]]:
    return [b for s in text(game, lang)["sections"] for b in s["blocks"]]


@pytest.mark.parametrize(("game", "name"), CLAIMS, ids=[f"{g}-{n}" for g, n in CLAIMS])
def test_claim_holds_in_the_engine(game: str, name: str) -> None:
    check(game, name)


@pytest.mark.parametrize("game", GAMES)
def test_every_figure_has_claims_and_every_claim_its_place(game: str) -> None:
    doc = table(game)
    for name, claim in doc["claims"].items():
        assert claim.get("says", "").strip(), name
        assert RULING.fullmatch(claim["ruling"]), name
        assert ("figure" in claim) != ("position" in claim), name
        if "figure" in claim:
            assert claim["figure"] in doc["figures"], name
    for fig in doc["figures"]:
        assert any(c.get("figure") == fig for c in doc["claims"].values()), f"{fig}: no claim"
    for lang in LANGS:
        named: set[str] = set()
        figures: set[str] = set()
        for b in blocks(game, lang):
            ids = b.get("claims", [])
            assert len(ids) == len(set(ids)), b
            if "fig" in b:
                figures.add(b["fig"])
                assert ids, f"{lang} {b['fig']}: a caption without claims"
                for cid in ids:
                    assert doc["claims"][cid].get("figure") == b["fig"], (lang, b["fig"], cid)
            elif ids:
                assert "rule" in b, b
                for cid in ids:
                    assert doc["claims"][cid]["ruling"] == b["rule"], (lang, b["rule"], cid)
            named |= set(ids)
        assert named == set(doc["claims"]), (lang, set(doc["claims"]) - named)
        assert figures == set(doc["figures"]), (lang, figures ^ set(doc["figures"]))


@pytest.mark.parametrize("game", GAMES)
def test_the_drawing_reads_the_figures_from_the_claim_table(game: str) -> None:
    code = (WEB / "js" / "rules" / f"{game}.js").read_text(encoding="utf-8")
    assert "EXAMPLES" not in code
    reference = (WEB / "js" / "rules" / "reference.js").read_text(encoding="utf-8")
    assert "rules/claims/" in reference
    for name, fig in table(game)["figures"].items():
        if name == "scoring":
            assert set(fig) == {"points", "treasures"}
            continue
        if game == "board":
            seen = window(fig)
            drawn = json.dumps([fig.get("board"), fig.get("leaders"), fig.get("before")])
            # Every square a figure puts a piece or a mark on lies in its window.
            assert set(SQUARE.findall(drawn)) <= seen, name
            for mark in [
                *fig.get("marks", {}).values(),
                *fig.get("before", {}).get("marks", {}).values(),
            ]:
                assert set(mark) <= seen, name


def board_kingdom(st: Any, squares: list[str]) -> list[str]:
    start = parse_square(squares[0])
    region = flood(1 << start, st.occupied)
    return sorted(square_name(q) for q in squares_of(region))


@pytest.mark.parametrize("game", GAMES)
def test_a_figures_marks_are_the_engines(game: str) -> None:
    for name, fig in table(game)["figures"].items():
        marks = fig.get("marks", {})
        if not marks.get("region") and not marks.get("conflict"):
            continue
        st = shown_state(game, name)
        if marks.get("region"):
            assert board_kingdom(st, marks["region"]) == sorted(marks["region"]), name
            assert any(r["squares"] == sorted(marks["region"]) for r in board_regions(st))
        if marks.get("conflict"):
            conflict = board_conflict(st) if game == "board" else cards_conflict(st)
            assert conflict == sorted(marks["conflict"]), name


def numbers_of(value: Any, game: str) -> set[int]:
    """The whole numbers a claim or a figure states: seats, strengths, points, counts
    and the columns and gaps its actions name (a board square's row is no number)."""
    if isinstance(value, bool):
        return set()
    if isinstance(value, int):
        return {value}
    if isinstance(value, str):
        if game == "board":
            value = re.sub(r"[A-P](?:1[01]|[1-9])(?!\d)", "", value)
        return {int(n) for n in re.findall(r"\d+", value)}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(numbers_of(v, game) for v in value))
    return set()


def scored_colours(game: str, claim: dict[str, Any]) -> set[str]:
    if game == "board":
        out = {s[1] for s in claim.get("scores", [])}
        return out | {e["colour"] for e in claim.get("events", []) if e["kind"] == "scored"}
    letters = {"r": "red", "b": "blue", "g": "green", "k": "black"}
    return {
        letters[e["card"]]
        for e in claim.get("events", [])
        if e["kind"] == "point" and e.get("card") in letters
    }


def unbacked(game: str, lang: str, said: str, ids: list[str], fig: str | None) -> list[str]:
    """What a text says that its claims do not back: a point of a colour no claim
    scores, a number no claim states, a square no claim or figure names."""
    doc = table(game)
    claims = [doc["claims"][c] for c in ids]
    figure = doc["figures"].get(fig or "", {})
    problems = []
    colours = set().union(*(scored_colours(game, c) for c in claims)) if claims else set()
    for m in COLOUR_POINT[lang].finditer(said):
        if COLOUR_WORD[lang][m.group(1)] not in colours:
            problems.append(f"{m.group(0)!r}: no claim scores it")
    plain = RULING.sub("", SQUARE.sub("", said)) if game == "board" else RULING.sub("", said)
    stated = numbers_of(claims, game) | numbers_of(figure, game)
    problems += [f"{n}: no claim states it" for n in NUMBER.findall(plain) if int(n) not in stated]
    if game == "board":
        squares = set(SQUARE.findall(json.dumps([claims, figure])))
        problems += [f"{sq}: not in the claims" for sq in SQUARE.findall(said) if sq not in squares]
    return problems


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGS)
def test_texts_say_only_what_their_claims_back(game: str, lang: str) -> None:
    problems = []
    for b in blocks(game, lang):
        ids = b.get("claims", [])
        said = b.get("caption") if "fig" in b else b.get("text", "")
        if ids or "fig" in b:
            problems += [
                f"{b.get('fig') or b.get('rule')}: {p}"
                for p in unbacked(game, lang, said or "", ids, b.get("fig"))
            ]
    assert problems == []


OLD_MONUMENT = {
    "en": "A red–blue monument on four turned-over tiles. The king beside it earns a black point at the end of its owner's turns.",
    "de": "Ein rot-blaues Monument auf vier umgedrehten Plättchen. Der König daneben bringt seinem Besitzer am Ende jedes eigenen Zuges einen schwarzen Siegpunkt.",
    "nl": "Een rood-blauw monument op vier omgedraaide plaatjes. De koning ernaast levert zijn eigenaar aan het einde van elke eigen beurt een zwart zegepunt op.",
    "hu": "Piros–kék emlékmű négy megfordított lapkán. A mellette álló király minden saját köre végén egy fekete győzelmi pontot hoz a gazdájának.",
}


@pytest.mark.parametrize("lang", LANGS)
def test_the_old_monument_caption_is_refused(lang: str) -> None:
    # The caption the reference had: a king beside a red-blue monument scores nothing
    # from it (B-17), and the engine's claims say so.
    fig = next(b for b in blocks("board", lang) if b.get("fig") == "monuments")
    assert unbacked("board", lang, OLD_MONUMENT[lang], fig["claims"], "monuments")
    assert fig["caption"] != OLD_MONUMENT[lang]

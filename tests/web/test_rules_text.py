"""The rules reference's text (web/words/<lang>/rules-<game>.json): every language has the
same sections, rulings and examples in the same order, naming the same claims; every
ruling of a game has its place (a refusal may cite any of them); every example names a
figure of the game's claim table (web/rules/claims/<game>.json)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from euphrates.words.book import LANGS

WEB = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "web"
SECTIONS = {
    "board": [
        "setup",
        "actions",
        "kingdoms",
        "revolt",
        "war",
        "monuments",
        "treasures",
        "catastrophes",
        "end",
    ],
    "cards": [
        "setup",
        "actions",
        "kingdoms",
        "points",
        "revolt",
        "war",
        "ships",
        "treasures",
        "catastrophes",
        "end",
    ],
}
# RULINGS.md: B-1 … B-34 and C-1 … C-19, and G-1 … G-5 in both games.
RULINGS = {
    "board": {f"B-{n}" for n in range(1, 35)} | {f"G-{n}" for n in range(1, 6)},
    "cards": {f"C-{n}" for n in range(1, 20)} | {f"G-{n}" for n in range(1, 6)},
}
KEYS = {"title", "intro", "contents", "ruling", "close", "other", "sections"}


def text(game: str, lang: str) -> Any:
    return json.loads((WEB / "words" / lang / f"rules-{game}.json").read_text(encoding="utf-8"))


def shape(doc: Any) -> list[tuple[str, list[tuple[str, list[str]]]]]:
    """Each section's id and its blocks' kinds (a ruling's id, an example's name, or "p")
    with the claims each names."""
    return [
        (
            s["id"],
            [
                (b.get("rule") or (f"fig:{b['fig']}" if "fig" in b else "p"), b.get("claims", []))
                for b in s["blocks"]
            ],
        )
        for s in doc["sections"]
    ]


def examples(game: str) -> set[str]:
    """The figures of a game's claim table, which its drawing module draws."""
    table = json.loads((WEB / "rules" / "claims" / f"{game}.json").read_text(encoding="utf-8"))
    return set(table["figures"])


@pytest.mark.parametrize("game", ["board", "cards"])
def test_languages_have_the_same_shape(game: str) -> None:
    en = text(game, "en")
    assert set(en) == KEYS
    assert [s["id"] for s in en["sections"]] == SECTIONS[game]
    for lang in LANGS[1:]:
        other = text(game, lang)
        assert set(other) == KEYS, lang
        assert shape(other) == shape(en), lang


@pytest.mark.parametrize("game", ["board", "cards"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_ruling_has_one_place_and_every_text_is_there(game: str, lang: str) -> None:
    doc = text(game, lang)
    rulings = [b["rule"] for s in doc["sections"] for b in s["blocks"] if "rule" in b]
    assert len(rulings) == len(set(rulings)), "a ruling in two places"
    assert set(rulings) == RULINGS[game]
    for s in doc["sections"]:
        assert s["title"].strip()
        for b in s["blocks"]:
            said = b.get("text") or b.get("p") or b.get("caption")
            assert said and said.strip(), (s["id"], b)
            # Every ruling a text cites has its place in this game's reference or the other's.
            for cited in re.findall(r"\b[BCG]-\d+\b", said):
                assert cited in RULINGS["board"] | RULINGS["cards"], cited
    figures = {b["fig"] for s in doc["sections"] for b in s["blocks"] if "fig" in b}
    assert figures <= examples(game)
    assert len(figures) >= 6

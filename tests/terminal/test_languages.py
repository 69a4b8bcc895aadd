"""The terminal in every language of the book: the words around the board (the legend,
each seat's hand and points, the bag, what is pending) and around the layout (the seats,
piles, deck and ships), the refusals of a move with their ruling, saving and leaving —
none of it left in English but the notation's letters and commands."""

from __future__ import annotations

import re

import pytest

from euphrates.terminal import TerminalGame, new_record
from euphrates.words.book import LANGS, read_part
from tests.terminal.helpers import Spawner, console, scripted

OTHERS = [lang for lang in LANGS if lang != "en"]
WORD = re.compile(r"[^\W\d_]{3,}")


def _words(texts: list[str]) -> set[str]:
    return {w.lower() for t in texts for w in WORD.findall(re.sub(r"\{[^{}]*\}", " ", t))}


def english_left(lang: str) -> set[str]:
    """Words of the English status, legend and saving texts that no text of `lang` has."""
    en = read_part("en", "terminal")
    ours = [v for k, v in en.items() if k.startswith(("term.status.", "term.legend.", "term.re"))]
    ours += [en[k] for k in ("term.saved", "term.kept", "term.unsaved", "term.end_of_input")]
    theirs = [
        v
        for part in ("terminal", "common", "board", "cards")
        for v in read_part(lang, part).values()
    ]
    # the notation's own words and the command stay as they are in every language
    return _words(ours) - _words(theirs) - {"save", "play", "resume", "euphrates", "pass"}


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_terminal_speaks_the_language(game: str, lang: str, tmp_path: object) -> None:
    con, out = console(width=200)
    record = new_record(game, 2, 0, ["beginner"], 5, {})
    # a leader on the river (B-8) where the board game allows it, then a typo, the
    # board again, and leaving
    moves = (["KE1"] if game == "board" else []) + ["xyz", "board", "quit"]
    g = TerminalGame(record, con, read=scripted(moves), spawn=Spawner(), lang=lang)
    assert g.run() == 0
    text = out.getvalue()
    pages = read_part(lang, "pages")
    assert pages["err.invalid_action"] in text
    if game == "board":
        assert f"{pages['ruling.B-8']} (B-8)" in text
        assert read_part(lang, "terminal")["term.legend.2"].strip() in text
    left = sorted({w for w in WORD.findall(text) if w.lower() in english_left(lang)})
    assert left == [], f"English in the {lang} terminal: {left}\n{text[-2000:]}"


def test_english_keeps_the_engines_own_sentence() -> None:
    con, out = console(width=200)
    record = new_record("board", 2, 0, ["beginner"], 5, {})
    g = TerminalGame(record, con, read=scripted(["KE1", "quit"]), spawn=Spawner(), lang="en")
    assert g.run() == 0
    assert "a leader cannot stand on the river (E1) (B-8)" in out.getvalue()
    assert "legend: . land" in out.getvalue() and "bag: " in out.getvalue()

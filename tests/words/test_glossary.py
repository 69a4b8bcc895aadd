"""The rulebooks' words (web/words/<lang>/glossary.json): every text of a language (the
pages' texts, the book of words with the terminal's part, the rules reference, the
guided tours, the fair-play page and the mails, all in web/words/<lang>/) uses the
rulebook's word, never one of the synonyms its glossary refuses; each word the
glossary prefers is cited from the rulebook it names, or, where the language has no
rulebook of that game, says in a note why it was chosen (the sister game's word). Every
language but English keeps a glossary."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euphrates.words.book import LANGS as ALL_LANGS

ROOT = Path(__file__).resolve().parents[2]
WORDS = ROOT / "src" / "euphrates" / "web" / "words"
RULEBOOKS = ROOT.parent / "shared" / "rules"
LANGS = [lang for lang in ALL_LANGS if lang != "en"]
KEY = re.compile(r"[a-z0-9_.\-]+")
WORD = re.compile(r"\w+")


def glossary(lang: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((WORDS / lang / "glossary.json").read_text(encoding="utf-8"))
    return doc


def json_strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_strings(v)


def texts(lang: str) -> dict[str, list[str]]:
    """Every text of a language, by the part it is kept in."""
    out: dict[str, list[str]] = {}
    for path in sorted((WORDS / lang).glob("*.json")):
        if path.name != "glossary.json":
            doc = json.loads(path.read_text(encoding="utf-8"))
            out[path.stem] = [s for s in json_strings(doc) if not KEY.fullmatch(s)]
    return out


def refused(lang: str, text: str) -> list[str]:
    """The wrong forms a text uses, each as "form → the word to use"."""
    hits: list[str] = []
    # a parameter's name is no word of the text (`{deck}`); a form's words are, and a
    # refused form with a parameter ("Farbe {colour}") is matched as written
    words = WORD.findall(re.sub(r"\{\w+\|", "{|", re.sub(r"\{\w+\}", "{}", text)))
    for term in glossary(lang)["terms"]:
        for rule in term["not"]:
            allow = set(rule.get("allow", []))
            compounds = rule.get("compounds")
            for form in rule["forms"]:
                if not WORD.fullmatch(form):
                    pattern = rf"(?<!\w){re.escape(form)}(?!\w)"
                    found = re.findall(pattern, text)
                elif compounds == "any":
                    found = [w for w in words if form.lower() in w.lower() and w not in allow]
                elif compounds == "start":
                    found = [w for w in words if w.startswith(form) and w not in allow]
                else:
                    found = [w for w in words if w == form]
                hits += [f"{w!r} → {term['use']}" for w in found]
    return sorted(set(hits))


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_is_well_formed_and_cited_from_the_rulebooks(lang: str) -> None:
    doc = glossary(lang)
    assert doc["lang"] == lang
    assert len(doc["terms"]) >= 10
    for term in doc["terms"]:
        assert term["en"] and term["use"] and term["not"], term
        # a word no rulebook of the language has says why it was chosen
        assert term["rulebook"] or term.get("note"), term
        # The word to use is never one the glossary refuses.
        assert refused(lang, term["use"]) == [], term["use"]
        for cite in term["rulebook"]:
            assert cite["file"].endswith(f".{lang}.txt"), cite
            book = RULEBOOKS / cite["file"]
            if book.exists():
                assert cite["says"] in book.read_text(encoding="utf-8"), cite
        for rule in term["not"]:
            assert rule["forms"] and rule["why"], rule
            assert rule.get("compounds") in (None, "start", "any"), rule


@pytest.mark.parametrize("lang", LANGS)
def test_rulebooks_are_there_to_cite(lang: str) -> None:
    if not RULEBOOKS.exists():
        pytest.skip(f"the rulebooks are not at {RULEBOOKS}")
    cited = {c["file"] for t in glossary(lang)["terms"] for c in t["rulebook"]}
    assert all((RULEBOOKS / f).exists() for f in cited), cited


def test_the_check_catches_what_it_should() -> None:
    if "de" not in LANGS:
        pytest.skip("no German glossary")
    wrong = {
        "Die Säule ist voll.": "'Säule' → Spalte",
        "Zwei Kartensäulen": "'Kartensäulen' → Spalte",
        "eine Säulenkarte": "'Säulenkarte' → Spalte",
        "in seinem Reich": "'Reich' → Königreich",
        "in seiner Reichshälfte": "'Reichshälfte' → Königreich",
        "Aufstände": "'Aufstände' → Revolte",
        "Eine Karte der Farbe {colour}": "'Farbe {colour}' → Farbe Rot",
        "die Farbe rot": "'Farbe rot' → Farbe Rot",
        "keinen Punkt": "'Punkt' → Siegpunkt",
        "auf den Punktestapel": "'Punktestapel' → Siegpunkte-Stapel",
        "auf dem Plan": "'Plan' → Spielplan",
    }
    for text, hit in wrong.items():
        assert hit in refused("de", text), text
    right = (
        "Ein reiches Königreich im Bereich der Spalten reicht. Reicht der Stapel nicht, "
        "zählt die Farbe Rot; Siegpunkte auf dem Siegpunkte-Stapel; der Spielplan; "
        "der Zeitpunkt; die Revolte; der Spielführer; Landwirtschaft."
    )
    assert refused("de", right) == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_text_uses_the_rulebooks_words(lang: str) -> None:
    found = texts(lang)
    # Every kind of text is read: the pages, the book of words, the reference, the tours,
    # the mails.
    assert {"pages", "pages-cards", "tour", "fairplay", "mail", "common", "terminal"} <= set(found)
    assert {"rules-board", "rules-cards"} <= set(found)
    assert sum(len(v) for v in found.values()) > 500
    problems = [
        f"{where}: {hit} in {text[:90]!r}"
        for where, items in found.items()
        for text in items
        for hit in refused(lang, text)
    ]
    assert problems == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_word_of_the_glossary_is_used(lang: str) -> None:
    """The glossary is the texts' own: each word it prefers stands in them (as a word's
    start, so that an inflected form counts: "tegels", "királyságot"; `stem` where the
    word changes inside when inflected)."""
    words = {w.lower() for items in texts(lang).values() for t in items for w in WORD.findall(t)}
    unused = []
    for term in glossary(lang)["terms"]:
        stem = str(term.get("stem") or WORD.findall(term["use"])[0]).lower()
        if not any(w.startswith(stem) for w in words):
            unused.append(term["use"])
    assert unused == []

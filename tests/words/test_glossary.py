"""The rulebooks' words (web/words/glossary/<lang>.json): every text of a language (the
pages' strings, the book of words with the terminal's part, the rules reference, the
guided tours, the fair-play page and the mails) uses the rulebook's word, never one of
the synonyms its glossary refuses; each word the glossary prefers is cited from the
rulebook it names. A language with a glossary file is checked by adding that file."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from euphrates.server.features.notifications import texts as mails

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "euphrates" / "web"
RULEBOOKS = ROOT.parent / "shared" / "rules"
GLOSSARIES = sorted((WEB / "words" / "glossary").glob("*.json"))
LANGS = [p.stem for p in GLOSSARIES]
JS_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
KEY = re.compile(r"[a-z0-9_.\-]+")
WORD = re.compile(r"\w+")


def glossary(lang: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (WEB / "words" / "glossary" / f"{lang}.json").read_text(encoding="utf-8")
    )
    return doc


def js_strings(code: str) -> Iterator[str]:
    """The string literals of a strings module, comments left out; keys are skipped."""
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)
    code = "\n".join(line for line in code.splitlines() if not line.lstrip().startswith("//"))
    for literal in JS_STRING.findall(code):
        text: str = json.loads(literal)
        if not KEY.fullmatch(text):
            yield text


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
    """Every text of a language, by where it is kept."""
    out: dict[str, list[str]] = {}
    js = WEB / "js"
    for path in (
        js / "shared" / "strings" / f"{lang}.js",
        js / "cards" / "strings" / f"{lang}.js",
        js / "fairplay" / f"{lang}.js",
    ):
        if path.exists():
            out[str(path.relative_to(WEB))] = list(js_strings(path.read_text(encoding="utf-8")))
    tours = (js / "tour" / "strings.js").read_text(encoding="utf-8")
    start = tours.find(f"export const {lang.upper()} =")
    if start >= 0:
        end = tours.find("\n};", start)
        out["js/tour/strings.js"] = list(js_strings(tours[start:end]))
    for folder in ("words", "rules"):
        for path in sorted((WEB / folder / lang).glob("*.json")):
            doc = json.loads(path.read_text(encoding="utf-8"))
            out[str(path.relative_to(WEB))] = [s for s in json_strings(doc) if not KEY.fullmatch(s)]
    if lang in mails.WORDS:
        out["server/features/notifications/texts.py"] = list(mails.WORDS[lang].values())
    return out


def refused(lang: str, text: str) -> list[str]:
    """The wrong forms a text uses, each as "form → the word to use"."""
    hits: list[str] = []
    words = WORD.findall(text)
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
        assert term["en"] and term["use"] and term["rulebook"] and term["not"], term
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
    assert any("strings" in k for k in found) and "js/tour/strings.js" in found, found.keys()
    assert any(k.startswith("words/") for k in found) and any(k.startswith("rules/") for k in found)
    assert sum(len(v) for v in found.values()) > 500
    problems = [
        f"{where}: {hit} in {text[:90]!r}"
        for where, items in found.items()
        for text in items
        for hit in refused(lang, text)
    ]
    assert problems == []

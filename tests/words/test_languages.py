"""Every language of web/words/languages.json is a folder of the same parts with the same
keys: the book of words, the pages' texts, the messages and the rules reference (the
same document, only its texts in the language). A text keeps the English one's
parameters, so that no page is left without the name, count or place it shows; counts
take their forms from CLDR's plural rules, and Hungarian, which takes no plural after a
numeral, writes none."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from euphrates.words.book import (
    LANGS,
    LANGUAGES,
    PAGE_PARTS,
    PARTS,
    RULES_PARTS,
    form_index,
    format,
    read_part,
)

WORDS = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "web" / "words"
FLAT = PARTS + PAGE_PARTS
OTHERS = [lang for lang in LANGS if lang != "en"]
FORM = re.compile(r"\{(\w+)((?:\|[^|{}]*)+)\}")
PARAM = re.compile(r"\{(\w+)\}")


def test_the_languages_are_the_folders() -> None:
    folders = {p.name for p in WORDS.iterdir() if p.is_dir()}
    assert folders == set(LANGS)
    assert LANGS[0] == "en" and {"de", "nl", "hu"} <= set(LANGS)
    assert LANGUAGES["nl"] == "Nederlands" and LANGUAGES["hu"] == "Magyar"


@pytest.mark.parametrize("lang", LANGS)
def test_every_language_has_every_part(lang: str) -> None:
    files = {p.stem for p in (WORDS / lang).glob("*.json")} - {"glossary"}
    assert files == set(FLAT + RULES_PARTS)


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("part", FLAT)
def test_same_keys_and_parameters_as_english(lang: str, part: str) -> None:
    en, other = read_part("en", part), read_part(lang, part)
    assert en.keys() == other.keys(), f"{lang}/{part}: keys differ from English"
    for key, text in en.items():
        # every plain parameter the English fills in, the translation fills in too; a
        # count only used to choose a form may go (Hungarian: "{n} lapka" needs none)
        assert set(PARAM.findall(text)) == set(PARAM.findall(other[key])), f"{lang}/{key}"
        assert {m[0] for m in FORM.findall(other[key])} <= set(PARAM.findall(text)) | {
            m[0] for m in FORM.findall(text)
        }, f"{lang}/{key}"


def _shape(doc: Any, path: str = "") -> list[str]:
    """The document's structure and non-text values: what a translation keeps."""
    if isinstance(doc, dict):
        return [x for k, v in doc.items() for x in [f"{path}.{k}", *_shape(v, f"{path}.{k}")]]
    if isinstance(doc, list):
        return [x for i, v in enumerate(doc) for x in _shape(v, f"{path}[{i}]")]
    if isinstance(doc, str):
        # ids and anchors are the same in every language; texts keep their parameters
        if re.fullmatch(r"[a-z0-9_.\-]+|[A-Z]-\d+", doc):
            return [f"{path}={doc}"]
        return [f"{path}:{sorted(set(PARAM.findall(doc)))}"]
    return [f"{path}={doc!r}"]


@pytest.mark.parametrize("lang", OTHERS)
@pytest.mark.parametrize("part", RULES_PARTS)
def test_the_rules_reference_is_the_same_document(lang: str, part: str) -> None:
    def doc(language: str) -> Any:
        return json.loads((WORDS / language / f"{part}.json").read_text(encoding="utf-8"))

    assert _shape(doc(lang)) == _shape(doc("en"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_key_stands_in_one_part_only(lang: str) -> None:
    seen: dict[str, str] = {}
    for part in FLAT:
        for key in read_part(lang, part):
            assert key not in seen, f"{lang}: {key} in {seen.get(key)} and {part}"
            seen[key] = part


@pytest.mark.parametrize("lang", LANGS)
def test_every_form_has_the_languages_number_of_forms(lang: str) -> None:
    """One form per CLDR category of the language (two for these four)."""
    for part in FLAT:
        for key, text in read_part(lang, part).items():
            for _, forms in FORM.findall(text):
                assert forms.count("|") == 2, f"{lang}/{key}: {text}"


@pytest.mark.parametrize("lang", OTHERS)
def test_translated(lang: str) -> None:
    """Texts the same as the English are few (names, notation, codes)."""
    same = total = 0
    for part in FLAT:
        en, other = read_part("en", part), read_part(lang, part)
        for key, text in en.items():
            if len(text) > 12 and " " in text:
                total += 1
                same += other[key] == text
    assert total > 600 and same / total < 0.02, (same, total)


def test_hungarian_takes_no_plural_after_a_numeral() -> None:
    """A noun right after a count stays singular in Hungarian: never `{n} {n|a|b}` with two
    forms; Dutch and German make it plural."""
    after = re.compile(r"\{(\w+)\} \{\1\|([^|{}]*)\|([^|{}]*)\}")
    counts = {lang: 0 for lang in ("hu", "nl", "de")}
    for lang in counts:
        for part in FLAT:
            for key, text in read_part(lang, part).items():
                for _, one, other in after.findall(text):
                    if lang == "hu":
                        assert one == other, f"hu/{key}: {text}"
                    counts[lang] += one != other
    assert counts["nl"] > 10 and counts["de"] > 10 and counts["hu"] == 0, counts


def test_plural_rules_are_cldr_s() -> None:
    """Babel's categories, as Intl.PluralRules has them (tests/web/test_book.py checks the
    browser renders every text alike)."""
    text = "{n} {n|one|other}"
    assert [format(text, {"n": n}, "en") for n in (0, 1, 2, 1.5)] == [
        "0 other",
        "1 one",
        "2 other",
        "1.5 other",
    ]
    assert form_index(1, "hu") == 0 and form_index(3, "hu") == 1
    # a language with more categories reads more forms, in CLDR's order
    polish = "{n|one|few|many|other}"
    assert [format(polish, {"n": n}, "pl") for n in (1, 3, 5, 22, 1.5)] == [
        "one",
        "few",
        "many",
        "few",
        "other",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_the_messages_speak_every_language(lang: str) -> None:
    """A turn's message in the player's language names the game by its title in that
    language (the book's `term.title.*`), the name and the link, and nothing else."""
    from euphrates.server.features.notifications import texts

    item = texts.TurnGame("g1", "board", "Ann")
    message = texts.turn(item, "https://club.example", lang)
    title = read_part(lang, "terminal")["term.title.board"]
    assert title in message.subject and "Ann" in message.text
    assert "https://club.example/g/g1" in message.text
    mail = read_part(lang, "mail")
    assert message.subject == format(mail["mail.turn.subject"], {"game": title, "table": ""}, lang)
    # which table: the opponents and the decision waiting, in the language's words
    named = texts.TurnGame("g1", "board", "Ann", (("Bob", None), (None, "strong")), 12)
    table = texts.turn(named, "https://club.example", lang)
    assert "Bob" in table.subject and "12" in table.subject
    assert read_part(lang, "pages")["level.strong"] in table.text
    digest = texts.digest("Ann", [item, texts.TurnGame("g2", "cards", "Ann")], "https://x", lang)
    assert "2" in digest.subject and digest.text.count("https://x/g/") == 2

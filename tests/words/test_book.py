"""The book of words (euphrates.words.book): its parts in both languages, its syntax,
and the language the terminal takes from the locale."""

from __future__ import annotations

import re

import pytest

from euphrates.words import LANGS, book, format, lang_from_env
from euphrates.words.book import PARTS, read_part

NAMES = re.compile(r"\{([A-Za-z0-9_]+)(?:\|[^|{}]*\|[^|{}]*)?\}")


def _names(text: str) -> set[str]:
    return set(NAMES.findall(text))


@pytest.mark.parametrize("part", PARTS)
def test_both_languages_have_the_same_keys_taking_the_same_parameters(part: str) -> None:
    en, de = read_part("en", part), read_part("de", part)
    assert en.keys() - de.keys() == set(), "missing in German"
    assert de.keys() - en.keys() == set(), "missing in English"
    # A part read as nothing would pass the comparisons above; the smallest (hints) has 5.
    assert len(en) >= 5
    for key in en:
        assert _names(en[key]) == _names(de[key]), key
        assert en[key].strip() and de[key].strip(), key


def test_a_key_stands_in_one_part_only() -> None:
    seen: dict[str, str] = {}
    for part in PARTS:
        for key in read_part("en", part):
            assert key not in seen, f"{key} in {seen.get(key)} and {part}"
            seen[key] = part


def test_every_form_for_you_has_its_sentence_and_its_parameters() -> None:
    """`log.revolt.you_d` says `log.revolt` to its defender: it stands beside a text for
    everyone, and takes its parameters but the seat it names "you" (and `piece`, a
    leader's bare name where the sentence for everyone has `leader` in another form)."""
    for lang in LANGS:
        words = book(lang).texts
        forms = [
            k
            for k in read_part(lang, "terminal")
            if re.search(r"\.you(_[a-z]+)?$", k) and not k.startswith("term.")
        ]
        assert len(forms) > 50
        for key in forms:
            base, _, form = key.rpartition(".")
            assert base in words, key
            seat = "who" if form == "you" else form.removeprefix("you_")
            expected = _names(words[base]) - {seat}
            assert _names(words[key]) - {"piece"} <= expected, key


def test_forms_are_chosen_before_parameters_are_filled_in() -> None:
    text = "{who} swaps {n} {n|tile|tiles}"
    assert format(text, {"who": "Ann", "n": 1}) == "Ann swaps 1 tile"
    assert format(text, {"who": "Ann", "n": 3}) == "Ann swaps 3 tiles"
    assert format(text, {"who": "Ann", "n": 0}) == "Ann swaps 0 tiles"
    assert format(text, {"who": "Ann", "n": "1"}) == "Ann swaps 1 tile"
    # A name is never read as a form or a parameter; what is not given stays as written.
    assert format(text, {"who": "{n|x|y} {n}", "n": 2}) == "{n|x|y} {n} swaps 2 tiles"
    assert format(text, {}) == text
    assert format("{n|one|}", {"n": 5}) == ""
    assert book("de").t("no.such.key", n=1) == "no.such.key"


def test_the_whole_book_is_read_in_each_language() -> None:
    assert book("de").t("log.swapped", who="Bob", n=3) == "Bob tauscht 3 Plättchen"
    assert book("en").t("log.swapped.you", n=1) == "you swap 1 tile"
    with pytest.raises(ValueError, match="the languages are en, de"):
        book("fr")


@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de"}, "de"),
        ({"LANG": "en_GB.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "de_AT.UTF-8", "LC_ALL": "C"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "de_CH.UTF-8"}, "de"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "de_DE.UTF-8"}, "de"),
        ({"LANG": "de_DE.UTF-8", "LC_ALL": ""}, "de"),
    ],
)
def test_the_locale_chooses_the_language(env: dict[str, str], lang: str) -> None:
    assert lang_from_env(env) == lang

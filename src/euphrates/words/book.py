"""The book of words: what the game says about events and decisions, in every language
of web/words/languages.json, kept once for the terminal and the browser alike.

The book lives in `euphrates/web/words/<lang>/<part>.json`, where the server already
serves static files (at `/static/words/…`), so that the browser reads the very files
read here. Each part is a flat object of keys and texts:

* `common`: the colours and leaders by name, conflicts, the final scoring, the turn;
* `board` and `cards`: each game's events, decisions and notation words;
* `terminal`: what only the terminal says: second-person forms (`log.tile.you`),
  prompts (`ask.*`), help (`help.*`) and its own lines (`term.*`);
* `hints`: strengths in a pending conflict and in the war order.

The same folder holds the pages' own texts (`pages`, `pages-cards`, `tour`,
`fairplay`), the messages sent out (`mail`) and the rules reference (`rules-<game>`);
the terminal loads the book's parts only. A key stands in one part only, and every
language has the same keys in each part (tests/words).

A text takes parameters as `{name}`, and forms chosen by a count as `{n|one|other}`:
one form per plural category of the language, in CLDR's order (zero, one, two, few,
many, other; English, German, Dutch and Hungarian have `one` and `other`, and Hungarian
writes the same noun in both, since it takes no plural after a numeral). The category
is CLDR's, from Babel here and from `Intl.PluralRules` in the browser: no language's
rule is written by hand. The forms are chosen first, then the parameters filled in, so
nothing a parameter holds (a player's name) is read as a form. `format` below is this
syntax for Python; `format` in `web/js/shared/i18n.js` is the same for the browser, and
tests/web/test_book.py renders every key in both and compares.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale


def _languages() -> dict[str, str]:
    """Each language's name in itself, from the one list the browser reads too."""
    raw = resources.files("euphrates").joinpath("web", "words", "languages.json")
    return dict(json.loads(raw.read_text(encoding="utf-8")))


LANGUAGES = _languages()
LANGS = tuple(LANGUAGES)
PARTS = ("common", "board", "cards", "terminal", "hints")
# the other flat parts of a language's folder (the pages' texts and the messages'), and
# its rules reference, which is a document rather than a table of texts
PAGE_PARTS = ("pages", "pages-cards", "tour", "fairplay", "mail", "friends", "tournaments")
RULES_PARTS = ("rules-board", "rules-cards")

_FORM = re.compile(r"\{([A-Za-z0-9_]+)((?:\|[^|{}]*)+)\}")
_PARAM = re.compile(r"\{([A-Za-z0-9_]+)\}")
_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")
_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


def _number(value: Any) -> float | None:
    """A count as the browser's `Number(value)` reads it (None where that is NaN)."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str):
        if not value.strip():
            return 0.0
        return float(value) if _NUMBER.fullmatch(value) else None
    return None


@cache
def _plural(lang: str) -> tuple[Any, tuple[str, ...]]:
    """A language's plural rule and its categories in CLDR's order (Babel's data)."""
    rule = Locale.parse(lang).plural_form
    tags = set(rule.tags) | {"other"}
    return rule, tuple(c for c in _CATEGORIES if c in tags)


def form_index(count: Any, lang: str) -> int:
    """Which of a text's forms a count takes in `lang` (the browser's `formIndex`)."""
    rule, order = _plural(lang)
    n = _number(count)
    if n is None or not math.isfinite(n):
        return order.index("other")
    return order.index(rule(int(n) if n.is_integer() else n))


def shown(value: Any) -> str:
    """A parameter as the browser's `String(value)` shows it (for the values words take:
    texts, whole numbers, and the rare float or boolean)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if value is None:
        return "null"
    return str(value)


def format(text: str, params: Mapping[str, Any], lang: str = "en") -> str:
    """`text` with its forms chosen (by `lang`'s plural rule) and its parameters filled
    in; a parameter not given is left as written."""

    def form(m: re.Match[str]) -> str:
        if m[1] not in params:
            return m[0]
        forms = m[2][1:].split("|")
        return forms[min(form_index(params[m[1]], lang), len(forms) - 1)]

    text = _FORM.sub(form, text)
    return _PARAM.sub(lambda m: shown(params[m[1]]) if m[1] in params else m[0], text)


class Book:
    """One language's words: `t(key, **params)`; an unknown key reads as itself, as in
    the browser."""

    def __init__(self, lang: str, texts: Mapping[str, str]) -> None:
        self.lang = lang
        self.texts = dict(texts)

    def __contains__(self, key: str) -> bool:
        return key in self.texts

    def t(self, key: str, **params: Any) -> str:
        return format(self.texts.get(key, key), params, self.lang)


class BookError(Exception):
    """A part of the book is missing or not a flat object of texts."""


def read_part(lang: str, part: str) -> dict[str, str]:
    """One part of the book as it is served, checked: every value a text."""
    name = f"words/{lang}/{part}.json"
    try:
        raw = resources.files("euphrates").joinpath("web", "words", lang, f"{part}.json")
        doc = json.loads(raw.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise BookError(f"{name}: {e}") from None
    if not isinstance(doc, dict):
        raise BookError(f"{name}: not an object of texts")
    for key, value in doc.items():
        if not isinstance(value, str):
            raise BookError(f"{name}: {key!r} is not a text")
    return doc


@cache
def book(lang: str = "en") -> Book:
    """The whole book in `lang` (ValueError for a language it does not have)."""
    if lang not in LANGS:
        raise ValueError(f"no words in {lang!r}: the languages are {', '.join(LANGS)}")
    texts: dict[str, str] = {}
    for part in PARTS:
        texts.update(read_part(lang, part))
    return Book(lang, texts)


def lang_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: the first of `LC_ALL`, `LC_MESSAGES` and
    `LANG` that is set, where the book has its language (`nl_BE.UTF-8`: Dutch), else
    English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            base = re.split(r"[_.@-]", value.lower(), maxsplit=1)[0]
            return base if base in LANGS else "en"
    return "en"

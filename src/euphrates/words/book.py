"""The book of words: what the game says about events and decisions, in English and
German, kept once for the terminal and the browser alike.

The book lives in `euphrates/web/words/<lang>/<part>.json`, where the server already
serves static files (at `/static/words/…`), so that the browser reads the very files
read here. Each part is a flat object of keys and texts:

* `common`: the colours and leaders by name, conflicts, the final scoring, the turn;
* `board` and `cards`: each game's events, decisions and notation words;
* `terminal`: what only the terminal says: second-person forms (`log.tile.you`),
  prompts (`ask.*`), help (`help.*`) and its own lines (`term.*`);
* `hints`: strengths in a pending conflict and in the war order.

A table page loads `common` and its game's part in its language only (`hints` once a
conflict is first shown, with the code that says them); the terminal
loads the whole book. A key stands in one part only, and both languages have the same
keys in each part (tests/words).

A text takes parameters as `{name}`, and forms chosen by a count as `{n|one|other}`:
`one` where the parameter `n` is the number 1, else `other` (English and German both
make every other count plural). The forms are chosen first, then the parameters filled
in, so nothing a parameter holds (a player's name) is read as a form. `format` below is
this syntax for Python; `format` in `web/js/shared/i18n.js` is the same for the browser,
and tests/web/test_book.py renders every key in both and compares.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

LANGS = ("en", "de")
PARTS = ("common", "board", "cards", "terminal", "hints")

_FORM = re.compile(r"\{([A-Za-z0-9_]+)\|([^|{}]*)\|([^|{}]*)\}")
_PARAM = re.compile(r"\{([A-Za-z0-9_]+)\}")
_NUMBER = re.compile(r"\s*[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?\s*")


def _is_one(value: Any) -> bool:
    """Whether a count is 1 as the browser's `Number(value) === 1` reads it."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return value == 1
    if isinstance(value, str):
        return _NUMBER.fullmatch(value) is not None and float(value) == 1
    return False


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


def format(text: str, params: Mapping[str, Any]) -> str:
    """`text` with its forms chosen and its parameters filled in; a parameter not given
    is left as written."""
    text = _FORM.sub(
        lambda m: (m[2] if _is_one(params[m[1]]) else m[3]) if m[1] in params else m[0], text
    )
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
        return format(self.texts.get(key, key), params)


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
    """The language the locale asks for: German where the first of `LC_ALL`,
    `LC_MESSAGES` and `LANG` that is set starts with `de`, else English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return "de" if value.lower().startswith("de") else "en"
    return "en"

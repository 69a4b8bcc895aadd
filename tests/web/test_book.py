"""One book of words for the terminal and the browser (euphrates.words, web/words/): the
browser's renderer and Python's read every text alike, and the browser's log says of
every kind of event what Python says, in both languages, for every seat and a
spectator, so that neither can drift from the other."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from typing import Any

from euphrates.core.rng import Rng
from euphrates.match.games import game_definition
from euphrates.words import KINDS, LANGS, Voice, book, format, tell
from euphrates.words.book import PAGE_PARTS, PARTS, read_part
from tests.web.conftest import Pages, Server
from tests.web.helpers import text_keys

# Parameters of every kind a text takes: counts one, other and none, a count as text,
# and a name holding what looks like a form and a parameter (never read as either).
SAMPLES: list[Any] = [1, 2, 0, 21, 1.5, "1", "Zoë {n|one|other} {who}", None]

RENDER = """async ([langs, parts, samples]) => {
  const { format } = await import('/static/js/shared/i18n.js');
  const names = (text) => [...text.matchAll(/\\{(\\w+)(?:(?:\\|[^|{}]*)+)?\\}/g)].map((m) => m[1]);
  const out = {};
  for (const lang of langs) {
    for (const part of parts) {
      const texts = await (await fetch(`/static/words/${lang}/${part}.json`)).json();
      for (const [key, text] of Object.entries(texts)) {
        out[`${lang}/${key}`] = samples.map((value) =>
          format(text, value === null ? {} : Object.fromEntries(names(text).map((n) => [n, value])), lang));
      }
    }
  }
  return out;
}"""


PLACEHOLDER = re.compile(r"\{(\w+)(?:(?:\|[^|{}]*)+)?\}")  # as `names` above


def _params(text: str, value: Any) -> dict[str, Any]:
    """Every parameter of the text given `value` (none for None), as RENDER does."""
    return {} if value is None else {name: value for name in PLACEHOLDER.findall(text)}


def test_every_text_reads_alike_in_python_and_in_the_browser(server: Server, pages: Pages) -> None:
    page: Any = pages.open(server.base + "/")
    page.wait_for_selector(".lang button")
    browser = page.evaluate(RENDER, [list(LANGS), list(PARTS + PAGE_PARTS), SAMPLES])
    python = {
        f"{lang}/{key}": [format(text, _params(text, value), lang) for value in SAMPLES]
        for lang in LANGS
        for part in PARTS + PAGE_PARTS
        for key, text in read_part(lang, part).items()
    }
    assert len(python) > 500
    assert browser == python
    assert python["en/log.swapped"][:2] == ["1 swaps 1 tile", "2 swaps 2 tiles"]
    assert (
        python["de/log.swapped"][6]
        == "Zoë {n|one|other} {who} tauscht Zoë {n|one|other} {who} Plättchen"
    )


def test_no_page_text_hides_a_word_of_the_book() -> None:
    pages = text_keys("pages") | text_keys("pages-cards")
    words = set(book("en").texts)
    assert pages & words == set()


def _steps(game: str) -> Iterator[tuple[int, int | None, list[Mapping[str, Any]]]]:
    """(players, seat, events) of the steps of random games that bring some kind of
    event seen fewer than three times so far, until every kind was seen three times."""
    definition = game_definition(game)
    seen = dict.fromkeys(KINDS[game], 0)
    for g in range(200):
        players = 2 + g % 3
        state = definition.new_game(players, 2000 + g, None)
        rng = Rng(g)
        while not state.is_over():
            seat = state.to_move()
            events = [e.to_json() for e in state.apply(state.random_action(rng))]
            if any(seen[e["kind"]] < 3 for e in events):
                for e in events:
                    seen[e["kind"]] += 1
                yield players, seat, events
        if min(seen.values()) >= 3:
            return
    raise AssertionError(f"never produced: {[k for k, n in seen.items() if n < 3]}")


NAMES_SHOWN = ["Ann", "Bob", "Cleo", "Dan"]

LOG = """async ([game, lang, steps]) => {
  const i18n = await import('/static/js/shared/i18n.js');
  const { stepEntry } = await import(`/static/js/${game}/words.js`);
  if (i18n.currentLang() !== lang) {
    document.querySelector(`.lang button[lang=${lang}]`).click();
    while (i18n.currentLang() !== lang) await new Promise((r) => setTimeout(r, 10));
  }
  const own = (el) => [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
  return steps.map(([seat, perspective, events], i) => {
    const names = { name: (s) => ['Ann', 'Bob', 'Cleo', 'Dan'][s], perspective };
    const [entry, mark] = stepEntry({ version: i + 1, kind: 'action', seat, events }, names, false);
    return [
      [...entry.querySelectorAll('.words > .line:not(.declined)')].map((l) => l.textContent),
      [...entry.querySelectorAll('.scores > .score')].map(own),
      mark ? mark.textContent : null,
    ];
  });
}"""


def test_the_log_says_what_the_terminal_says(server: Server, pages: Pages) -> None:
    page: Any = pages.open(server.base + "/")
    page.wait_for_selector(".lang button")
    for game in ("board", "cards"):
        steps = [
            (seat, perspective, events)
            for players, seat, events in _steps(game)
            for perspective in [None, *range(players)]
        ]
        assert len(steps) > 50
        for lang in LANGS:
            told = []
            for _, perspective, events in steps:
                voice = Voice(book(lang), perspective, NAMES_SHOWN, address=False)
                t = tell(game, events, voice)
                told.append([t.lines, t.scores, t.turn])
            shown = page.evaluate(LOG, [game, lang, json.loads(json.dumps(steps))])
            for step, python, browser in zip(steps, told, shown, strict=True):
                assert browser == python, step

"""Counted words in English and German: one tile, two tiles; one settlement leaves the
board, two leave it. The page's own modules write the log lines and the counts, in
Chromium, from events such as the server sends."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages, Server
from tests.web.helpers import choose_lang

LINES = """async () => {
  const { stepEntry } = await import('/static/js/board/words.js');
  const { t } = await import('/static/js/shared/i18n.js');
  const names = { name: (s) => ['Ann', 'Bob'][s], perspective: 0 };
  const line = (e) => stepEntry({ version: 1, kind: 'action', seat: 0, events: [e] }, names, false)[0]
    .querySelector('.words').textContent;
  return [
    line({ kind: 'tiles_removed', colour: 'black', squares: ['A1'] }),
    line({ kind: 'tiles_removed', colour: 'black', squares: ['A1', 'A2'] }),
    line({ kind: 'swapped', seat: 1, count: 1 }),
    line({ kind: 'swapped', seat: 1, count: 3 }),
    line({ kind: 'treasures_low', left: 1 }),
    line({ kind: 'treasures_low', left: 2 }),
    line({ kind: 'drew_tiles', seat: 0, audience: 0, tiles: ['red', 'red', 'blue'] }),
    t('table.tiles_n', { n: 1 }),
    t('table.bag_n', { n: 1 }),
  ];
}"""

ENGLISH = [
    "1 settlement leaves the board",
    "2 settlements leave the board",
    "Bob swaps 1 tile",
    "Bob swaps 3 tiles",
    "Only 1 treasure left: the game ends",
    "Only 2 treasures left: the game ends",
    "Ann draws 2 temples, 1 farm",
    "1 tile",
    "1 tile in the bag",
]

GERMAN = [
    "1 Plättchen (Bevölkerung) verlässt den Spielplan",
    "2 Plättchen (Bevölkerung) verlassen den Spielplan",
    "Bob tauscht 1 Plättchen",
    "Bob tauscht 3 Plättchen",
    "Nur noch 1 Schatz: das Spiel endet",
    "Nur noch 2 Schätze: das Spiel endet",
    "Ann zieht 2 Tempel, 1 Landwirtschaft",
    "1 Plättchen",
    "1 Plättchen im Beutel",
]


def test_counted_words_in_both_languages(server: Server, pages: Pages) -> None:
    page: Any = pages.open(server.base + "/")
    page.wait_for_selector(".lang button[lang=de]")
    assert page.evaluate(LINES) == ENGLISH
    choose_lang(page, "de")
    assert page.evaluate(LINES) == GERMAN

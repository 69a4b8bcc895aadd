"""Small things the tables say, in both languages, from the pages' own modules: a hint
to fight a war first is said in words, not as "war r"; a leader's line under the
hovered square names its owner without nesting brackets in a bot's name; while wars
are fought, each side's strength is its own part of the joined kingdom, as the war
counts it (B-24), not the whole kingdom's count for both."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import Pages, Server
from tests.web.helpers import choose_lang
from tests.web.rules_claims import table

WORDS = """async () => {
  const board = await import('/static/js/board/words.js');
  const cards = await import('/static/js/cards/words.js');
  const { t } = await import('/static/js/shared/i18n.js');
  return [
    t('table.hint_move', { move: board.actionWords('war r', 'Ann') }),
    board.actionWords('war k', 'Ann'),
    t('table.hint_move', { move: cards.actionWords('war g', 'Ann') }),
    cards.actionWords('war b', 'Ann'),
  ];
}"""

EXPECTED = {
    "en": [
        "Hint: the war between the priests first",
        "the war between the kings first",
        "Hint: the war of the traders first",
        "the war of the farmers first",
    ],
    "de": [
        "Tipp: zuerst den Krieg zwischen den Priestern",
        "zuerst den Krieg zwischen den Königen",
        "Tipp: zuerst den Krieg der Händler",
        "zuerst den Krieg der Bauern",
    ],
}

# The hover line of each king in the war figure of the rules reference, whose position
# the engine plays (tests/web/test_rules_claims.py, claim war_strengths: 3 against 2).
HOVER = """async (fig) => {
  const { readBoard, regionAt, strengths } = await import('/static/js/board/kingdoms.js');
  const { squareInfo } = await import('/static/js/board/info.js');
  await import('/static/js/board/words.js'); // the book's words of a board table
  const view = { board: { monuments: [], catastrophes: [], treasures: [], ...fig.board },
                 seats: fig.leaders.map((leaders) => ({ leaders })) };
  const board = readBoard(view);
  const region = regionAt(board, 'D5');
  const names = ['Ann', 'Bull (bot, guide)'];
  const info = squareInfo('D5', region, (s) => names[s], (reg, l) => strengths(board, reg, l));
  return [...info.querySelectorAll('.strengths li')].map((li) => li.textContent);
}"""


def test_a_war_hint_is_said_in_words(server: Server, pages: Pages) -> None:
    page: Any = pages.open(server.base + "/")
    page.wait_for_selector(".lang button[lang=de]")
    for lang in ("en", "de"):
        choose_lang(page, lang)
        assert page.evaluate(WORDS) == EXPECTED[lang]


def test_the_hover_line_counts_each_side_of_a_war(server: Server, pages: Pages) -> None:
    war = table("board")["figures"]["war"]
    assert war["board"]["unification"] == "D5"
    page: Any = pages.open(server.base + "/")
    page.wait_for_selector(".lang button[lang=de]")
    assert page.evaluate(HOVER, war) == [
        "Ann: king · war 3 · revolt 1",
        "Bull (bot, guide): king · war 2 · revolt 1",
    ]
    choose_lang(page, "de")
    assert page.evaluate(HOVER, war) == [
        "Ann: König · Krieg 3 · Revolte 1",
        "Bull (bot, guide): König · Krieg 2 · Revolte 1",
    ]

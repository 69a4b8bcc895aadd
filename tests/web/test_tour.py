"""The guided first game, played through in the browser from the lobby's "Learn to
play" to the final scoring in each game: the callout points at the real table, the
learner makes each lesson's move on it (a wrong move is refused gently), the ordinary
moves are played for them, and Skip leaves the tour. In German each game's tour is
followed through its first lesson; the rest of its texts are held to the English ones
(the same keys, checked by tsc, and the same places for the moves' words, here)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from euphrates.games import game_definition
from euphrates.match.tours import LEARNER, load_line
from euphrates.server.features.tour.tour import steps_of
from euphrates.words.book import LANGS, read_part
from tests.web.conftest import SCREENSHOTS, Pages, Server, shot
from tests.web.helpers import (
    assert_german,
    choose_lang,
    english_words,
    place_leader,
    place_tile,
    version,
)
from tests.web.screens import SCREENS, Screen, open_on

LESSONS = {"tile", "leader", "revolt", "war", "monument", "treasure"}
TITLE = {"en": "Guided first game", "de": "Geführtes erstes Spiel"}
REFUSED = {
    "en": "Not this move: the guided game waits for this one.",
    "de": "Nicht dieser Zug: Die Einführung wartet auf diesen.",
}
COLOUR = {"r": "red", "b": "blue", "g": "green", "k": "black"}
LEADER = {"P": "priest", "F": "farmer", "T": "trader", "K": "king"}

STATE = """() => {
  const box = document.querySelector('.tour');
  return box ? [box.dataset.step, box.dataset.action ?? '', box.dataset.version ?? ''].join('|') : 'none';
}"""


def start_tour(pages: Pages, server: Server, game: str, lang: str, **screen: Any) -> Any:
    page = pages.open(server.base + "/", **screen)
    if lang == "de":
        choose_lang(page, "de")
    page.click(f".learn-game[data-game={game}]")
    page.wait_for_selector(".tour[data-step='intro.1']")
    return page


def moved_on(page: Any, before: str) -> str:
    # A full suite on two cores has kept a step from moving on for 30 s: the wait is
    # for the page's own signal, so a longer one costs nothing when it comes sooner.
    try:
        page.wait_for_function(f"() => ({STATE})() !== {before!r}", timeout=60000)
    except Exception as e:  # say where the tour stood, not only that it stood still
        seen = page.evaluate(
            "() => [...document.querySelectorAll('.tour, .notice, #status')]"
            ".map(x => x.className + ': ' + x.innerText.slice(0, 300))"
        )
        raise AssertionError(f"the tour stayed at {before!r}; on the page: {seen}") from e
    state: str = page.evaluate(STATE)
    return state


def lit_target(page: Any) -> None:
    """The ring is drawn around the element the callout points at."""
    page.wait_for_function(
        "() => { const r = document.querySelector('.tour-ring'); return r && !r.hidden "
        "&& r.getBoundingClientRect().width > 0; }"
    )


def make_the_move(
    page: Any, game: str, lang: str, step: str, action: str, *, refuse_first: bool
) -> None:
    """The lesson's move, on the lit place; with `refuse_first`, a move the tour does not
    expect before it: refused, nothing changes."""
    lit_target(page)
    if refuse_first:
        before = version(page)
        page.fill("#notation", "pass")
        page.press("#notation", "Enter")
        notice = page.wait_for_selector(f".notice:has-text('{REFUSED[lang]}')")
        assert notice is not None
        # the refusal names the move expected: the step's own instruction
        assert notice.inner_text().strip() == f"{REFUSED[lang]} {page.inner_text('.tour-text')}"
        assert version(page) == before
    if game == "board" and step in ("tile", "leader"):  # by clicks, as people do
        piece = action[0]
        if step == "tile":
            place_tile(page, COLOUR[piece], action[1:])
        else:
            place_leader(page, LEADER[piece], action[1:])
    else:
        page.fill("#notation", action)
        page.press("#notation", "Enter")


def follow(page: Any, game: str, lang: str) -> Iterator[str]:
    """Each step of the tour as it shows (a step again when only its version moved), then
    on to the next once the caller asks for it: the primary button on an introduction or
    a lesson's end, else the step's move if it has one (the first one after a refused
    move), else the tour's own move. The caller stops by leaving its loop."""
    state: str = page.evaluate(STATE)
    refused = False
    while True:
        step, action, _ = state.split("|")
        yield step
        if step.startswith("intro") or step.endswith(".done"):
            page.click(".tour-buttons .primary")
        elif action:
            make_the_move(page, game, lang, step, action, refuse_first=not refused)
            refused = True
        state = moved_on(page, state)


def conflict_outcomes(game: str) -> dict[str, str]:
    """What each conflict lesson's closing note must say of its result, worked out on
    the engine from the tour's line: the first revolt or war of the learner at or after
    the lesson's move, won or lost and by how much."""
    line = load_line(game)
    state = game_definition(game).new_game(line.players, line.seed, line.options)
    starts = {key.split(".")[0]: v for v, key in sorted(line.lessons.items(), reverse=True)}
    said: dict[str, str] = {}
    for at, text in enumerate(line.actions):
        for e in state.apply(text):
            d = e.data
            if e.kind == "conflict_resolved":
                lesson, (a, t) = d["conflict"], (d["attacker_total"], d["defender_total"])
            elif e.kind in ("revolt_result", "war_result"):
                lesson, (a, t) = e.kind.split("_")[0], d["strength"]
            else:
                continue
            if lesson in said or at < starts.get(lesson, len(line.actions)):
                continue
            if LEARNER not in (d["winner"], d["loser"]):
                continue
            attacking = (d["winner"] == LEARNER) == (a > t)
            mine, theirs = (a, t) if attacking else (t, a)
            if d["winner"] == LEARNER:
                said[lesson] = f"You won it, {mine} against {theirs}."
            else:
                said[lesson] = f"You lost it, {mine} against {theirs}:"
    return said


def final_words(game: str) -> str:
    """The end note's sentence on the final scoring, from the engine's outcome of the
    whole line: the weakest colours (treasures added) and who won."""
    line = load_line(game)
    state = game_definition(game).new_game(line.players, line.seed, line.options)
    for text in line.actions:
        state.apply(text)
    out = state.view(LEARNER)["outcome"]
    mine, theirs = (min(out["totals"][s]) for s in (0, 1))
    if LEARNER in out["winners"]:
        return f"You won: your weakest colour counts {mine}, the guide's {theirs}."
    if mine == theirs:
        return f"The guide won: both weakest colours count {mine}"
    return f"The guide won: its weakest colour counts {theirs}, yours {mine}."


def tile_scored(game: str) -> bool:
    """Whether the tile lesson's move scored the learner a point, on the engine."""
    line = load_line(game)
    state = game_definition(game).new_game(line.players, line.seed, line.options)
    at = dict((key, v) for v, key in reversed(steps_of(game)))["tile"]
    for text in line.actions[:at]:
        state.apply(text)
    events = state.apply(line.actions[at])
    return any(e.kind == "scored" and e.data["seat"] == LEARNER for e in events)


@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_guided_game_is_played_through(server: Server, pages: Pages, game: str) -> None:
    """The whole guided game on a laptop's screen (1280×800), where the callout must
    also leave every place it asks for uncovered (the touch screens have a test of
    their own for that, below)."""
    lang = "en"
    page = start_tour(pages, server, game, lang, **CALLOUT_SCREENS["1280x800"])
    assert page.text_content(".tour-title") == TITLE[lang]
    lit_target(page)
    # Back and Next through the introduction
    page.click(".tour-next")
    page.wait_for_selector(".tour[data-step='intro.2']")
    page.click(".tour-back")
    page.wait_for_selector(".tour[data-step='intro.1']")
    seen: list[str] = []
    outcomes = conflict_outcomes(game)
    assert {"revolt", "war"} <= set(outcomes), outcomes
    checked: set[str] = set()
    covered: list[str] = []
    for step in follow(page, game, lang):
        if covers(page, f"{game}-1280x800-{step}"):
            covered.append(step)
        if not seen or seen[-1] != step:
            seen.append(step)
            # places are named as the table shows them ("the head of column 1"), never
            # by notation ("1.0"); the notation line under the text is the only one
            said = page.text_content(".tour-text") or ""
            assert not re.search(r"\b\d\.\d\b", said), (step, said)
            if step == "tile.done" and game == "board":
                # praised as scoring only where the engine scored the tile
                scored = tile_scored(game)
                assert ("it scored nothing" not in said) == scored, (scored, said)
                checked.add("tile")
            lesson = step.removesuffix(".done")
            if step.endswith(".done") and lesson in outcomes:
                # a conflict's note says how it ended, as the engine decided it
                assert outcomes[lesson] in said, (step, said)
                checked.add(lesson)
        if step == "end":
            # the scoring the learner is left with, in words, as the engine scored it
            assert final_words(game) in (page.text_content(".tour-text") or "")
            break
    assert not covered, covered
    assert checked == ({"revolt", "war", "tile"} if game == "board" else {"revolt", "war"})
    lessons = {s for s in seen if "." not in s and s not in ("auto", "end")}
    assert lessons == LESSONS, seen
    assert {f"{k}.done" for k in LESSONS} <= set(seen)
    assert any(s.endswith(".commit") for s in seen)
    # the final scoring is there, and the callout points at it
    page.wait_for_selector(".panel.scoring")
    lit_target(page)
    page.screenshot(path=str(SCREENSHOTS / f"tour-{game}-{lang}-end.png"))
    page.click(".tour-finish")
    page.wait_for_selector(".tour", state="detached")
    assert page.locator(".panel.scoring").is_visible()


def test_a_new_decision_comes_into_view_on_a_phone(server: Server, pages: Pages) -> None:
    """On a phone scrolled down to the log, the move that starts the revolt brings the
    learner's commitment panel into view."""
    page = start_tour(pages, server, "board", "en", width=390, height=844, touch=True)
    for step in follow(page, "board", "en"):
        if step == "revolt":
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
            panel = page.locator(".panel.decision.mine")
            assert panel.count() == 0
        if step == "revolt.commit":
            # the tour's callout may show the step before the table draws its panel:
            # wait for the panel to be drawn and in view (it never is without scrolling)
            page.wait_for_function(
                "() => { const p = document.querySelector('.panel.decision.mine');"
                " if (!p) return false; const r = p.getBoundingClientRect();"
                " return r.top >= -1 && r.top < innerHeight - 40; }",
                timeout=10000,
            )
            break


CALLOUT_SCREENS = {
    "1280x800": {"width": 1280, "height": 800},
    "1024x768-touch": {"width": 1024, "height": 768, "touch": True},
    "390x844-touch": {"width": 390, "height": 844, "touch": True},
}
"""The guided game played through is on the first; the callout test plays it on the
touch screens."""


def covers(page: Any, where: str) -> bool:
    """Whether, at a step that waits for a move, the callout covers the lit place (then a
    screenshot is named after `where`); False at other steps."""
    if not page.get_attribute(".tour", "data-action"):
        return False
    lit_target(page)
    # the callout is placed two frames after the table draws
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    if overlap(page) > 0:
        shot(page, f"tour-covers-{where}")
        return True
    return False


def overlap(page: Any) -> float:
    """How much of the lit place (the ring, less its margin) the callout covers, in px²."""
    found: float = page.evaluate(
        """() => {
          const ring = document.querySelector('.tour-ring');
          const box = document.querySelector('.tour');
          if (!ring || ring.hidden || !box) return 0;
          const a = ring.getBoundingClientRect(), b = box.getBoundingClientRect();
          const w = Math.min(a.right - 4, b.right) - Math.max(a.left + 4, b.left);
          const h = Math.min(a.bottom - 4, b.bottom) - Math.max(a.top + 4, b.top);
          return w > 0 && h > 0 ? w * h : 0;
        }"""
    )
    return found


@pytest.mark.parametrize("game", ["board", "cards"])
@pytest.mark.parametrize("size", [s for s in CALLOUT_SCREENS if "touch" in s])
def test_the_callout_never_covers_the_place_it_asks_for(
    server: Server, pages: Pages, game: str, size: str
) -> None:
    page = start_tour(pages, server, game, "en", **CALLOUT_SCREENS[size])
    covered: list[str] = []
    for step in follow(page, game, "en"):
        if covers(page, f"{game}-{size}-{step}"):
            covered.append(step)
        if step == "end":
            break
    assert not covered, covered


def test_skip_leaves_the_tour(server: Server, pages: Pages) -> None:
    page = start_tour(pages, server, "board", "en")
    page.click(".tour-next")
    page.wait_for_selector(".tour[data-step='intro.2']")
    page.click(".tour-skip")
    page.wait_for_url(server.base + "/")
    page.wait_for_selector(".learn-game")
    assert page.locator(".tour").count() == 0


@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_german_tour_through_its_first_lesson(server: Server, pages: Pages, game: str) -> None:
    page = start_tour(pages, server, game, "de")
    assert page.text_content(".tour-title") == TITLE["de"]
    english = english_words(page, cards=game == "cards")
    lit_target(page)
    seen: list[str] = []
    for step in follow(page, game, "de"):
        seen.append(step)
        assert_german(page, f"tour step {step}", english)
        if step.endswith(".done"):
            break
    assert any(not s.startswith("intro") for s in seen), seen
    page.click(".tour-skip")
    page.wait_for_url(server.base + "/")
    page.wait_for_selector(".learn-game")


def test_the_tour_words_fill_the_same_places_in_every_language() -> None:
    """Each language's text names the move's square, spot, piece and count where the
    English one does: a missing `{square}` would leave the learner without the place to
    play."""
    en = read_part("en", "tour")
    assert len(en) > 50
    for lang in LANGS[1:]:
        other = read_part(lang, "tour")
        assert en.keys() == other.keys(), lang
        for key, words in en.items():
            places = set(re.findall(r"\{(\w+)\}", words))
            assert places == set(re.findall(r"\{(\w+)\}", other[key])), (lang, key)
            assert words != other[key], f"{lang}: {key} is not translated"


@pytest.mark.parametrize("screen", SCREENS, ids=[s.name for s in SCREENS])
def test_learn_to_play_is_on_the_lobbys_first_screen(
    server: Server, pages: Pages, screen: Screen
) -> None:
    """Both guided games' buttons are in view without scrolling, before the boxes that
    need an account, each saying what its own guide teaches."""
    for lang in ("en", "de"):
        page: Any = open_on(pages, f"{server.base}/?lang={lang}", screen)
        page.wait_for_selector(".learn-game[data-game=cards]")
        for game in ("board", "cards"):
            box = page.locator(f".learn-game[data-game={game}]").bounding_box()
            assert box is not None and box["y"] + box["height"] <= screen.height, (game, box)
        hints = page.locator(".learn-games .hint").all_inner_texts()
        assert len(hints) == 2 and hints[0] != hints[1]
        assert ("Schiff" if lang == "de" else "ship") in hints[1]
        assert ("Monument" if lang == "de" else "monument") in hints[0]
        shot(page, f"lobby-learn-{screen.name}-{lang}")

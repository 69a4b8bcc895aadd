"""Driving the board table like a player: open a seat's link, wait for a version,
pick a tile or a leader, click a square. And what the board's and the card game's
tests check alike: a seat's turn against bots, the end, the scoring rows, the record
and its replay, the first load, the German page, the views a page rebuilds from its
frames."""

from __future__ import annotations

import gzip
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from euphrates.match.records import GameRecord, replay
from euphrates.server.game.patch import apply_patch
from euphrates.words.book import read_part
from tests.server.harness import Client
from tests.web.conftest import Pages, Server, shot

JS = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "web" / "js"

COLOUR_LETTER = {"red": "r", "blue": "b", "green": "g", "black": "k"}


def open_table(
    pages: Pages, server: Server, game: Any, seats: list[int], name: str, ready: str, **kw: Any
) -> Any:
    """A page holding `seats` (several: one screen), once `ready` shows; answers the
    name prompt of seats not yet taken."""
    tokens = ",".join(game["seats"][s]["token"] for s in seats)
    page = pages.open(f"{server.base}/g/{game['id']}#s={tokens}", **kw)
    page.wait_for_selector(f"#your-name, {ready}")
    if page.locator("#your-name").count():
        page.fill("#your-name", name)
        page.click(".ask-name button[type=submit]")
    page.wait_for_selector(ready)
    return page


def open_seat(pages: Pages, server: Server, game: Any, seat: int, name: str, **kw: Any) -> Any:
    return open_table(pages, server, game, [seat], name, "svg.board", **kw)


def version(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.version ?? -1)"))


def wait_version(page: Any, v: int) -> None:
    page.wait_for_function(f"() => Number(document.body.dataset.version) >= {v}", timeout=10000)


def place_tile(page: Any, colour: str, square: str) -> None:
    before = version(page)
    page.click(f".hand-tile[data-colour={colour}] >> nth=0")
    page.click(f"svg.board .hit rect[data-sq={square}]")
    wait_version(page, before + 1)


def place_leader(page: Any, leader: str, square: str) -> None:
    before = version(page)
    page.click(f".hand-leader[data-leader={leader}]")
    page.click(f"svg.board .hit rect[data-sq={square}]")
    wait_version(page, before + 1)


def commit(page: Any, n: int) -> None:
    before = version(page)
    page.click(f".commit-n[data-commit='{n}']")
    page.click("#commit")
    wait_version(page, before + 1)


def lit_squares(page: Any) -> set[str]:
    """The squares the page lights for the picked piece."""
    return set(
        page.evaluate(
            "() => [...document.querySelectorAll('svg.board .marks rect.target')]"
            ".map(r => r.getAttribute('data-sq'))"
        )
    )


def board_in_dom(page: Any) -> dict[str, Any]:
    """What the SVG shows: tiles by colour, leaders by seat, the other pieces."""
    return dict(
        page.evaluate(
            """() => {
            const q = (sel) => [...document.querySelectorAll('svg.board .pieces ' + sel)];
            const tiles = {red: [], blue: [], green: [], black: []};
            for (const g of q('.tile')) tiles[g.dataset.colour].push(g.dataset.sq);
            const leaders = q('.leader').map(g => [Number(g.dataset.seat), g.dataset.colour, g.dataset.sq]);
            return {tiles, leaders,
                    treasures: q('.treasure').map(g => g.dataset.sq),
                    catastrophes: q('.catastrophe').map(g => g.dataset.sq),
                    unification: q('.unification').map(g => g.dataset.sq)[0] ?? null};
        }"""
        )
    )


def board_in_view(view: Any) -> dict[str, Any]:
    colour_of = {"priest": "red", "farmer": "blue", "trader": "green", "king": "black"}
    leaders = [
        [s, colour_of[name], sq]
        for s, seat in enumerate(view["seats"])
        for name, sq in seat["leaders"].items()
        if sq
    ]
    return {
        "tiles": view["board"]["tiles"],
        "leaders": leaders,
        "treasures": view["board"]["treasures"],
        "catastrophes": view["board"]["catastrophes"],
        "unification": view["board"]["unification"],
    }


def same_board(page: Any, view: Any) -> None:
    shown = board_in_dom(page)
    wanted = board_in_view(view)
    for key in ("tiles",):
        assert {c: sorted(v) for c, v in shown[key].items()} == {
            c: sorted(v) for c, v in wanted[key].items()
        }
    assert sorted(map(tuple, shown["leaders"])) == sorted(map(tuple, wanted["leaders"]))
    assert sorted(shown["treasures"]) == sorted(wanted["treasures"])
    assert sorted(shown["catastrophes"]) == sorted(wanted["catastrophes"])
    assert shown["unification"] == wanted["unification"]


def hand_in_dom(page: Any) -> dict[str, int]:
    return dict(
        page.evaluate(
            """() => { const out = {red: 0, blue: 0, green: 0, black: 0};
            for (const b of document.querySelectorAll('.hand-tile')) out[b.dataset.colour] += 1;
            return out; }"""
        )
    )


def frames_json(pages: Pages, page: Any) -> list[dict[str, Any]]:
    return [json.loads(text) for _, text in pages.frames[page]]


# --- a whole game ------------------------------------------------------------------


class Watch:
    """A seat's view as the server's WebSocket tells it (the page's own channel): a test
    that waits for the bots waits on the server's updates, not on a clock. Each wait
    connects afresh (its welcome is the game as it stands) and leaves when done, so no
    connection sits unread while the test drives the page."""

    def __init__(self, server: Server, gid: str, token: str, seat: int = 0) -> None:
        self.base, self.gid, self.token, self.seat = server.base, gid, token, seat

    def _until(self, done: Callable[[Client], bool], why: str, timeout: float) -> Any:
        client = Client(self.base, self.gid, tokens=[self.token], history=False)
        try:
            deadline = time.monotonic() + timeout
            while not done(client):
                left = deadline - time.monotonic()
                assert left > 0, why
                client.recv(left)
            return client.view(self.seat)
        finally:
            client.close()

    def own_decision(self, timeout: float = 30) -> Any:
        """The seat's view once the game waits for it (or is over): the bots move by
        themselves."""

        def own(c: Client) -> bool:
            decision = c.view(self.seat)["decision"]
            return decision is None or decision["seat"] == self.seat

        return self._until(own, "the bots did not move", timeout)

    def game_over(self, timeout: float = 60) -> Any:
        """The seat's view once the game's status is over (it follows the last step);
        the bound is generous, for a loaded machine."""
        return self._until(lambda c: c.status == "over", "the game is not over", timeout)


def scoring_rows(page: Any, outcome: Any, players: int) -> Any:
    """The final scoring's rows: one a player, each with the totals of the outcome."""
    rows = page.locator(".scoring tbody tr")
    assert rows.count() == players
    for i in range(players):
        seat = int(rows.nth(i).get_attribute("data-seat") or -1)
        cells = rows.nth(i).locator("td.num strong").all_inner_texts()
        assert [int(c) for c in cells] == outcome["totals"][seat]
    return rows


def replayed_record(server: Server, gid: str, outcome: Any) -> Any:
    """The game's record, which replays through the engine to the same outcome."""
    record = server.call("GET", f"/api/games/{gid}/record")
    ended = replay(GameRecord.from_json(record)).outcome()
    assert ended is not None and ended.to_json() == outcome
    return record


def status_has(page: Any, text: str) -> None:
    page.wait_for_function(
        f"() => document.querySelector('header .status').textContent.includes({text!r})"
    )


def step_through_replay(page: Any, steps: int) -> None:
    """The replay viewer at its start: the arrow key steps on, End goes to the final
    scoring."""
    assert f"Step 0 of {steps}" in page.locator("header .status").inner_text()
    page.keyboard.press("ArrowRight")
    status_has(page, "Step 1 ")
    page.keyboard.press("End")
    status_has(page, f"Step {steps} ")
    page.wait_for_selector(".scoring")


def downloads_record(page: Any, record: Any) -> None:
    """The replay's download is the game's record."""
    with page.expect_download() as download:
        page.click("text=Download the record")
    path = download.value.path()
    assert json.loads(Path(path).read_text(encoding="utf-8"))["actions"] == record["actions"]


# --- first load --------------------------------------------------------------------


class Load(NamedTuple):
    """What a first load cost: `total` bytes as decoded (files and WebSocket frames),
    `wire` bytes as sent (the files as the server sent them, gzipped where it did; each
    frame gzipped by itself, which the WebSocket's own per-message deflate does at
    least as well), and each file's decoded and sent sizes."""

    total: int
    wire: int
    files: list[tuple[str, int, int]]
    frames: int


def first_load(pages: Pages, url: str, ready: str) -> Load:
    """What a page costs to load until `ready` shows and the network is idle."""
    files: list[tuple[str, int, int]] = []
    ctx = pages.browser.new_context(
        viewport={"width": 1400, "height": 900}, service_workers="block"
    )
    pages.contexts.append(ctx)
    page = ctx.new_page()
    page.on("console", lambda m: pages.errors.append(m.text) if m.type == "error" else None)

    def finished(request: Any) -> None:
        response = request.response()
        if response is None:
            return
        body = len(response.body())
        sent = int(request.sizes()["responseBodySize"])
        files.append((request.url, body, sent))

    page.on("requestfinished", finished)
    frames: list[bytes] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived", lambda f: frames.append(f.encode() if isinstance(f, str) else f)
        ),
    )
    page.goto(url)
    page.wait_for_selector(ready)
    page.wait_for_load_state("networkidle")
    total = sum(n for _, n, _ in files) + sum(len(f) for f in frames)
    wire = sum(n for _, _, n in files) + sum(len(gzip.compress(f)) for f in frames)
    return Load(total, wire, files, len(frames))


def print_load(what: str, load: Load) -> None:
    print(
        f"first load of the {what}: {load.wire / 1024:.1f} KB sent (gzip), "
        f"{load.total / 1024:.1f} KB decoded, in {len(load.files)} files + {load.frames} frames"
    )
    for url, n, sent in sorted(load.files, key=lambda x: -x[2]):
        print(f"  {sent:7d} {n:7d} {url.split('/static/')[-1]}")


# --- the German page ---------------------------------------------------------------

# Every text node and every attribute a person reads or hears, outside elements
# marked as another language (the language switch's "EN").
VISIBLE_WORDS = """() => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const foreign = (el) => { const l = el && el.closest('[lang]'); return l && !l.lang.startsWith('de'); };
  while (walker.nextNode()) {
    const n = walker.currentNode;
    if (!foreign(n.parentElement)) out.push(n.textContent);
  }
  for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (foreign(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) if (el.hasAttribute(a)) out.push(el.getAttribute(a));
  }
  out.push(document.title);
  return out.join(' ');
}"""


def choose_lang(page: Any, lang: str) -> None:
    """Click the language switch and wait until the page speaks `lang`: the book of words
    in that language may have to be loaded first."""
    page.click(f".lang button[lang={lang}]")
    page.wait_for_function(f"() => document.documentElement.lang === {lang!r}")


def english_words(page: Any = None, *, cards: bool = False, lang: str = "de") -> set[str]:
    """Words of the English texts of a table (with `cards`, the card game's; else the
    board game's: its pages' texts, the guided game's and its book of words) that no
    text of `lang` has. (`page` is not needed: the parts are read as they are served.)"""
    parts = ["pages", "tour", "common", "cards" if cards else "board"]
    if cards:
        parts.append("pages-cards")

    def words(language: str) -> set[str]:
        return {
            w.lower()
            for part in parts
            for v in read_part(language, part).values()
            for w in re.findall(r"[^\W\d_]{3,}", re.sub(r"\{\w+\}", " ", v))
        }

    return words("en") - words(lang)


def sign_up(page: Any, name: str, password: str) -> None:
    """Sign up in the lobby and wait until the page says who is signed in.

    The form is filled once the server's offer has drawn the lobby (before that the
    fields were replaced and an empty form went out: 422). The click must send the
    sign-up: a lobby drawn again between its press and its release loses it, and under
    a full run's load that once left a test waiting 30 s for an answer to a request
    never made; such a lost click is made again, once. A refusal fails with the
    server's own words rather than a timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_selector("[data-game=cards]")
    page.wait_for_selector("#account-signup")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    for attempt in (1, 2):
        try:
            with page.expect_request(
                lambda r: r.method == "POST" and r.url.endswith("/api/account/signup"),
                timeout=10_000,
            ) as sent:
                page.click("#account-signup")
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    answer = sent.value.response()
    assert answer is not None and answer.ok, (
        f"sign-up of {name} refused: {answer.status if answer else 'no answer'} "
        f"{answer.text() if answer else ''}"
    )
    page.wait_for_selector(".signed-in")


def assert_german(page: Any, where: str, english: set[str], lang: str = "de") -> None:
    """No English word (of `english`) on a page that speaks `lang` (German unless said)."""
    assert page.evaluate("() => document.documentElement.lang") == lang
    text = page.evaluate(VISIBLE_WORDS)
    found = sorted({w for w in re.findall(r"[^\W\d_]{3,}", text) if w.lower() in english})
    assert not found, f"English on the {lang} {where}: {found}"


def german_end(page: Any, english: set[str], screenshot: str | None = None) -> None:
    """The German final scoring and the replay's last step hold no English; switching
    back to English shows English at once."""
    page.wait_for_selector(".scoring")
    assert "Schlusswertung" in page.locator(".scoring").inner_text()
    assert_german(page, "final scoring", english)
    if screenshot:
        shot(page, screenshot)
    page.click("text=Partie nachspielen")
    page.wait_for_selector("#next")
    page.keyboard.press("End")
    page.wait_for_selector(".scoring")
    assert_german(page, "replay", english)
    choose_lang(page, "en")
    assert "Final scoring" in page.locator(".scoring").inner_text()


def text_keys(part: str, lang: str = "en") -> set[str]:
    """The keys of a part of the texts (web/words/<lang>/<part>.json)."""
    return set(read_part(lang, part))


# --- secrets -----------------------------------------------------------------------


def objects(doc: Any, where: str) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every object in a JSON document (a frame), with the path to it."""
    if isinstance(doc, dict):
        yield where, doc
        for key, value in doc.items():
            yield from objects(value, f"{where}.{key}")
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from objects(value, f"{where}[{i}]")


def covered_after_pass(page: Any, hand: str) -> None:
    """The seat shown passes; the other seat's turn covers the screen, and nothing of a
    hand (`hand`: the class of its pieces) is in the page."""
    v = version(page)
    page.click("#pass")
    wait_version(page, v + 1)
    page.wait_for_selector(".cover")
    assert page.locator(f".{hand}, [data-hand-of]").count() == 0
    html = page.content()
    assert hand not in html and "data-hand-of" not in html


def views_from_frames(frames: list[Any], seat: int) -> Iterator[tuple[int, Any, Any]]:
    """Each frame with the seat's view as the page rebuilds it (whole from a welcome or
    a sync, patched by an update); no frame holds any other view."""
    view = None
    for i, f in enumerate(frames):
        if f["type"] in ("welcome", "sync") and f.get("views"):
            assert set(f["views"]) == {str(seat)}
            view = f["views"][str(seat)]
        elif f["type"] == "update":
            assert set(f["views"]) == {str(seat)}
            part = f["views"][str(seat)]
            view = part["full"] if "full" in part else apply_patch(view, part["patch"])
        yield i, f, view

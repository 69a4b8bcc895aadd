"""The claim tables of the rules reference (web/rules/claims/<game>.json), read and
played through the engines: each figure's position is built from its data, each
claim's actions are played, and what the claim says is checked. A failed check raises
AssertionError naming the claim.

A figure holds a position in the engine's terms: for the board game a window of the
standard board ("A4:E6") with `board` (tiles by colour, monuments, catastrophes,
treasures, unification, as a position's `board`) and `leaders` (per seat, leader name
to square); for the card game `layout` (heads, columns top to bottom, bridges by gap,
the face-down gap) and `leaders` (per seat, leader letter to spot). `before`, where
given, is the position the figure's claims start from ("from": "before").

A claim may say:

* `play`: actions in notation, from the figure (or `before`, or its own `position`),
  with `active` and `hands` (by seat) and, for the board, `extra` pieces away from the
  figure (monuments already built, say);
* `events`: partial events that occur in this order among those the actions produced;
* `scores` (board): every point scored, exactly, as [seat, colour, points, reason];
* `piles`, `heads`, `leaders`, `column` (cards): parts of the position afterwards;
* `decision`: the decision pending afterwards: its seat, kind, some legal actions,
  some actions not legal, parts of its context;
* `illegal`: actions refused afterwards, each with the ruling the refusal cites;
* `shows`: afterwards the position is the one the figure draws;
* `regions` (board), `kingdoms` (cards): how the position falls into kingdoms;
* `new_game`, `bordered`, `bordered_total` (board): what every new game and the map
  hold in the figure's window;
* `totals`, `score`: the final scoring of the `scoring` figure's points (B-32, C-18).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from euphrates.board.game import BOARD
from euphrates.board.geometry import SQUARE_BITS, flood, parse_square, square_name, squares_of
from euphrates.board.maps import STANDARD
from euphrates.board.position import to_position as board_position
from euphrates.board.state import BoardState
from euphrates.cards.layout import kingdoms as card_kingdoms
from euphrates.cards.position import to_position as cards_position
from euphrates.cards.state import CardsState
from euphrates.core.colours import COLOUR_LETTERS, COLOUR_NAMES, LEADER_LETTERS, LEADER_NAMES
from euphrates.core.errors import IllegalActionError
from euphrates.core.scoring import final_outcome
from tests.board.scenario import playing
from tests.cards.helpers import state as cards_state

WEB = Path(__file__).resolve().parents[2] / "src" / "euphrates" / "web"
GAMES = ("board", "cards")
LETTER = dict(zip(COLOUR_NAMES, COLOUR_LETTERS, strict=True))
NAME_OF = dict(zip(COLOUR_LETTERS, COLOUR_NAMES, strict=True))
SQUARE = re.compile(r"\b[A-P](?:1[01]|[1-9])\b")


def table(game: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(
        (WEB / "rules" / "claims" / f"{game}.json").read_text(encoding="utf-8")
    )
    return doc


def start_of(game: str, claim: dict[str, Any]) -> dict[str, Any]:
    """The pieces a claim starts from: its own position, the figure's `before`, or the
    figure itself."""
    if "position" in claim:
        pieces: dict[str, Any] = claim["position"]
        return pieces
    fig = table(game)["figures"][claim["figure"]]
    if claim.get("from") == "before":
        before: dict[str, Any] = fig["before"]
        return before
    whole: dict[str, Any] = fig
    return whole


# --------------------------------------------------------------------------- board
def window(fig: dict[str, Any]) -> set[str]:
    a, b = (parse_square(x) for x in fig["window"].split(":"))
    (x0, y0), (x1, y1) = divmod(a, 16)[::-1], divmod(b, 16)[::-1]
    return {square_name(y * 16 + x) for y in range(y0, y1 + 1) for x in range(x0, x1 + 1)}


def board_state(pieces: dict[str, Any], claim: dict[str, Any]) -> BoardState:
    """A board position with the pieces, three treasures far away (so that a turn can
    end without ending the game, B-19) and the claim's hands and extras."""
    board = pieces.get("board", {})
    extra = claim.get("extra", {})
    assert board.get("unification") is None, "a claim starts between actions"
    tiles = "; ".join(
        f"{LETTER[c]}: {' '.join(sqs)}" for c, sqs in board.get("tiles", {}).items() if sqs
    )
    leaders = "; ".join(
        f"{seat}{LEADER_LETTERS[LEADER_NAMES.index(name)]}: {sq}"
        for seat, placed in enumerate(pieces.get("leaders", []))
        for name, sq in placed.items()
    )
    monuments = [
        (m["monument"], m["square"], m["colour"])
        for m in [*board.get("monuments", []), *extra.get("monuments", [])]
    ]
    return playing(
        players=claim.get("players", 2),
        tiles=tiles,
        leaders=leaders,
        hands={int(s): h for s, h in claim.get("hands", {}).items()},
        treasures=" ".join(board.get("treasures", [])),
        catastrophes=" ".join(board.get("catastrophes", [])),
        monuments=monuments,
        active=claim.get("active", 0),
    )


def board_shown(st: BoardState, fig: dict[str, Any]) -> dict[str, Any]:
    """What the figure's window of a board state holds, in the figure's terms."""
    pos = board_position(st)
    seen = window(fig)
    b = pos["board"]
    tiles = {c: sorted(sq for sq in b["tiles"][c] if sq in seen) for c in COLOUR_NAMES}
    return {
        "tiles": {c: sqs for c, sqs in tiles.items() if sqs},
        "monuments": [m for m in b["monuments"] if m["square"] in seen],
        "catastrophes": sorted(sq for sq in b["catastrophes"] if sq in seen),
        "treasures": sorted(sq for sq in b["treasures"] if sq in seen),
        "unification": b["unification"],
        "leaders": [
            {name: sq for name, sq in seat["leaders"].items() if sq in seen}
            for seat in pos["seats"]
        ],
    }


def board_drawn(fig: dict[str, Any], players: int) -> dict[str, Any]:
    """What the figure draws, in the same terms."""
    b = fig.get("board", {})
    leaders = [*fig.get("leaders", [])]
    leaders += [{}] * (players - len(leaders))
    return {
        "tiles": {c: sorted(sqs) for c, sqs in b.get("tiles", {}).items() if sqs},
        "monuments": b.get("monuments", []),
        "catastrophes": sorted(b.get("catastrophes", [])),
        "treasures": sorted(b.get("treasures", [])),
        "unification": b.get("unification"),
        "leaders": leaders,
    }


def board_regions(st: BoardState) -> list[dict[str, Any]]:
    """Every region of the board: its squares and its leaders ("0P": seat 0's priest)."""
    occupied = st.occupied
    pos = board_position(st)
    at = {
        sq: f"{seat}{LEADER_LETTERS[LEADER_NAMES.index(name)]}"
        for seat, doc in enumerate(pos["seats"])
        for name, sq in doc["leaders"].items()
        if sq
    }
    out: list[dict[str, Any]] = []
    rest = occupied
    while rest:
        region = flood(SQUARE_BITS[(rest & -rest).bit_length() - 1], occupied)
        squares = sorted(square_name(q) for q in squares_of(region))
        out.append({"squares": squares, "leaders": sorted(at[q] for q in squares if q in at)})
        rest &= ~region
    return out


def board_conflict(st: BoardState) -> list[str]:
    d = st.decision()
    assert d is not None and d.kind == "commit", d
    return sorted([d.context["attacker_leader"], d.context["defender_leader"]])


def check_board(name: str, claim: dict[str, Any]) -> None:
    doc = table("board")
    fig = doc["figures"].get(claim.get("figure", ""), {})
    if claim.get("new_game"):
        for seed in (1, 2):
            st = BOARD.new_game(2, seed)
            shown = board_shown(st, fig)
            assert shown == board_drawn(fig, 2), (name, shown)
    if "bordered" in claim:
        seen = window(fig)
        bordered = sorted(square_name(q) for q in squares_of(STANDARD.bordered))
        assert [sq for sq in bordered if sq in seen] == claim["bordered"], name
        assert len(bordered) == claim["bordered_total"], name
    if "score" in claim:
        check_scoring(name, fig, claim)
    if "play" not in claim and "regions" not in claim and "illegal" not in claim:
        return
    st = board_state(start_of("board", claim), claim)
    events: list[Any] = []
    for action in claim.get("play", []):
        events.extend(st.apply(action))
    check_events(name, events, claim.get("events", []))
    if "scores" in claim:
        got = [
            [e.data["seat"], e.data["colour"], e.data["points"], e.data["reason"]]
            for e in events
            if e.kind == "scored"
        ]
        assert got == claim["scores"], (name, got)
    if "regions" in claim:
        regions = board_regions(st)
        for want in claim["regions"]:
            assert want in regions, (name, want, regions)
    check_decision(name, st, claim)
    if claim.get("shows"):
        assert board_shown(st, fig) == board_drawn(fig, len(board_position(st)["seats"])), name


# --------------------------------------------------------------------------- cards
def cards_columns(layout: dict[str, Any]) -> list[str]:
    return ["".join(c if len(c) == 1 else f"[{c}]" for c in col) for col in layout["columns"]]


def cards_state_of(pieces: dict[str, Any], claim: dict[str, Any]) -> CardsState:
    lay = pieces.get("layout", {})
    players = claim.get("players", 3)
    bridges = [*lay.get("bridges", [])]
    hands = [claim.get("hands", {}).get(str(s), "") for s in range(players)]
    return cards_state(
        players=players,
        columns=cards_columns(lay),
        heads=lay.get("heads", "tttttttt"),
        bridges=bridges + [None] * (7 - len(bridges)),
        face_down=lay.get("face_down"),
        leaders={
            (seat, letter): spot
            for seat, placed in enumerate(pieces.get("leaders", []))
            for letter, spot in placed.items()
        },
        hands=hands,
        active=claim.get("active", 0),
    )


def cards_shown(s: CardsState, fig: dict[str, Any]) -> dict[str, Any]:
    """The figure's columns of a layout, in the figure's terms; the columns not shown
    must be empty."""
    pos = cards_position(s)
    lay = pos["layout"]
    n = len(fig["layout"]["columns"])
    assert all(not col for col in lay["columns"][n:]), lay
    assert all(b is None for b in lay["bridges"][n:]), lay
    bridges = lay["bridges"][: n - 1]
    while bridges and bridges[-1] is None:
        bridges.pop()
    return {
        "heads": lay["heads"],
        "columns": lay["columns"][:n],
        "bridges": bridges,
        "face_down": lay["face_down"],
        "leaders": [{k: v for k, v in seat.items() if v} for seat in pos["leaders"]],
    }


def cards_drawn(fig: dict[str, Any], players: int) -> dict[str, Any]:
    lay = fig["layout"]
    leaders = [*fig.get("leaders", [])]
    leaders += [{}] * (players - len(leaders))
    return {
        "heads": lay.get("heads", "tttttttt"),
        "columns": lay["columns"],
        "bridges": lay.get("bridges", []),
        "face_down": lay.get("face_down"),
        "leaders": leaders,
    }


def cards_conflict(s: CardsState) -> list[str]:
    d = s.decision()
    assert d is not None and d.kind == "commit", d
    return sorted([d.context["attacker_leader"], d.context["defender_leader"]])


def check_cards(name: str, claim: dict[str, Any]) -> None:
    doc = table("cards")
    fig = doc["figures"].get(claim.get("figure", ""), {})
    if "score" in claim:
        check_scoring(name, fig, claim)
        return
    s = cards_state_of(start_of("cards", claim), claim)
    events: list[Any] = []
    for action in claim.get("play", []):
        events.extend(s.apply(action))
    check_events(name, events, claim.get("events", []))
    pos = cards_position(s)
    for seat, pile in claim.get("piles", {}).items():
        assert pos["piles"][int(seat)] == pile, (name, pos["piles"])
    if "heads" in claim:
        assert pos["layout"]["heads"] == claim["heads"], name
    for seat, want in enumerate(claim.get("leaders", [])):
        for letter, spot in want.items():
            assert pos["leaders"][seat][letter] == spot, (name, pos["leaders"])
    if "column" in claim:
        col, cards = claim["column"]
        assert "".join(pos["layout"]["columns"][col - 1]) == cards, name
    if "kingdoms" in claim:
        n = len(fig["layout"]["columns"])
        got = [list(range(lo + 1, hi + 2)) for lo, hi in card_kingdoms(s.gaps) if lo < n]
        assert got == claim["kingdoms"], (name, got)
    check_decision(name, s, claim)
    if claim.get("shows"):
        assert cards_shown(s, fig) == cards_drawn(fig, s.players), name


# --------------------------------------------------------------------------- both
def check_events(name: str, events: list[Any], wanted: list[dict[str, Any]]) -> None:
    """Each wanted event occurs, in this order, as an event with at least its fields."""
    rest = iter(events)
    for want in wanted:
        fields = {k: v for k, v in want.items() if k != "kind"}
        for e in rest:
            if e.kind == want["kind"] and all(e.data.get(k) == v for k, v in fields.items()):
                break
        else:
            raise AssertionError(f"{name}: no {want} in {[(e.kind, e.data) for e in events]}")


def check_decision(name: str, st: Any, claim: dict[str, Any]) -> None:
    want = claim.get("decision")
    if want:
        d = st.decision()
        assert d is not None, name
        assert (d.seat, d.kind) == (want["seat"], want["kind"]), (name, d)
        legal = {str(a) for a in st.legal_actions()}
        assert set(want.get("legal", [])) <= legal, (name, legal)
        assert not set(want.get("not_legal", [])) & legal, (name, legal)
        for key, value in want.get("context", {}).items():
            assert d.context.get(key) == value, (name, d.context)
    for refused in claim.get("illegal", []):
        before = str(st.view(None))
        with pytest.raises(IllegalActionError) as info:
            st.apply(refused["action"])
        assert f"({refused['ruling']})" in str(info.value), (name, str(info.value))
        assert str(st.view(None)) == before, name


def check_scoring(name: str, fig: dict[str, Any], claim: dict[str, Any]) -> None:
    points = [fig["points"][c] for c in COLOUR_NAMES]
    outcome = final_outcome([points], [fig["treasures"]])
    assert list(outcome.totals[0]) == claim["totals"], (name, outcome)
    assert min(outcome.totals[0]) == claim["score"], name


def check(game: str, name: str) -> None:
    claim = table(game)["claims"][name]
    (check_board if game == "board" else check_cards)(name, claim)


def shown_state(game: str, fig_name: str) -> Any:
    """The engine's state of what a figure draws: after the claim that shows it, or
    the figure itself."""
    claims = table(game)["claims"]
    showing = [c for c in claims.values() if c.get("figure") == fig_name and c.get("shows")]
    fig = table(game)["figures"][fig_name]
    if showing:
        claim = showing[0]
        pieces = start_of(game, claim)
        st: Any = board_state(pieces, claim) if game == "board" else cards_state_of(pieces, claim)
        for action in claim.get("play", []):
            st.apply(action)
        return st
    return board_state(fig, {}) if game == "board" else cards_state_of(fig, {})

"""What the terminal shows around the engines' ASCII pictures, in the player's language:
the legend, each seat's hand, points, treasures and leaders off the board, the bag or
deck, what is pending, and why a move was refused.

The engines draw the squares and cards (board/render.py, cards/render.py: `grid`),
whose letters are the notation's and so the same in every language; everything said in
words here comes from the book (`term.status.*`, `term.legend.*`), and a refusal from
the pages' own texts (`err.*`, `ruling.*`), so that a German, Dutch or Hungarian player
reads no English but the notation."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from euphrates.board.render import colour_counts, off_board
from euphrates.board.render import grid as board_grid
from euphrates.cards.render import grid as cards_grid
from euphrates.cards.render import leaders_by_spot
from euphrates.core.colours import COLOUR_NAMES, LEADER_LETTERS, LEADER_NAMES
from euphrates.core.errors import EuphratesError, IllegalActionError, InvalidActionError
from euphrates.words import Voice
from euphrates.words.book import read_part
from euphrates.words.decisions import what


def _who(v: Voice, seat: int, viewer: Any) -> str:
    label = v.t("term.seat", n=seat)
    return f"{label} ({v.t('term.you')})" if seat == viewer else label


def legend(v: Voice) -> list[str]:
    colours = " ".join(v.t(f"colour.{c}") for c in COLOUR_NAMES)
    leaders = " ".join(v.t(f"leader.{name}") for name in LEADER_NAMES)
    return [
        v.t("term.legend.1", colours=colours),
        v.t("term.legend.2"),
        v.t("term.legend.3", leaders=leaders),
    ]


def board_lines(view: Mapping[str, Any], v: Voice) -> list[str]:
    out = []
    active = view["turn"]["active"]
    viewer = view.get("viewer")
    none = v.t("term.status.none")
    for seat, entry in enumerate(view["seats"]):
        hand = entry["hand"]
        if "count" in hand:
            hand_text = v.t("term.status.tiles", n=hand["count"])
        else:
            hand_text = colour_counts(hand)
        pts = entry.get("points")
        points = colour_counts(pts) if pts is not None else v.t("term.status.hidden")
        out.append(
            ("> " if seat == active else "  ")
            + v.t(
                "term.status.seat",
                who=_who(v, seat, viewer),
                hand=hand_text,
                points=points,
                treasures=entry["treasures"],
                catastrophes=entry["catastrophes"],
                off=off_board(entry),
            )
        )
    bag = view["bag"]["count"] if isinstance(view["bag"], dict) else len(view["bag"])
    out.append("  " + v.t("term.status.bag", n=bag))
    bordered = view["board"].get("bordered_treasures") or []
    out.append(
        "  "
        + v.t(
            "term.status.treasures",
            n=len(view["board"]["treasures"]),
            list=" ".join(bordered) or none,
        )
    )
    d = view.get("decision")
    if d:
        out.append(
            "  "
            + v.t(
                "term.status.pending",
                what=what(v, "board", d["kind"]),
                who=_who(v, d["seat"], viewer),
            )
        )
    if view.get("outcome"):
        places = view["outcome"]["places"]
        out.append("  " + v.t("term.status.over", list=_places(v, places, viewer)))
    return out


def _places(v: Voice, places: list[int], viewer: Any) -> str:
    return ", ".join(
        v.t("term.status.place", who=_who(v, s, viewer), place=p) for s, p in enumerate(places)
    )


def cards_head(view: Mapping[str, Any], v: Voice) -> str:
    viewer = view.get("viewer")
    if view["over"]:
        places = view["outcome"]["places"] if view["outcome"] else []
        return v.t("term.status.over", list=_places(v, places, viewer))
    d = view["decision"]
    return v.t(
        "term.status.to_move", who=_who(v, d["seat"], viewer), what=what(v, "cards", d["kind"])
    )


def cards_lines(view: Mapping[str, Any], v: Voice) -> list[str]:
    lines: list[str] = []
    lay = view["layout"]
    for name, leaders in sorted(leaders_by_spot(dict(view)).items()):
        if "-" in name:
            lines.append(v.t("term.status.on_bridge", leaders=",".join(leaders), gap=name))
    if lay["face_down"]:
        lines.append(v.t("term.status.face_down", gap=lay["face_down"]))
    viewer = view.get("viewer")
    for seat in range(view["players"]):
        supply = "".join(ch for ch in LEADER_LETTERS if view["leaders"][seat][ch] is None)
        pile = view["piles"][seat]
        pile_text = (
            v.t("term.status.pile", n=pile["height"], top=pile["top"] or "-")
            if "height" in pile
            else v.t("term.status.piles", list=" ".join(f"{k}{n}" for k, n in pile.items()))
        )
        cards = v.t("term.status.cards", n=view["hand_counts"][seat])
        if viewer == seat:
            cards = v.t("term.status.your_hand", cards=cards, hand=view["hand"])
        lines.append(
            v.t(
                "term.status.cards_seat",
                who=_who(v, seat, viewer),
                cards=cards,
                supply=supply or "-",
                catastrophe=v.t(
                    "term.status.catastrophe_left"
                    if view["catastrophes"][seat]
                    else "term.status.catastrophe_used"
                ),
                pile=pile_text,
            )
        )
    lines.append(
        v.t(
            "term.status.deck",
            deck=view["deck_count"],
            discard=len(view["discard"]),
            ships=" ".join(view["ships"]) or "-",
        )
    )
    return lines


PAGE_PARTS = {"board": ("pages",), "cards": ("pages", "pages-cards")}
"""The pages' parts that hold a game's refusals and rulings (the card game's own too)."""


@cache
def _pages(lang: str, game: str) -> dict[str, str]:
    texts: dict[str, str] = {}
    for part in PAGE_PARTS[game]:
        texts.update(read_part(lang, part))
    return texts


def refusal(e: EuphratesError, v: Voice, game: str) -> str:
    """Why a move was not played: the engine's own sentence in English; in another
    language the refusal and the ruling's summary as the pages say them (the engines
    speak English only)."""
    lang = getattr(v.book, "lang", "en")
    if lang == "en":
        return str(e)
    pages = _pages(lang, game)
    if isinstance(e, InvalidActionError):
        return pages["err.invalid_action"]
    if isinstance(e, IllegalActionError):
        summary = pages.get(f"ruling.{e.ruling}") if e.ruling else None
        base = pages["err.illegal_action"]
        if summary:
            return f"{base}: {summary} ({e.ruling})"
        return f"{base} ({e.ruling})" if e.ruling else f"{base}."
    return str(e)


def _board_picture(view: Mapping[str, Any], v: Voice) -> str:
    return "\n".join([*board_grid(view), "", *legend(v), "", *board_lines(view, v)])


def _cards_picture(view: Mapping[str, Any], v: Voice) -> str:
    return "\n".join([cards_head(view, v), *cards_grid(dict(view)), *cards_lines(view, v)]) + "\n"


PICTURES = {"board": _board_picture, "cards": _cards_picture}
"""Each game's picture: its engine's drawing, the words around it in the player's."""


def picture(game: str, view: Mapping[str, Any], v: Voice) -> str:
    """The board (layout) as the engine draws it, with its words in the player's."""
    return PICTURES[game](view, v)

"""A finished game's statistics (match/stats.py) as lines of text: the same figures the
browser table and the replay page show, in the same words (web/words/*/common.json)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from euphrates.core.colours import COLOUR_NAMES
from euphrates.games import game_definition
from euphrates.match.stats import CONFLICTS, COUNTS, OUTCOMES
from euphrates.words.book import Book


def stats_lines(v: Book, stats: dict[str, Any], names: Sequence[str]) -> list[str]:
    """One block per seat: its conflicts won and lost by side, what it built, took and
    destroyed, its points per colour; then the points at the start of every turn."""
    own = game_definition(stats["game"]).stats_words
    out = [v.t("stats.title"), v.t("stats.turns", n=stats["turns"], m=stats["steps"])]
    for s, seat in enumerate(stats["seats"]):
        name = names[s] if s < len(names) and names[s] else v.t("term.seat", n=s)
        out.append(f"{name}:")
        for which in CONFLICTS:
            parts = ", ".join(f"{v.t(f'stats.{o}')} {seat[which][o]}" for o in OUTCOMES)
            out.append(f"  {v.t(f'stats.{which}')}: {parts}")
        for key in COUNTS:
            out.append(f"  {v.t(own.get(key, f'stats.{key}'))}: {seat[key]}")
        points = ", ".join(f"{v.t(f'colour.{c}')} {seat['points'][c]}" for c in COLOUR_NAMES)
        out.append(f"  {v.t('stats.points')}: {points}")
    out.append(v.t("stats.chart"))
    shown = None
    for entry in stats["timeline"]:
        # Only the turns that changed someone's points: a whole game has a hundred.
        if entry["points"] == shown and entry is not stats["timeline"][-1]:
            continue
        shown = entry["points"]
        row = " | ".join(" ".join(f"{n:>2}" for n in seat) for seat in entry["points"])
        out.append(f"  {entry['step']:>5}: {row}")
    return out

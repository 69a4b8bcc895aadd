"""What `/api/meta` tells a client of fair play (docs/fair-play.md): the bots' levels a
rated game seats (`rated_levels`, the ladder's measured levels by game and player-count
group, exactly those the server accepts at a rated table) and the figures of the rules
as the server keeps them (`fair_play`, its settings' where they are settings)."""

from __future__ import annotations

from pathlib import Path

from euphrates.bots.levels import LEVELS
from euphrates.match.ladder import shipped
from euphrates.server.common.clock import MISSES
from euphrates.server.common.config import Settings
from euphrates.server.features.fairplay.fairplay import ABORT_LIMIT, VACATION_DAYS
from euphrates.server.game.lifecycle import MIN_DECISIONS
from euphrates.server.store.fairplay import MARKS_KEPT
from euphrates.server.store.ratings import PAIR_LIMIT
from tests.server.conftest import sqlite_url
from tests.server.harness import Api, running_server
from tests.server.people import Person


def test_meta_names_the_levels_a_rated_game_seats(api: Api) -> None:
    meta = api.call("GET", "/api/meta").json()
    measured = shipped()
    assert set(meta["rated_levels"]) == set(meta["games"])
    for game, groups in meta["rated_levels"].items():
        assert set(groups) == {"2", "3-4"}
        for group, levels in groups.items():
            # the ladder's levels, in the order the server lists its levels
            assert levels == [lv for lv in LEVELS if lv in measured[game][group]], (game, group)
    # as shipped: strong is measured in both games for every number of players,
    # expert nowhere
    for game in ("board", "cards"):
        assert meta["rated_levels"][game] == {
            "2": ["beginner", "intermediate", "strong"],
            "3-4": ["beginner", "intermediate", "strong"],
        }


def test_the_server_seats_at_a_rated_table_exactly_the_levels_meta_names(tmp_path: Path) -> None:
    settings = Settings(db_url=sqlite_url(tmp_path), bot_workers=0, bot_pace=0)
    with running_server(settings) as base:
        meta = Person(base).get("/api/meta").json()
        ann = Person(base)
        assert ann.signup("Ann").status_code == 201
        for game in meta["games"]:
            for players in (2, 3):
                group = "2" if players == 2 else "3-4"
                for level in LEVELS:
                    seats = [{"kind": "human"}] + [{"kind": "bot", "level": level}] * (players - 1)
                    body = {"game": game, "players": players, "seats": seats, "rated": True}
                    r = ann.post("/api/games", body)
                    offered = level in meta["rated_levels"][game][group]
                    assert (r.status_code == 201) == offered, (game, players, level, r.text)


def test_meta_states_the_fair_play_figures_the_server_keeps(tmp_path: Path) -> None:
    """The figures come from where the rules are kept — the grace and the hint budget
    from this server's settings — so a page showing them cannot drift from the rules."""
    settings = Settings(
        db_url=sqlite_url(tmp_path),
        bot_workers=0,
        bot_pace=0,
        forfeit_grace=7.5,
        hints_per_minute=4.0,
    )
    with running_server(settings) as url:
        figures = Api(url).call("GET", "/api/meta").json()["fair_play"]
    assert figures == {
        "min_decisions": MIN_DECISIONS,
        "abort_limit": ABORT_LIMIT,
        "pair_limit": PAIR_LIMIT,
        "forfeit_grace": 7.5,
        "misses": MISSES,
        "vacation_days": VACATION_DAYS,
        "hints_per_minute": 4.0,
        "marks_days": MARKS_KEPT.days,
    }
    # and the figures docs/fair-play.md states
    assert (MIN_DECISIONS, ABORT_LIMIT, PAIR_LIMIT, MISSES, VACATION_DAYS) == (4, 3, 3, 2, 21)
    assert (Settings().forfeit_grace, Settings().hints_per_minute, MARKS_KEPT.days) == (60, 10, 30)


def test_the_note_kinds_are_one_list() -> None:
    """A record's note kinds (match/records.py) are the server's (store/notes.py), which
    the API's models take: a kind added to one is added to all."""
    from typing import get_args

    from euphrates.match.records import NOTE_KINDS
    from euphrates.server.store.notes import NoteKind

    assert get_args(NoteKind) == NOTE_KINDS

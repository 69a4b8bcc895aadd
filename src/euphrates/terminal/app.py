"""Starting or resuming a terminal game, as `euphrates play` does."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from euphrates.core.errors import EuphratesError
from euphrates.match.files import user_path
from euphrates.match.records import GameRecord
from euphrates.terminal.game import TerminalGame
from euphrates.terminal.seats import seat_list
from euphrates.terminal.storage import games_dir, last_unfinished, new_game_path, read_record
from euphrates.words import book


def new_record(
    game: str,
    players: int,
    seat: int,
    bots: Sequence[str],
    seed: int,
    options: dict[str, Any],
) -> GameRecord:
    """The record of a game about to start: its seats, options and seed, no actions."""
    record = GameRecord(game, players, seed, dict(options), seat_list(players, seat, bots), [])
    record.new_game()  # refuses bad options or seeds now, with the record's words
    return record


def resume_path(resume: str) -> Path:
    """The file to resume: the one named, or the newest unfinished saved game."""
    if resume:
        return user_path(resume, "--resume ")
    found = last_unfinished()
    if found is None:
        raise EuphratesError(f"no unfinished game to resume in {games_dir()}")
    return found


def _autosave_path(
    record: GameRecord, source: Path | None, directory: Path, console: Console, lang: str
) -> Path | None:
    """Where this game is saved after every move: the file it was resumed from when that
    is one of the saved games, else a new file there (a file named by the person is never
    overwritten without a `save`)."""
    try:
        if source is not None and source.resolve().parent == directory.resolve():
            return source
        return new_game_path(record.game, directory)
    except OSError as e:
        console.print(Text(book(lang).t("term.no_autosave", why=str(e)), "yellow"))
        return None


def play_in_terminal(
    record: GameRecord | None,
    resume: str | None = None,
    console: Console | None = None,
    read: Callable[[str], str] = input,
    lang: str = "en",
) -> int:
    """Play a new game (`record` from `new_record`) or resume one (`resume` a file name,
    or "" for the newest unfinished game), telling it in `lang` (one of the book's languages)."""
    out = console or Console(highlight=False)
    # A data directory that cannot be meant is refused before any bot starts.
    directory = games_dir()
    source: Path | None = None
    if resume is not None:
        source = resume_path(resume)
        record = read_record(source)
        out.print(Text(book(lang).t("term.resuming", path=str(source))))
    assert record is not None
    game = TerminalGame(record, out, read=read, lang=lang)
    if not game.state.is_over():
        game.autosave = _autosave_path(record, source, directory, out, lang)
    return game.run()

"""Playing in the terminal: moves in notation, help, clear messages for wrong input."""

from __future__ import annotations

import io
from pathlib import Path

from rich.console import Console

from euphrates.match.records import GameRecord
from euphrates.tui import TerminalGame


def _scripted(lines: list[str]) -> object:
    it = iter(lines)

    def read(prompt: str) -> str:
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None

    return read


def test_playing_a_game_in_the_terminal(tmp_path: Path) -> None:
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=False)
    save = tmp_path / "game.json"
    game = TerminalGame(
        "board",
        2,
        ["beginner"],
        0,
        3,
        {},
        console,
        read=_scripted(["help", "rZ9", "bA1", "pass", "log", f"save {save}", "quit"]),
    )
    assert game.run() == 0
    text = out.getvalue()
    assert "legal moves" in text and "swap" in text
    assert "'Z9' is not a square name" in text
    assert "a blue tile goes only on a river square; A1 is land (B-12)" in text
    assert "you: pass" in text or game.state.version >= 1
    record = GameRecord.loads(save.read_text())
    assert "pass" in record.actions
    resumed = TerminalGame(
        "board", 2, ["beginner"], 0, 3, {}, console, read=_scripted(["quit"]), record=record
    )
    assert resumed.state.version == len(record.actions)

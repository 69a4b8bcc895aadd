"""Playing against bots in the terminal, rendered with `rich`.

One seat is yours; the bots play the others and see only their own views, as you do.
Type moves in the notation (docs/board.md, docs/cards.md); `help` lists your legal
moves, `log` the moves so far, `save FILE` writes the game record (resume it with
`--resume FILE`), `quit` leaves. A wrong move is explained and nothing changes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.text import Text

from euphrates.bots.levels import LEVELS, make_bot
from euphrates.core.errors import EuphratesError
from euphrates.core.protocol import GameState
from euphrates.match.games import game_definition
from euphrates.match.records import GameRecord, replay

STYLES = {
    "r": "bold white on red",
    "b": "bold white on blue",
    "g": "bold white on green",
    "k": "bold white on grey23",
    "#": "bold black on yellow",
    "X": "bold white on magenta",
    "~": "blue",
    ".": "grey50",
}
LEADER_STYLES = {"P": "bold red", "F": "bold blue", "T": "bold green", "K": "bold white"}


def colour_board(text: str) -> Text:
    """Colour the two-character cells of the board's ASCII rendering."""
    out = Text()
    lines = text.splitlines()
    for n, line in enumerate(lines):
        is_grid = n > 0 and len(line) > 4 and line[:2].strip().isdigit() and line[2:4] == "  "
        if not is_grid:
            out.append(line + "\n")
            continue
        out.append(line[:4])
        cells = line[4:]
        for i in range(0, len(cells), 2):
            cell = cells[i : i + 2]
            head = cell[:1]
            if head in LEADER_STYLES and cell[1:2].isdigit():
                out.append(cell, LEADER_STYLES[head] + " on grey15")
            else:
                out.append(cell, STYLES.get(head, ""))
        out.append("\n")
    return out


def group_legal(legal: Sequence[str]) -> str:
    """Legal moves, grouped by their first word or letters, compactly."""
    groups: dict[str, list[str]] = {}
    for a in legal:
        key = a.split(" ")[0] if " " in a else a[:1]
        groups.setdefault(key, []).append(a)
    lines = []
    for key, items in groups.items():
        shown = " ".join(items[:60])
        more = f" … and {len(items) - 60} more" if len(items) > 60 else ""
        lines.append(f"  {key:>8}: {shown}{more}")
    return "\n".join(lines)


def describe_context(context: Any) -> str:
    """A decision's public context in a few words: `(role attacker, colour red, ...)`."""
    parts = []
    for key, value in dict(context).items():
        if value is None or value == [] or value == "":
            continue
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        parts.append(f"{key.replace('_', ' ')} {shown}")
    return f" ({'; '.join(parts)})" if parts else ""


class TerminalGame:
    def __init__(
        self,
        game: str,
        players: int,
        bots: Sequence[str],
        seat: int,
        seed: int,
        options: dict[str, Any],
        console: Console,
        read: Callable[[str], str] = input,
        record: GameRecord | None = None,
    ) -> None:
        self.definition = game_definition(game)
        self.game = game
        self.console = console
        self.read = read
        self.human = seat
        specs = list(bots) + [bots[-1] if bots else "intermediate"] * (players - 1 - len(bots))
        if len(specs) != players - 1:
            raise ValueError(f"{players} players need {players - 1} bots, not {len(bots)}")
        self.names: list[str] = []
        self.bots: dict[int, Any] = {}
        i = 0
        for s in range(players):
            if s == seat:
                self.names.append("you")
                continue
            spec = specs[i]
            i += 1
            self.bots[s] = make_bot(spec, seed=seed * 31 + s)
            label = spec if spec not in LEVELS else f"{spec} ({LEVELS[spec]})"
            self.names.append(label)
        if record is not None:
            self.record = record
            self.state: GameState[Any] = replay(record)
        else:
            self.record = GameRecord(game, players, seed, options, list(self.names), [])
            self.state = self.definition.new_game(players, seed, options)
        self.log: list[str] = []
        for n, text in enumerate(self.record.actions):
            self.log.append(f"{n + 1:>3}. {text}")

    def show(self) -> None:
        view = self.state.view(self.human)
        board = self.definition.render_view(view)
        text = colour_board(board) if self.game == "board" else Text(board)
        self.console.print(text, soft_wrap=True)
        if self.log:
            self.console.print("[bold]moves:[/bold] " + "   ".join(self.log[-10:]))

    def save(self, path: str) -> None:
        out = self.state.outcome()
        self.record.outcome = None if out is None else out.to_json()
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.record.dumps())
        self.console.print(f"saved the game to {path}")

    def apply(self, seat: int, text: str) -> None:
        self.state.apply(text, seat=seat)
        self.record.actions.append(text)
        who = self.names[seat]
        self.log.append(f"{len(self.record.actions):>3}. {who}: {text}")

    def run(self) -> int:
        self.show()
        while not self.state.is_over():
            d = self.state.decision()
            assert d is not None
            if d.seat != self.human:
                bot = self.bots[d.seat]
                with self.console.status(f"seat {d.seat} ({self.names[d.seat]}) is thinking…"):
                    text = bot.choose(self.definition, self.state.view(d.seat))
                self.apply(d.seat, text)
                self.console.print(f"seat {d.seat} ({self.names[d.seat]}): [bold]{text}[/bold]")
                if self.state.to_move() == self.human:
                    self.show()
                continue
            view = self.state.view(self.human)
            prompt = f"your {d.kind}{describe_context(d.context)} > "
            try:
                line = self.read(prompt).strip()
            except EOFError:
                self.console.print("bye")
                return 0
            if not line:
                continue
            word = line.split()[0].lower()
            if word in ("help", "?"):
                self.console.print(
                    f"{len(view['legal'])} legal moves:\n" + group_legal(view["legal"])
                )
                self.console.print("commands: help, board, log, save FILE, quit")
                continue
            if word in ("quit", "exit"):
                self.console.print("bye")
                return 0
            if word == "board":
                self.show()
                continue
            if word == "log":
                self.console.print("\n".join(self.log) or "no moves yet")
                continue
            if word == "save":
                parts = line.split(maxsplit=1)
                if len(parts) != 2:
                    self.console.print("write: save FILE")
                    continue
                self.save(parts[1])
                continue
            try:
                self.apply(self.human, line)
            except EuphratesError as e:
                self.console.print(f"[red]not played:[/red] {e}. Type 'help' for your legal moves.")
                continue
            self.console.print(f"you: [bold]{self.record.actions[-1]}[/bold]")
        self.show()
        out = self.state.outcome()
        assert out is not None
        place = out.places[self.human]
        self.console.print(
            f"[bold]game over[/bold]: you are placed {place} of {self.state.players}"
        )
        return 0


def play_in_terminal(
    game: str,
    players: int,
    bots: Sequence[str],
    seat: int,
    seed: int,
    options: dict[str, Any],
    resume: str | None = None,
) -> int:
    console = Console(highlight=False)
    record = None
    if resume:
        with open(resume, encoding="utf-8") as f:
            record = GameRecord.loads(f.read())
        game, players, seed, options = record.game, record.players, record.seed, record.options
    tg = TerminalGame(game, players, bots, seat, seed, options, console, record=record)
    try:
        return tg.run()
    except KeyboardInterrupt:
        console.print("\ninterrupted")
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(play_in_terminal("board", 2, ["beginner"], 0, 1, {}))

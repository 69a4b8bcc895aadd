"""One game in the terminal: the person's seat against bots.

The person sees only their seat's view and the events their seat may see, in words
(euphrates.words, in English or German); the bots see only their own views. Every action
is saved at once (storage.py), so quitting, end of input, Ctrl-C, a failed `save` or a
failing bot never lose the game.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

import euphrates.terminal.display as display
import euphrates.terminal.status as status
from euphrates.core.errors import EuphratesError, RecordError
from euphrates.core.history import History, with_history
from euphrates.core.protocol import Decision, Event, GameState
from euphrates.games import game_definition
from euphrates.match.files import user_path, write_atomically
from euphrates.match.records import GameRecord
from euphrates.terminal.movelog import entry_parts
from euphrates.terminal.seats import (
    Player,
    bot_label,
    bot_seed,
    close_bot,
    read_seats,
    spawn_bot,
)
from euphrates.words import Voice, book, tell

RESUME = "euphrates play --resume"
RECENT_MOVES = 8


class BotFailed(Exception):
    """A bot raised or answered with something that is not a legal action."""


@dataclass
class LogEntry:
    number: int
    seat: int
    head: str
    rest: list[str]

    def line(self) -> str:
        return f"{self.number:>3}. " + "; ".join([self.head, *self.rest])


class TerminalGame:
    """A game from its record: a new one has no actions yet, a resumed one is replayed,
    and either way the record's seats say which seat is the person and which bots sit
    in the others (seats.py)."""

    def __init__(
        self,
        record: GameRecord,
        console: Console,
        read: Callable[[str], str] = input,
        autosave: Path | None = None,
        spawn: Callable[[str, int], Player] = spawn_bot,
        lang: str = "en",
    ) -> None:
        try:
            self.definition = game_definition(record.game)
        except ValueError as e:
            raise RecordError(f"record: {e}") from None
        self.record = record
        self.game = record.game
        self.console = console
        self.read = read
        self.autosave = autosave
        self.autosave_error: str | None = None
        self.saved_to: Path | None = None
        self.human, specs = read_seats(record.seats, record.players)
        words = book(lang)
        self.names = [words.t("term.seat", n=s) for s in range(record.players)]
        self.voice = Voice(words, self.human, self.names)
        self.labels = [
            words.t("term.you") if s == self.human else bot_label(specs[s])
            for s in range(record.players)
        ]
        self.log: list[LogEntry] = []
        self.history = History()  # what each seat saw, for the bots (core.history)
        self.state: GameState[Any] = self._replay()
        self.bots: dict[int, Player] = {}
        for s, spec in specs.items():
            self.bots[s] = spawn(spec, bot_seed(record.seed, s))
        self._announced = -1

    # --- the record ---------------------------------------------------------------
    def _replay(self) -> GameState[Any]:
        """The state after the record's actions, with the move log the person's seat
        would have seen (the same words as in play)."""
        state = self.record.new_game()
        for i, text in enumerate(self.record.actions):
            decision = state.decision()
            if decision is None:
                raise RecordError(f"record: action {i} ({text!r}) comes after the game ended")
            try:
                events = self.history.play(state, text)
            except EuphratesError as e:
                raise RecordError(f"record: action {i} ({text!r}) does not replay: {e}") from None
            self._log(decision, text, events)
        if self.record.outcome is not None:
            out = state.outcome()
            if out is None or out.to_json() != self.record.outcome:
                raise RecordError("record: the replayed game does not end with its outcome")
        return state

    def _log(self, decision: Decision, text: str, events: list[Event]) -> LogEntry:
        head, rest = entry_parts(self.game, decision, events, self.voice)
        if decision.seat == self.human:
            head = self.voice.t("term.own_move", move=text)  # your own move in its notation
        entry = LogEntry(len(self.log) + 1, decision.seat, head, rest)
        self.log.append(entry)
        return entry

    def _autosave(self, durable: bool = True) -> None:
        if self.autosave is None:
            return
        try:
            write_atomically(self.autosave, self.record.dumps(), durable)
        except (OSError, ValueError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            message = self.voice.t("term.autosave_failed", path=str(self.autosave), why=why)
            if message != self.autosave_error:
                self.say(Text(message + self.voice.t("term.save_to_keep"), "yellow"))
            self.autosave_error = message
            return
        self.autosave_error = None

    def save(self, path_text: str) -> None:
        """`save FILE`: a copy of the record; any failure leaves the game running. A name
        that cannot be meant (`~user` without a home, a FIFO, a device, a directory) is
        refused before anything is written."""
        try:
            path = user_path(path_text)
            write_atomically(path, self.record.dumps())
        except EuphratesError as e:
            self.say(
                Text.assemble(
                    (self.voice.t("term.not_saved"), "red"),
                    " " + self.voice.t("term.goes_on", why=str(e)),
                )
            )
            return
        except (OSError, ValueError) as e:
            why = e.strerror if isinstance(e, OSError) and e.strerror else str(e)
            self.say(
                Text.assemble(
                    (self.voice.t("term.not_saved"), "red"),
                    " " + self.voice.t("term.cannot_write", path=path_text, why=why),
                )
            )
            return
        self.saved_to = path
        self.say(self.voice.t("term.saved", path=str(path)))

    def resume_hint(self) -> str:
        if self.autosave is not None and self.autosave_error is None:
            return self.voice.t("term.resume_saved", path=str(self.autosave), command=RESUME)
        if self.saved_to is not None:
            return self.voice.t("term.resume_copy", command=f"{RESUME} {self.saved_to}")
        return self.voice.t("term.unsaved")

    # --- showing ------------------------------------------------------------------
    def intro(self) -> None:
        seats = ", ".join(
            self.voice.t("term.seat_label", n=s, label=label) for s, label in enumerate(self.labels)
        )
        title = self.voice.t(f"term.title.{self.game}")
        self.say(Text.assemble((title, "bold"), f" — {seats}"))
        self.say(self.voice.t("help.commands"))

    def show(self) -> None:
        board = status.picture(self.game, self.state.view(self.human), self.voice)
        self.console.print(display.coloured(self.game, board), soft_wrap=True)
        if self.log:
            self.say(Text(self.voice.t("term.recent"), "bold"))
            for entry in self.log[-RECENT_MOVES:]:
                self._line(entry.line())

    def show_log(self) -> None:
        """Every move, its results indented below it, one sentence a line."""
        if not self.log:
            self.say(self.voice.t("term.no_moves"))
        for entry in self.log:
            self._line(f"{entry.number:>3}. {entry.head}")
            for result in entry.rest:
                self._line(f"       {result}")

    def say(self, text: str | Text) -> None:
        """Print without reading markup: paths, engine messages and the person's own
        input may hold brackets that rich would take for tags (and refuse)."""
        self.console.print(text if isinstance(text, Text) else Text(text))

    def _line(self, text: str) -> None:
        """One line, cut with an ellipsis rather than wrapped into the next entry."""
        self.console.print(Text(text), no_wrap=True, overflow="ellipsis", crop=True)

    def tell(self, events: list[Event]) -> None:
        """An action's events as the person's seat may see them: a line each, the
        points scored, and whose turn it is now."""
        told = tell(self.game, [e.to_json() for e in events], self.voice)
        for line in told.lines:
            self.say(f"  {line}")
        if told.scores:
            self.say(f"  {' · '.join(told.scores)}")
        if told.turn:
            self.say(Text(f"— {told.turn} —", "bold"))

    # --- playing ------------------------------------------------------------------
    def play(self, decision: Decision, text: str) -> None:
        events = self.history.play(self.state, text, decision.seat)
        self.record.actions.append(text)
        self._log(decision, text, events)
        if self.state.is_over():
            out = self.state.outcome()
            self.record.outcome = None if out is None else out.to_json()
        self._autosave(durable=decision.seat == self.human or self.state.is_over())
        self.tell(events)

    def bot_move(self, decision: Decision) -> None:
        seat = decision.seat
        bot = self.bots[seat]
        try:
            with self.console.status(self.voice.t("term.thinking", who=self.names[seat])):
                view = self.state.view(seat)
                if getattr(bot, "reads_history", False):
                    view = with_history(view, self.history)
                text = bot.choose(self.definition, view)
            self.play(decision, text)
        except KeyboardInterrupt:
            raise
        except Exception as e:  # a bot is foreign code: its failure must not lose the game
            raise BotFailed(f"seat {seat} ({self.labels[seat]}) failed: {e}") from None

    def close(self) -> None:
        for bot in self.bots.values():
            close_bot(bot)

    def run(self) -> int:
        """Play until the game ends or the person leaves; 0 unless something failed."""
        try:
            return self._run()
        except KeyboardInterrupt:
            self.say("\n" + self.voice.t("term.interrupted", hint=self.resume_hint()))
            return 130
        except BotFailed as e:
            self.say(Text.assemble((str(e), "red"), f"; {self.resume_hint()}"))
            return 1
        except Exception as e:  # a defect here must not cost the game: it is saved
            failure = self.voice.t("term.internal", error=repr(e))
            self.say(Text.assemble((failure, "red"), f"; {self.resume_hint()}"))
            return 1
        finally:
            self.close()

    def _run(self) -> int:
        self.intro()
        self._autosave()
        self.show()
        while not self.state.is_over():
            decision = self.state.decision()
            assert decision is not None
            if decision.seat != self.human:
                self.bot_move(decision)
                if self.state.to_move() == self.human:
                    self.show()
                continue
            if not self.ask(decision):
                return 0
        self.finish()
        return 0

    def ask(self, decision: Decision) -> bool:
        """One line from the person: a command or a move. False when they leave."""
        legal = self.state.legal_texts()  # the decision is the person's (_run)
        if self._announced != self.state.version:
            self._announced = self.state.version
            about = display.situation(self.game, decision, self.voice)
            if about:
                self.say(about)
        try:
            line = self.read(display.prompt(self.game, decision, legal, self.voice)).strip()
        except EOFError:
            self.say("\n" + self.voice.t("term.end_of_input", hint=self.resume_hint()))
            return False
        if not line:
            return True
        word = line.split()[0].lower()
        if word in ("help", "?"):
            self.say(self.voice.t("help.legal", n=len(legal)))
            for row in display.group_legal(legal, self.voice, self.game, self.console.width):
                self.console.print(Text(row), no_wrap=True, overflow="ignore", crop=False)
            self.say(self.voice.t("help.commands"))
        elif word in ("quit", "exit"):
            self.say(self.resume_hint())
            return False
        elif word == "board":
            self.show()
        elif word == "log":
            self.show_log()
        elif word == "save":
            parts = line.split(maxsplit=1)
            if len(parts) != 2:
                self.say(self.voice.t("term.save_usage", hint=self.resume_hint()))
            else:
                self.save(parts[1])
        else:
            try:
                self.play(decision, line)
            except EuphratesError as e:
                refused = (self.voice.t("term.not_played"), "red")
                why = status.refusal(e, self.voice, self.game)
                self.say(Text.assemble(refused, f" {why} {self.voice.t('term.try_help')}"))
        return True

    def finish(self) -> None:
        self.show()
        out = self.state.outcome()
        assert out is not None
        self.console.print(display.scoring_table(out, self.labels, self.voice, self.game))
        for line in display.final_words(out, self.voice, self.game):
            self.say(line)
        if self.autosave is not None and self.autosave_error is None:
            self.say(self.voice.t("term.kept", path=str(self.autosave)))

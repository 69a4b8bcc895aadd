"""The terminal game as a player meets it: what it shows of other seats, help, prompts,
the move log, saving and leaving, the end of the game."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from euphrates.board import BOARD
from euphrates.core.errors import RecordError
from euphrates.match.records import GameRecord
from euphrates.terminal import TerminalGame, new_record
from euphrates.terminal.display import move_kind
from euphrates.terminal.seats import bot_seed, read_seats
from euphrates.terminal.storage import last_unfinished
from euphrates.words import Voice, book
from tests.terminal.helpers import Spawner, console, scripted


def _passing(game_holder: dict[str, TerminalGame], limit: int) -> Callable[[str], str]:
    """A person who passes when they may and otherwise takes the first legal answer."""
    count = [0]

    def read(prompt: str) -> str:
        count[0] += 1
        if count[0] > limit:
            raise EOFError
        g = game_holder["game"]
        legal = g.state.view(g.human)["legal"]
        return "pass" if "pass" in legal else str(legal[0])

    return read


def _random_player(game_holder: dict[str, TerminalGame], seed: int) -> Callable[[str], str]:
    rng = random.Random(seed)

    def read(prompt: str) -> str:
        g = game_holder["game"]
        return str(rng.choice(g.state.view(g.human)["legal"]))

    return read


TOLD = {
    ("board", "en"): "seat 1 swaps",
    ("board", "de"): "Platz 1 tauscht",
    ("cards", "en"): "seat 1 lays a face-down bridge between",
    ("cards", "de"): "Platz 1 legt eine verdeckte Brücke zwischen",
}


@pytest.mark.parametrize(("game", "lang"), sorted(TOLD))
def test_other_seats_are_told_in_words_never_by_their_action_text(game: str, lang: str) -> None:
    """G-3: a bot's swap names its discards; C-11/C-19: a bot's bridge names its colour.
    The first deal (from seed 4 on) where the bot makes such a move is checked, in both
    languages."""
    secret = "swap" if game == "board" else "-"
    for seed in range(4, 40):
        con, out = console()
        spawn = Spawner()
        holder: dict[str, TerminalGame] = {}
        record = new_record(game, 2, 0, ["beginner"], seed, {})
        g = TerminalGame(record, con, read=_passing(holder, 60), spawn=spawn, lang=lang)
        holder["game"] = g
        assert g.run() == 0
        g.show_log()
        text = out.getvalue()
        bot = spawn.bots[0]
        hidden = [
            t for t in bot.texts if t.startswith("swap ") or (secret == "-" and "-" in t[1:3])
        ]
        hidden = [t for t in hidden if t[0] not in "PFTKx"]
        assert bot.closed == 1
        if hidden:
            break
    assert hidden, "no deal reached a swap or a bridge by the bot"
    for t in hidden:
        assert t not in text
    assert TOLD[game, lang] in text


def test_help_lists_every_legal_move_grouped_and_prompts_are_short() -> None:
    con, out = console(width=80)
    record = new_record("board", 2, 0, ["beginner"], 3, {})
    g = TerminalGame(record, con, read=scripted(["help", "quit"]))
    legal = g.state.view(0)["legal"]
    assert len(legal) > 300
    assert g.run() == 0
    text = out.getvalue()
    shown = text.split(f"{len(legal)} legal moves:", 1)[1].split("commands:", 1)[0]
    tokens = shown.replace("swap ", "swap_").split()
    for a in legal:
        assert a.replace("swap ", "swap_") in tokens
    for line in shown.splitlines():
        assert len(line) <= 80
    kinds = {move_kind(a, Voice(book("en"), 0), "board") for a in legal}
    assert {"red tile", "king", "catastrophe", "swap", "pass"} <= kinds
    assert "your action 1/2 >" not in text  # the prompt goes to `read`, not the console


def test_prompts_name_the_decision_shortly() -> None:
    prompts: list[str] = []
    con, out = console()
    holder: dict[str, TerminalGame] = {}
    rng = random.Random(5)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 400:
            raise EOFError
        g = holder["game"]
        return str(rng.choice(g.state.view(g.human)["legal"]))

    g = TerminalGame(new_record("board", 2, 0, ["random"], 11, {}), con, read=read)
    holder["game"] = g
    g.run()
    assert "your action 1/2 > " in prompts and "your action 2/2 > " in prompts
    commits = [p for p in prompts if p.startswith("commit ")]
    assert commits and all(p.split()[1] in ("red", "blue", "green", "black") for p in commits)
    assert all(p.split()[2] == "tiles" for p in commits)
    assert all(len(p) < 80 for p in prompts)
    assert "you commit first, a tie goes to the defender" in " ".join(out.getvalue().split())


def test_wrong_input_is_explained_and_changes_nothing() -> None:
    con, out = console()
    g = TerminalGame(
        new_record("board", 2, 0, ["beginner"], 3, {}),
        con,
        read=scripted(["rZ9", "bA1", "[/x]", "save [/red]/x.json", "quit"]),
    )
    assert g.run() == 0
    text = out.getvalue()
    assert "'[/x]'" in text and "cannot write [/red]/x.json" in text  # no markup read
    assert "'Z9' is not a square name" in text
    assert "a blue tile goes only on a river square; A1 is land (B-12)" in text
    assert g.state.version == 0 and g.record.actions == []


def test_a_failed_save_keeps_the_game_running(tmp_path: Path) -> None:
    afile = tmp_path / "file.txt"
    afile.write_text("x")
    good = tmp_path / "game.json"
    con, out = console()
    lines = [
        f"save {tmp_path / 'no-such-dir' / 'game.json'}",
        f"save {tmp_path}",
        f"save {afile / 'game.json'}",
        "save",
        "pass",
        f"save {good}",
        "quit",
    ]
    g = TerminalGame(new_record("board", 2, 0, ["beginner"], 3, {}), con, read=scripted(lines))
    assert g.run() == 0
    text = out.getvalue()
    assert text.count("not saved:") == 3 and "the game goes on" in text
    assert "Traceback" not in text
    record = GameRecord.loads(good.read_text())
    assert record.actions[0] == "pass" and record.seats == ["you", "bot:beginner"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt", "game.json"]


def test_every_move_is_saved_and_leaving_says_how_to_resume(tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    con, out = console(width=200)
    g = TerminalGame(
        new_record("board", 2, 0, ["beginner"], 3, {}),
        con,
        read=scripted(["pass", "pass"]),
        autosave=path,
    )
    assert g.run() == 0
    assert "end of input: the game is saved in" in out.getvalue()
    assert "euphrates play --resume" in out.getvalue()
    saved = GameRecord.loads(path.read_text())
    assert saved.actions == g.record.actions and saved.actions.count("pass") == 2
    assert saved.outcome is None
    assert last_unfinished(tmp_path) == path

    con, out = console(width=200)
    g = TerminalGame(saved, con, read=scripted(["pass"], then=KeyboardInterrupt), autosave=path)
    assert g.run() == 130
    assert "interrupted: the game is saved" in out.getvalue()
    assert GameRecord.loads(path.read_text()).actions.count("pass") == 3


def test_a_resumed_game_keeps_its_seats_names_and_log(tmp_path: Path) -> None:
    con, out = console()
    holder: dict[str, TerminalGame] = {}
    record = new_record("cards", 3, 1, ["greedy", "beginner"], 9, {"open_piles": True})
    assert record.seats == ["bot:greedy", "you", "bot:beginner"]
    g = TerminalGame(record, con, read=_passing(holder, 8))
    holder["game"] = g
    g.run()
    before = [e.line() for e in g.log]
    doc = json.loads(g.record.dumps())
    resumed = TerminalGame(GameRecord.from_json(doc), con, read=scripted(["log", "quit"]))
    assert resumed.human == 1 and resumed.labels == g.labels
    assert resumed.record.options == {"open_piles": True}
    assert [e.line() for e in resumed.log] == before
    resumed.run()
    assert "seat 0: greedy, seat 1: you, seat 2: beginner (softmax:0.5)" in out.getvalue()


def test_bots_are_seeded_one_way_from_the_game_seed() -> None:
    seeds = {bot_seed(7, s) for s in range(4)} | {bot_seed(8, s) for s in range(4)}
    assert len(seeds) == 8 and bot_seed(7, 1) == bot_seed(7, 1)
    assert all(0 <= s < 2**64 for s in seeds)
    assert bot_seed(7, 1) != 7 * 31 + 1


def test_record_seats_say_who_is_the_person() -> None:
    assert read_seats(["bot:random", "you"], 2) == (1, {0: "random"})
    assert read_seats(["you", "beginner (random)"], 2) == (0, {1: "beginner"})  # older saves
    for seats, words in [
        ([], "names no seats"),
        (["you", "you"], "exactly one seat"),
        (["bot:random", "bot:greedy"], "exactly one seat"),
        (["you", "Bob"], "neither 'you' nor a bot"),
    ]:
        with pytest.raises(RecordError, match=words):
            read_seats(seats, 2)


def test_a_failing_bot_ends_the_session_but_not_the_game(tmp_path: Path) -> None:
    class Broken:
        def choose(self, game: object, view: object) -> str:
            raise RuntimeError("lost its process")

    path = tmp_path / "g.json"
    con, out = console(width=200)
    g = TerminalGame(
        new_record("board", 2, 0, ["beginner"], 3, {}),
        con,
        read=scripted(["pass"]),
        autosave=path,
        spawn=lambda spec, seed: Broken(),
    )
    assert g.run() == 1
    assert "seat 1 (beginner (softmax:0.5)) failed: lost its process" in out.getvalue()
    assert GameRecord.loads(path.read_text()).actions == ["pass"]


END_WORDS = {
    "en": ("final scoring", "weakest first", "you are placed {place} of 2"),
    "de": ("Schlusswertung", "schwächste zuerst", "du bist auf Platz {place} von 2"),
}
WINNERS = {
    "en": ("You win!", "seat 1 wins!", "share the win!"),
    "de": ("Du gewinnst!", "Platz 1 gewinnt!", "gewinnen gemeinsam!"),
}


@pytest.mark.parametrize("lang", ["en", "de"])
@pytest.mark.parametrize("game", ["board", "cards"])
def test_the_end_explains_the_final_scoring(game: str, lang: str, tmp_path: Path) -> None:
    path = tmp_path / "g.json"
    con, out = console(width=120)
    holder: dict[str, TerminalGame] = {}
    g = TerminalGame(
        new_record(game, 2, 0, ["random"], 21, {}),
        con,
        read=_random_player(holder, 2),
        autosave=path if game == "board" else None,  # saving is the same in both games
        lang=lang,
    )
    holder["game"] = g
    assert g.run() == 0
    text = out.getvalue()
    out_ = g.state.outcome()
    assert out_ is not None
    title, sorted_, placed = END_WORDS[lang]
    assert title in text and sorted_ in text
    assert placed.format(place=out_.places[0]) in text
    assert any(words in text for words in WINNERS[lang])
    if game == "board":
        saved = GameRecord.loads(path.read_text())
        assert saved.outcome == out_.to_json()
        assert last_unfinished(tmp_path) is None


def test_an_autosave_that_fails_warns_once_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import euphrates.terminal.game as game_module

    def refuse(path: Path, text: str, durable: bool = True) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(game_module, "write_atomically", refuse)
    con, out = console(width=200)
    g = TerminalGame(
        new_record("board", 2, 0, ["beginner"], 3, {}),
        con,
        read=scripted(["pass", "pass", "quit"]),
        autosave=tmp_path / "g.json",
    )
    assert g.run() == 0
    text = out.getvalue()
    assert text.count("could not save the game to") == 1 and "Permission denied" in text
    assert g.record.actions.count("pass") == 2
    assert text.rstrip().endswith("the game was not saved")


def test_the_terminal_seats_bots_in_worker_processes() -> None:
    """Item 3: the terminal client's bots run behind the process boundary."""
    from euphrates.bots.remote import RemoteBot
    from euphrates.terminal.seats import spawn_bot

    bot = spawn_bot("beginner", 5)
    assert isinstance(bot, RemoteBot)
    try:
        state = BOARD.new_game(2, 9)
        seat = state.to_move()
        assert seat is not None
        assert bot.choose(BOARD, state.view(seat)) in state.view(seat)["legal"]
    finally:
        bot.close()

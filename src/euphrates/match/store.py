"""A tournament's directory: what it is, and what it has played so far.

    manifest.json     the parameters (game, players, bots, base seed, options, limit)
    results.jsonl     one line per finished game: its result, and its record's file
    game-00012.json   each game's record (game-00012-unfinished.json if it was stopped)

A run that is killed or interrupted loses only the games in progress: each record is
written whole (to a temporary file, then renamed) before its result line is appended,
so a result line always names a complete record. A rerun with the same directory reads
the manifest, refuses parameters that differ (the games would not be one tournament)
and plays only the games without a result line; a last line cut short by a kill is
dropped and its game played again.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from euphrates.core.errors import ArgumentError
from euphrates.match.files import read_text_file, write_atomically

MANIFEST = "manifest.json"
RESULTS = "results.jsonl"
FORMAT = 1


MAX_MANIFEST_BYTES = 1 << 20
MAX_RESULTS_BYTES = 1 << 30
"""A result line is some 300 bytes, so a million games' lines (the most a tournament
plays) fit well within this."""


def write_atomic(path: Path, text: str) -> None:
    """Write `text` to `path` so that a reader sees the old file or the whole new one."""
    write_atomically(path, text, durable=False)


def _need_directory(out_dir: Path) -> None:
    if out_dir.exists() and not out_dir.is_dir():
        raise ArgumentError(f"--out {out_dir} is not a directory")


def read_manifest(out_dir: str | Path) -> dict[str, Any] | None:
    """The parameters of the tournament in `out_dir`, or None if none was started there."""
    _need_directory(Path(out_dir))
    path = Path(out_dir) / MANIFEST
    if not path.exists() and not path.is_symlink():
        return None
    text = read_text_file(path, MAX_MANIFEST_BYTES)
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):
        raise ArgumentError(f"{path} is not a tournament manifest (not JSON)") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ArgumentError(f"{path} is not a tournament manifest of format {FORMAT}")
    return doc


def _show(key: str, value: Any) -> str:
    if key == "entrants":
        return f"bots {','.join(value or [])}"
    if key == "options":
        return f"options {','.join(k for k, v in sorted((value or {}).items()) if v) or 'none'}"
    if key == "max_decisions":
        return f"a limit of {value} decisions"
    return f"{key} {value}"


def check_manifest(out_dir: str | Path, parameters: Mapping[str, Any]) -> None:
    """Refuse to continue the tournament in `out_dir` with other parameters, naming them."""
    path = Path(out_dir)
    found = read_manifest(path)
    if found is None:
        if (path / RESULTS).exists() or any(path.glob("game-*.json")):
            raise ArgumentError(f"{path} holds game records but no {MANIFEST}; use another --out")
        return
    wanted = {"format": FORMAT, **parameters}
    keys = [k for k in wanted if found.get(k) != wanted[k]]
    keys += [k for k in found if k not in wanted]
    if keys:
        there = ", ".join(_show(k, found.get(k)) for k in keys)
        here = ", ".join(_show(k, wanted.get(k)) for k in keys)
        raise ArgumentError(
            f"{path} holds another tournament ({there}, not {here}): continue it with "
            "the same parameters, or use another --out"
        )


_RESULT_KEYS = frozenset(
    ("index", "entrants", "places", "weakest", "seconds", "decisions", "iterations", "record")
)


def _ints(value: object, n: int, low: int, high: float = math.inf) -> bool:
    return (
        isinstance(value, list)
        and len(value) == n
        and all(type(x) is int and low <= x <= high for x in value)
    )


def is_result(doc: object, players: int) -> bool:
    """Whether `doc` is a result line exactly as `Store.add` writes it for a game of
    `players` seats. The directory may have been edited or damaged by hand, and a line
    that is not one is dropped like a line cut short: its game is played again."""
    if not isinstance(doc, dict) or doc.keys() != _RESULT_KEYS:
        return False
    index, places = doc["index"], doc["places"]
    if type(index) is not int or index < 0 or not isinstance(places, list):
        return False
    finished = bool(places)
    name = f"game-{index:05d}.json" if finished else f"game-{index:05d}-unfinished.json"
    seconds = doc["seconds"]
    return (
        doc["record"] == name
        and isinstance(doc["entrants"], list)
        and len(doc["entrants"]) == players
        and all(isinstance(e, str) for e in doc["entrants"])
        and (_ints(places, players, 1, players) if finished else doc["weakest"] == [])
        and (not finished or _ints(doc["weakest"], players, 0))
        and _ints(doc["decisions"], players, 0)
        and _ints(doc["iterations"], players, 0)
        and isinstance(seconds, list)
        and len(seconds) == players
        and all(type(x) in (int, float) and 0 <= x < math.inf for x in seconds)
    )


class Store:
    """The directory of one tournament; creating it checks or writes the manifest."""

    def __init__(self, out_dir: str | Path, parameters: Mapping[str, Any]) -> None:
        self.dir = Path(out_dir)
        self.players = int(parameters["players"])
        check_manifest(self.dir, parameters)
        self.dir.mkdir(parents=True, exist_ok=True)
        if read_manifest(self.dir) is None:
            doc = {"format": FORMAT, **parameters}
            write_atomic(self.dir / MANIFEST, json.dumps(doc, indent=1) + "\n")

    def finished(self) -> dict[int, dict[str, Any]]:
        """The result lines so far by game index (a line cut short by a kill is dropped,
        and the file rewritten without it so that appending stays line by line)."""
        for stale in self.dir.glob(".*.tmp"):  # a write a kill cut short
            stale.unlink(missing_ok=True)
        path = self.dir / RESULTS
        if not path.exists():
            return {}
        text = read_text_file(path, MAX_RESULTS_BYTES)
        done: dict[int, dict[str, Any]] = {}
        kept: list[str] = []
        for line in text.splitlines():
            try:
                doc = json.loads(line)
            except ValueError:
                continue
            if not is_result(doc, self.players) or not (self.dir / doc["record"]).exists():
                continue
            done[doc["index"]] = doc
            kept.append(line)
        rewritten = "".join(f"{line}\n" for line in kept)
        if rewritten != text:
            write_atomic(path, rewritten)
        return done

    def record_path(self, name: str) -> str:
        return str(self.dir / name)

    def add(self, result: Mapping[str, Any], record_name: str, record_text: str) -> None:
        """Keep one finished game: its record first, then its result line."""
        write_atomic(self.dir / record_name, record_text)
        line = json.dumps({**result, "record": record_name}, separators=(",", ":"))
        with open(self.dir / RESULTS, "a", encoding="utf-8") as f:
            f.write(line + "\n")

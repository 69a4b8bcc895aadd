"""Where terminal games are kept, so that none is lost.

Every game is saved after every move into the user's data directory
(`platformdirs.user_data_dir("euphrates")/games`, or `$EUPHRATES_DATA_DIR/games`), as a
record written to a temporary file and moved into place, so a crash or Ctrl-C leaves
either the old record or the new one, never half of one. A finished game has its
`outcome`; `euphrates play --resume` without a file continues the newest game without one.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import time
from pathlib import Path

from euphrates.core.errors import EuphratesError, RecordError
from euphrates.match.files import read_text_file, user_path
from euphrates.match.records import GameRecord

DATA_DIR_VARIABLE = "EUPHRATES_DATA_DIR"
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""A record of even the longest game is far smaller; anything bigger is not a record."""


def data_dir() -> Path:
    """The user's data directory, or `$EUPHRATES_DATA_DIR` (ArgumentError if it names a
    `~user` without a home)."""
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return user_path(override, f"{DATA_DIR_VARIABLE}=")
    import platformdirs

    return Path(platformdirs.user_data_dir("euphrates"))


def games_dir() -> Path:
    return data_dir() / "games"


def new_game_path(game: str, directory: Path | None = None) -> Path:
    """A fresh file name for a new game: `<date>-<time>-<game>.json` (a suffix when two
    games start in one second)."""
    base = directory or games_dir()
    base.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(1, 1000):
        name = f"{stamp}-{game}.json" if n == 1 else f"{stamp}-{game}-{n}.json"
        path = base / name
        try:
            with open(path, "x", encoding="utf-8"):
                pass  # claim the name; the first save fills it
            return path
        except FileExistsError:
            continue
    raise OSError(f"no free file name for a new game in {base}")


def read_record(path: str | Path) -> GameRecord:
    """A record from a file; every way the file can be wrong is an error naming it, never
    a traceback or a wait: ArgumentError for what is no regular file (a FIFO, a device,
    a directory) or a `~user` without a home, RecordError for a file too large or not a
    record, OSError for one that cannot be read."""
    p = user_path(path)
    text = read_text_file(p, MAX_RECORD_BYTES)
    try:
        return GameRecord.loads(text)
    except RecursionError:
        raise RecordError(f"{p}: not a game record (JSON nested too deeply)") from None
    except MemoryError:
        raise RecordError(f"{p}: not a game record (too large)") from None
    except RecordError as e:
        raise RecordError(f"{p}: {e}") from None


def is_unfinished(path: Path) -> bool:
    """Whether `path` holds a game saved by the terminal and not yet over."""
    try:
        doc = json.loads(read_text_file(path, MAX_RECORD_BYTES))
    except (OSError, ValueError, EuphratesError, RecursionError, MemoryError):
        return False
    return isinstance(doc, dict) and doc.get("outcome") is None and bool(doc.get("seats"))


def last_unfinished(directory: Path | None = None) -> Path | None:
    """The most recently saved unfinished game, or None."""
    base = directory or games_dir()
    found: list[tuple[int, str, Path]] = []
    try:
        for p in base.glob("*.json"):
            with contextlib.suppress(OSError):
                st = p.stat()
                if stat.S_ISREG(st.st_mode) and st.st_size:
                    found.append((st.st_mtime_ns, p.name, p))
    except OSError:
        return None
    for _, _, path in sorted(found, reverse=True):
        if is_unfinished(path):
            return path
    return None

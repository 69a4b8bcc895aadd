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
import tempfile
import time
from pathlib import Path

from euphrates.core.errors import RecordError
from euphrates.match.records import GameRecord

DATA_DIR_VARIABLE = "EUPHRATES_DATA_DIR"
MAX_RECORD_BYTES = 16 * 1024 * 1024
"""A record of even the longest game is far smaller; anything bigger is not a record."""


def data_dir() -> Path:
    override = os.environ.get(DATA_DIR_VARIABLE)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("euphrates"))


def games_dir() -> Path:
    return data_dir() / "games"


def write_atomically(path: Path, text: str, durable: bool = True) -> None:
    """Write `text` to `path` through a temporary file in the same directory and
    `os.replace`, so the file at `path` is always a whole record. `durable` also waits
    for the disk (fsync), which costs milliseconds: the autosave skips it for the bots'
    moves between two of the person's, which a replay would recreate anyway."""
    directory = path.parent
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


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
    """A record from a file; every way the file can be wrong is a RecordError (or an
    OSError) naming the file, never a traceback."""
    p = Path(path).expanduser()
    try:
        if p.is_dir():
            raise RecordError(f"{p} is a directory, not a game record")
        size = p.stat().st_size
        if size > MAX_RECORD_BYTES:
            raise RecordError(f"{p}: {size} bytes is too large for a game record")
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{p}: not a game record (not UTF-8 text)") from None
    except OSError as e:
        raise OSError(f"cannot read {p}: {e.strerror or e}") from None
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
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError, MemoryError):
        return False
    return isinstance(doc, dict) and doc.get("outcome") is None and bool(doc.get("seats"))


def last_unfinished(directory: Path | None = None) -> Path | None:
    """The most recently saved unfinished game, or None."""
    base = directory or games_dir()
    try:
        files = [p for p in base.glob("*.json") if p.is_file()]
    except OSError:
        return None
    files.sort(key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)
    for path in files:
        if path.stat().st_size and is_unfinished(path):
            return path
    return None

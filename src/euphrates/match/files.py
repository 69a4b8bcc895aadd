"""Files named by the person at the command line or the terminal: records, tournament
directories, the data directory.

A name comes from outside, so it may be anything: `~user` with no such user, a FIFO
(opening it for reading waits for a writer for ever), a device (`/dev/zero` never ends),
a directory. Reading takes regular files only, opened without blocking and read up to a
bound; writing goes through a temporary file moved into place, and never over what is
not a regular file (as root, moving a file over `/dev/null` would replace the device).
Each refusal is one error naming the path: ArgumentError for a name that cannot be
meant (exit status 2), RecordError for a file too large or not text, OSError for what
the system refused.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from euphrates.core.errors import ArgumentError, RecordError

_KINDS = (
    (stat.S_ISDIR, "directory"),
    (stat.S_ISFIFO, "FIFO (named pipe)"),
    (stat.S_ISCHR, "character device"),
    (stat.S_ISBLK, "block device"),
    (stat.S_ISSOCK, "socket"),
)
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
"""Opening a FIFO for reading blocks until a writer comes, unless non-blocking; a
terminal device must not become ours. Both only matter for what is then refused."""


def file_kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "special file"


def user_path(text: str | Path, what: str = "") -> Path:
    """`text` as a path, `~` and `~user` expanded. `what` names where it came from
    (``"--record "``, ``"EUPHRATES_DATA_DIR="``) for the message: a `~user` without a
    home is an ArgumentError, where `Path.expanduser` raises RuntimeError."""
    if "\x00" in str(text):
        raise ArgumentError(f"{what}{str(text)!r}: a path cannot hold a NUL character")
    try:
        return Path(text).expanduser()
    except RuntimeError:
        first = Path(text).parts[0]
        who = f"no user {first[1:]!r}" if len(first) > 1 else "no home directory"
        raise ArgumentError(
            f"{what}{text}: there is {who} to expand {first}; write the path in full"
        ) from None


def _need_regular(mode: int, path: Path, what: str) -> None:
    if not stat.S_ISREG(mode):
        raise ArgumentError(f"{what}{path} is a {file_kind(mode)}, not a regular file")


def read_text_file(path: Path, limit: int, what: str = "") -> str:
    """The UTF-8 text of the regular file at `path`, refused if it is larger than
    `limit` bytes. The bound holds while reading (a file in /proc says it is empty, and a
    file may grow after its size was asked), and the type is checked again on the file
    opened, in case another was put in its place meanwhile."""
    try:
        _need_regular(os.stat(path).st_mode, path, what)
        fd = os.open(path, _OPEN_FLAGS)
        with os.fdopen(fd, "rb") as f:
            _need_regular(os.fstat(f.fileno()).st_mode, path, what)
            data = f.read(limit + 1)
    except OSError as e:
        raise OSError(f"cannot read {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise RecordError(f"{path}: larger than {limit} bytes, too large to be read")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text") from None


def check_write_target(path: Path, what: str = "") -> None:
    """Refuse to write over what is not a regular file (a directory, a FIFO, a device):
    the write would replace it with a file."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # nothing there (or nothing we may see): the write says what is wrong
    _need_regular(mode, path, what)


def write_atomically(path: Path, text: str, durable: bool = True, what: str = "") -> None:
    """Write `text` to `path` through a temporary file in the same directory and
    `os.replace`, so the file at `path` is always whole. `durable` also waits for the
    disk (fsync), which costs milliseconds: the terminal's autosave skips it for the
    bots' moves between two of the person's, which a replay would recreate anyway."""
    check_write_target(path, what)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
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

"""Files qcards writes (figures, JSON, records, circuits) and the input files it reads (specs,
records), shared by every layer and game.

Every file appears whole or not at all: it is written under a temporary name beside its
destination and renamed onto it (``os.replace``, atomic on POSIX and Windows) only once it is
complete, so Ctrl-C or a crash never leaves a half-written figure, export or record behind.
The rename replaces only a regular file or creates a new one: a device, a FIFO, a directory or
a socket in its place is refused (:class:`~qcards.errors.FileError`), never swapped for a file.
A symbolic link is written through, to the file it points to.

Input files go through :func:`read_text`: a regular file of at most :data:`MAX_INPUT_BYTES`,
checked before it is read, so a FIFO never blocks and a device is never read without end.
JSON records are built with :func:`json_fields` (a record's attributes by name, in order).
Pure Python; matplotlib is imported only to save a figure or check its format.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from qcards.errors import FileError, ParameterError, QcardsError

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PARTIAL_SUFFIX = ".partial"
"""Suffix of the temporary files (removed again if writing fails or is interrupted)."""

WRITTEN: list[Path] = []
"""Every file this process has completed, in order (the CLI's Ctrl-C line counts them)."""


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _kind(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    kinds = (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO (named pipe)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((text for test, text in kinds if test(mode)), "a special file")


def _destination(path: Path) -> Path:
    """The file a write to ``path`` replaces: ``path``, or where a symbolic link leads (the link
    is kept). :class:`FileError` unless that is a regular file or does not exist yet."""
    if path.is_symlink():
        path = Path(os.path.realpath(path))
    try:
        mode = os.stat(path).st_mode
    except OSError:  # no such file yet, or one the write itself will report
        return path
    if not stat.S_ISREG(mode):
        raise FileError(
            f"{path}: {_kind(mode)}, not a regular file; qcards writes only to a regular file "
            "or a new path"
        )
    return path


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed onto ``path`` when the block ends,
    deleted if it raises (``KeyboardInterrupt`` included). Parents are created.

    Raises:
        FileError: ``path`` is a device, a FIFO, a directory or a socket (checked before the
            block and again before the rename).
    """
    path = Path(path)
    target = _destination(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{target.name}.", suffix=PARTIAL_SUFFIX, dir=target.parent
    )
    os.close(handle)
    os.chmod(temporary, 0o666 & ~_umask())  # the mode a plain open() would have given
    try:
        yield Path(temporary)
        os.replace(temporary, _destination(target))
        WRITTEN.append(path)
    except BaseException:
        with suppress(FileNotFoundError):
            os.unlink(temporary)
        raise


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    with atomic_path(path) as temporary:
        temporary.write_text(text, encoding="utf-8")
    return Path(path)


def complete_lines(text: str) -> list[str]:
    """The lines of a file that lines are appended to (:func:`append_line`), without a last
    line cut short by a process stopped while writing it."""
    lines = text.splitlines()
    return lines[:-1] if lines and not text.endswith("\n") else lines


def start_lines(path: str | Path, first: str, text: str | None) -> None:
    """Make ``path`` ready for :func:`append_line`: written with the line ``first`` alone when
    there is no file yet (``text`` None; so a path that cannot be written is found before any
    work), or, when the file's ``text`` ends in a line cut short, rewritten without it."""
    if text is None:
        write_text(path, first + "\n")
    elif not text.endswith("\n"):
        write_text(path, text[: text.rfind("\n") + 1])


def append_line(path: str | Path, line: str) -> None:
    """Append ``line`` to ``path``, flushed to the disk: a process stopped while writing leaves
    at most that line cut short, which :func:`complete_lines` leaves out."""
    with open(path, "a", encoding="utf-8") as f:
        f.write(line + "\n")
        f.flush()
        os.fsync(f.fileno())


def sha256_digest(path: str | Path) -> str | None:
    """The SHA-256 of the file's bytes, in hex (``None``: it cannot be read)."""
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()
    except OSError:
        return None


def figure_format(path: str | Path, parameter: str = "path") -> str:
    """The format a figure at ``path`` is written in: its suffix (``png`` without one); the
    commands call it before their work, so a figure that cannot be written is refused first.

    Raises:
        ParameterError: naming ``parameter``, for a suffix matplotlib cannot write here (the
            message lists the ones it can).
        FileError: ``path`` is not a regular file or a new path (:func:`atomic_path`).
    """
    import shutil

    import matplotlib
    from matplotlib.backend_bases import FigureCanvasBase

    suffix = Path(path).suffix.lstrip(".").lower() or "png"
    formats = set(FigureCanvasBase.get_supported_filetypes())
    if not shutil.which(str(matplotlib.rcParams["pgf.texsystem"])):
        formats.discard("pgf")  # written by running LaTeX
    if suffix not in formats:
        raise ParameterError(
            parameter,
            f"{{{parameter}}} {path}: cannot write a .{suffix} figure (formats: "
            f"{', '.join(sorted(formats))})",
        )
    _destination(Path(path))
    return suffix


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` atomically (parents created) and close it."""
    import matplotlib.pyplot

    path = Path(path)
    try:
        file_format = figure_format(path)
        with atomic_path(path) as temporary:
            fig.savefig(temporary, dpi=110, format=file_format)
    finally:
        matplotlib.pyplot.close(fig)
    return path


MAX_INPUT_BYTES = 2**20
"""The largest spec or record file qcards reads: 1 MiB (the shipped ones are a few KiB)."""


def read_text(
    path: str | Path,
    error: type[QcardsError] = FileError,
    what: str = "file",
    limit: int = MAX_INPUT_BYTES,
) -> str:
    """The UTF-8 text of the input file ``path`` (line ends read as ``\\n``, as
    :meth:`Path.read_text` does).

    The file is checked before it is read: it must be a regular file (a FIFO would block, a
    device such as ``/dev/zero`` never ends) of at most ``limit`` bytes. It is opened without
    blocking and checked again, so a path swapped in between is refused too.

    Raises:
        error: ``"PATH: cannot read WHAT: ..."`` for a missing, special, oversized, unreadable
            or non-UTF-8 file (``error`` is the caller's exception class: a spec's
            :class:`~qcards.errors.SpecError`, a record's own).
    """
    where = f"{path}: cannot read {what}"

    def check(info: os.stat_result) -> None:
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{where}: {_kind(info.st_mode)}, not a regular file")
        if info.st_size > limit:
            raise error(f"{where}: {info.st_size:,} bytes, over the limit of {limit:,}")

    try:
        check(os.stat(path))
        flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
        with os.fdopen(os.open(path, flags), "rb") as handle:
            check(os.fstat(handle.fileno()))
            data = handle.read(limit + 1)
    except FileNotFoundError:
        raise error(f"{where}: no such file") from None
    except OSError as exc:
        raise error(f"{where}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{where}: over the limit of {limit:,} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{where}: not UTF-8 text (byte {exc.start})") from None
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_toml(text: str, source: str, error: type[QcardsError]) -> dict[str, Any]:
    """TOML text as a table, or one ``error`` naming ``source`` and what went wrong: a syntax
    error, nesting deeper than :mod:`tomllib` recurses, or a value Python cannot hold (an
    integer of more than 4300 digits)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: TOML syntax error: {exc}") from None
    except RecursionError:  # tomllib recurses once per nesting level of arrays and tables
        raise error(f"{source}: TOML nested too deeply to read") from None
    except ValueError as exc:
        raise error(f"{source}: TOML value cannot be read: {exc}") from None


def json_fields(
    record: object, names: str, keys: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """``{name: record.name}`` for each of the space-separated attribute ``names``, in their
    order: the plain part of a record's ``to_json()``. ``keys`` renames some, attribute name to
    JSON key."""
    keys = keys or {}
    return {keys.get(name, name): getattr(record, name) for name in names.split()}

"""Files qcards writes (figures, JSON, records, circuits), shared by every layer and game.

Every file appears whole or not at all: it is written under a temporary name beside its
destination and renamed onto it (``os.replace``, atomic on POSIX and Windows) only once it is
complete, so Ctrl-C or a crash never leaves a half-written figure, export or record behind.
Pure Python; matplotlib is imported only to save a figure.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

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


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` to write to; renamed onto ``path`` when the block ends,
    deleted if it raises (``KeyboardInterrupt`` included). Parents are created."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=PARTIAL_SUFFIX, dir=path.parent
    )
    os.close(handle)
    os.chmod(temporary, 0o666 & ~_umask())  # the mode a plain open() would have given
    try:
        yield Path(temporary)
        os.replace(temporary, path)
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


def save_figure(fig: Figure, path: str | Path) -> Path:
    """Write ``fig`` to ``path`` atomically (parents created) and close it."""
    import matplotlib.pyplot

    path = Path(path)
    try:
        with atomic_path(path) as temporary:
            fig.savefig(temporary, dpi=110, format=path.suffix.lstrip(".") or "png")
    finally:
        matplotlib.pyplot.close(fig)
    return path

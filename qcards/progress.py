"""Progress of long work, shown on a terminal and silent everywhere else.

Library code marks its long loops with :func:`track` (an iterable) or :func:`step` (a context
with ``advance``); both cost nothing and print nothing unless a display is active. The CLI
activates one with :func:`display` when stderr is a terminal and neither ``--json`` nor
``--quiet`` was given; the display is a transient :class:`rich.progress.Progress` on stderr,
so stdout (tables, JSON) is never touched and nothing is left behind when the work ends. When
stdout is the same terminal, anything written to it first takes the display off the screen
(:func:`clear`), so results never print below a frozen bar; the next task brings it back.

Written on ``rich`` (bars, spinners, elapsed time, live refresh) rather than by hand; the
game referees import this module without ``rich`` or ``qiskit`` installed: ``rich`` is only
imported when a display starts.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from rich.progress import Progress

T = TypeVar("T")


def duration(seconds: float) -> str:
    """``seconds`` in words at a useful unit: minutes, hours, days or years."""
    if seconds < 2 * 3600:
        return f"{seconds / 60:,.0f} minutes"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:,.0f} hours"
    if seconds < 2 * 31_557_600:
        return f"{seconds / 86400:,.0f} days"
    return f"{seconds / 31_557_600:,.2g} years"


_PROGRESS: ContextVar[Progress | None] = ContextVar("qcards_progress", default=None)


def active() -> bool:
    """Whether a progress display is showing (library code may skip costly counting if not)."""
    return _PROGRESS.get() is not None


def wanted(quiet: bool = False, as_json: bool = False, stream=None) -> bool:
    """The CLI's rule: a display on a terminal, never with ``--quiet`` or ``--json``."""
    stream = sys.stderr if stream is None else stream
    return not quiet and not as_json and bool(getattr(stream, "isatty", lambda: False)())


@contextlib.contextmanager
def display(enabled: bool = True, stream=None) -> Iterator[None]:
    """Show the progress of everything tracked inside the block on ``stream`` (stderr).

    With ``enabled`` false the block runs unchanged and silent.
    """
    if not enabled or active():
        yield
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )

    console = Console(file=stream if stream is not None else sys.stderr, force_terminal=True)
    progress = Progress(
        SpinnerColumn(),
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        # rich's own redirection would send stdout's text to the display's stream (stderr);
        # _ClearingStdout keeps it on stdout and clears the display first
        redirect_stdout=False,
        redirect_stderr=False,
    )
    token = _PROGRESS.set(progress)
    stdout = sys.stdout
    shared = _is_terminal(stdout)
    if shared:
        sys.stdout = _ClearingStdout(stdout)
    try:
        with progress:
            yield
    finally:
        if shared:
            sys.stdout = stdout
        _PROGRESS.reset(token)


def clear() -> None:
    """Take an active display off the screen (its lines erased) until the next task starts.

    Output written to stdout calls this first when stdout is the display's terminal, so a table
    never prints below the last frame of a bar that then stays on the screen.
    """
    progress = _PROGRESS.get()
    if progress is not None and progress.live.is_started:
        progress.stop()


def _is_terminal(stream) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class _ClearingStdout:
    """Standard output while a display shows on the same terminal: each write clears the
    display first (:func:`clear`); everything else is the wrapped stream's."""

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        if text:
            clear()
        return self._stream.write(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


class Step:
    """One task of the display: ``advance(n)`` after each unit of work."""

    def __init__(self, progress, task_id) -> None:
        self._progress, self._task = progress, task_id

    def advance(self, amount: float = 1) -> None:
        if self._progress is not None:
            self._progress.advance(self._task, amount)

    def describe(self, description: str) -> None:
        """Change the task's text (e.g. the current stage)."""
        if self._progress is not None:
            self._progress.update(self._task, description=description)


@contextlib.contextmanager
def step(description: str, total: float | None = None) -> Iterator[Step]:
    """A task on the display for the duration of the block (a spinner if ``total`` is None)."""
    progress = _PROGRESS.get()
    if progress is None:
        yield Step(None, None)
        return
    if not progress.live.is_started:  # cleared for output (clear): shown again
        progress.start()
    task_id = progress.add_task(description, total=total)
    try:
        yield Step(progress, task_id)
    finally:
        progress.remove_task(task_id)


def track(items: Iterable[T], description: str, total: int | None = None) -> Iterator[T]:
    """``items``, advancing a task on the display for each one (unchanged if none shows)."""
    if _PROGRESS.get() is None:
        yield from items
        return
    if total is None:
        try:
            total = len(items)  # type: ignore[arg-type]
        except TypeError:
            total = None
    with step(description, total) as task:
        for item in items:
            yield item
            task.advance()

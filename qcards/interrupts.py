"""Ctrl-C (SIGINT) handling that survives the libraries in between (below all layers).

Two jobs, both with Python-level handlers: Python runs its handlers in the main thread whichever
thread the signal reached, whereas a blocked signal mask holds a signal back for one thread
only, and a Ctrl-C goes to any thread of the process that does not block it (NumPy's BLAS
threads included).

- :func:`noted`: remember that a Ctrl-C came. Qiskit's ``HighLevelSynthesis`` replaces any
  exception raised while it builds a gate's definition, ``KeyboardInterrupt`` included, with a
  ``TranspilerError`` ("unable to synthesize ..."), so the interrupt can arrive at the command
  line as another exception; the note tells it apart from a real error.
- :func:`held_back`: keep a Ctrl-C from landing inside a block (a child process's start) and
  deliver it where the caller chooses.

Both act only in the main thread and only over a Python handler; a SIGINT that is ignored (a
command started in the background of a shell without job control) stays ignored.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


def _python_handler() -> Any:
    """The SIGINT handler if it is a Python callable set in the main thread, else ``None``."""
    if threading.current_thread() is not threading.main_thread():
        return None
    handler = signal.getsignal(signal.SIGINT)
    return handler if callable(handler) else None


@contextmanager
def noted() -> Iterator[list[int]]:
    """For the block, a Ctrl-C raises ``KeyboardInterrupt`` as usual and is also appended to the
    yielded list, which then tells an interrupt that a library turned into another exception."""
    came: list[int] = []
    previous = _python_handler()
    if previous is None:
        yield came
        return

    def note(signum, frame):
        came.append(signum)
        previous(signum, frame)

    signal.signal(signal.SIGINT, note)
    try:
        yield came
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclass
class HeldBack:
    """The Ctrl-C a :func:`held_back` block kept back, and the handler that should have had it."""

    previous: Any = None
    came: list[int] = field(default_factory=list)

    def deliver(self) -> None:
        """Run the previous handler for a Ctrl-C that came (it raises ``KeyboardInterrupt``)."""
        if self.came and self.previous is not None:
            self.came.clear()
            self.previous(signal.SIGINT, None)


@contextmanager
def held_back() -> Iterator[HeldBack]:
    """A Ctrl-C during the block is kept back until :meth:`HeldBack.deliver`; if the block
    raises, it is delivered at once (the Ctrl-C wins over the block's exception)."""
    held = HeldBack(_python_handler())
    if held.previous is None:
        yield held
        return
    signal.signal(signal.SIGINT, lambda signum, frame: held.came.append(signum))
    try:
        yield held
    except BaseException:
        signal.signal(signal.SIGINT, held.previous)
        held.deliver()
        raise
    signal.signal(signal.SIGINT, held.previous)

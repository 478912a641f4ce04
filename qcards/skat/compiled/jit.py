"""The decorator of qcards' compiled searches (:mod:`qcards.skat.solvers.double_dummy.search` and
the fast referee's :mod:`~qcards.skat.solvers.fast_referee.kernel`,
:mod:`~qcards.skat.solvers.fast_referee.tricks` and :mod:`~qcards.skat.solvers.fast_referee.memo`):
numba's ``njit`` with its on-disk cache, or the plain function where numba is not installed
(:data:`HAVE_NUMBA` is then false and the searches run as Python, about 150 times slower).

numba's on-disk cache breaks recursive functions (numba issues #6061 and #6713: a segfault on
the second run), so every search built on this decorator is iterative, with an explicit stack.
The cache also checks only the file of the function it compiled: a cached function that calls
a compiled function of another module keeps the old code after that module is edited (remove
``qcards/skat/__pycache__/*.nb*`` or touch the caller's file).
"""

from __future__ import annotations

from contextlib import AbstractContextManager

KERNELS: list = []
"""Every function compiled through :func:`njit` (numba dispatchers), for :func:`cache_counts`."""

try:  # numba compiles the searches; without it the same code runs as (slow) Python
    from numba import njit as _numba_njit

    def njit(function):
        """Compile ``function`` with numba, cached on disk, releasing the GIL while it runs (so
        threads of one process can run compiled kernels side by side)."""
        dispatcher = _numba_njit(cache=True, nogil=True)(function)
        KERNELS.append(dispatcher)
        return dispatcher

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - numba is installed wherever qcards is tested

    def njit(function):
        return function

    HAVE_NUMBA = False


COMPILING = "compiling qcards' solvers with numba (first use only; `qcards warm-up` does it ahead)"
"""What the progress display shows while numba compiles (:class:`_CompileNotice`)."""


def _compile_notice():
    """A numba event listener (``numba:compile``, numba's event API) that puts
    :data:`COMPILING` on the progress display while the outermost compilation runs, so that a
    fresh install's first answer does not wait behind a bare spinner. Loads from the cache
    fire the same event but last milliseconds; without a display nothing shows."""
    from numba.core import event

    class _CompileNotice(event.Listener):
        def __init__(self) -> None:
            self.depth = 0
            self.shown: AbstractContextManager[object] | None = None

        def on_start(self, _event) -> None:
            self.depth += 1
            if self.depth == 1:
                from qcards.progress import step

                self.shown = step(COMPILING)
                self.shown.__enter__()

        def on_end(self, _event) -> None:
            self.depth -= 1
            if self.depth == 0 and self.shown is not None:
                shown, self.shown = self.shown, None
                shown.__exit__(None, None, None)

    listener = _CompileNotice()
    event.register("numba:compile", listener)
    return listener


NOTICE = _compile_notice() if HAVE_NUMBA else None


def cache_counts() -> tuple[int, int]:
    """(compilations, loads from the on-disk cache) of every :data:`KERNELS` function so far
    in this process, from numba's compile statistics (``Dispatcher.stats``)."""
    compiled = loaded = 0
    for dispatcher in KERNELS:
        stats = dispatcher.stats
        compiled += sum(stats.cache_misses.values())
        loaded += sum(stats.cache_hits.values())
    return compiled, loaded

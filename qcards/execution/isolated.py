"""Long native simulator calls in a child process, so that Ctrl-C stops them at once.

Aer and MQT DDSIM hold Python's global interpreter lock for a whole simulation (figures in
``benchmarks/results/cost-notes.md``), so the ``KeyboardInterrupt`` of a Ctrl-C waits until the call
returns: minutes on a large endgame. A thread cannot help while the lock is held; a process can.
:func:`call` runs a call estimated to take longer than :data:`ISOLATE_AFTER` seconds in a child
process (``multiprocessing``, spawned: a forked child would inherit the parent's OpenMP and Rust
thread pools in an undefined state) and waits for it in short polls, so Ctrl-C terminates the child
and reaches the caller within a poll. Shorter calls run in-process: starting a child costs about two
seconds of imports. The standard library's ``concurrent.futures.ProcessPoolExecutor`` would also
isolate the call, but cancelling a running task does not stop its worker, and a terminated worker
breaks the pool; one ``Process`` a call is what the interrupt needs.

Isolation is the command line's business: only inside :func:`enabled` (``qcards.cli.main``
turns it on) does :func:`call` start a child, and only when the child can start. A spawned
child imports the parent's ``__main__`` script again; a script without an ``if __name__ ==
"__main__":`` guard would run its library calls again in the child, which fails to start its
own child and leaves the parent waiting on a pipe forever. Library calls from a script, a
notebook or ``python -c`` therefore run in-process (Ctrl-C then waits for the simulator).
"""

from __future__ import annotations

import ast
import contextlib
import multiprocessing
import sys
from collections.abc import Callable, Iterator
from functools import cache
from typing import Any

from qcards.errors import ResourceError
from qcards.interrupts import held_back
from qcards.plan import Limits, current_limits, limits

ISOLATE_AFTER = 5.0
"""Calls estimated (:mod:`qcards.execution.budget`) to take longer than this many seconds run in
a child process."""

POLL_SECONDS = 0.1
"""How often the parent checks the child: the longest a Ctrl-C waits."""

_enabled = False


@contextlib.contextmanager
def enabled() -> Iterator[None]:
    """Let :func:`call` isolate long calls inside the block (the command line's setting)."""
    global _enabled
    before, _enabled = _enabled, True
    try:
        yield
    finally:
        _enabled = before


def can_isolate() -> bool:
    """Whether :func:`call` may start a child now: inside :func:`enabled`, not in a daemonic
    process (a pool's worker may not start children), and with a ``__main__`` a spawned child
    can import without running the caller's work again."""
    if not _enabled or multiprocessing.current_process().daemon:
        return False
    path = getattr(sys.modules.get("__main__"), "__file__", None)
    return path is None or _guarded(str(path))


@cache
def _guarded(path: str) -> bool:
    """Whether the script at ``path`` keeps its top-level work behind ``if __name__ ==
    "__main__":`` (its only other statements define things), so a spawned child may import it.
    Unreadable or unparsable: False (run in-process)."""
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return False
    inert = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    for node in tree.body:
        if isinstance(node, inert) or _is_main_guard(node):
            continue
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            continue  # a docstring
        if isinstance(node, ast.Assign | ast.AnnAssign) and _is_constant(node.value):
            continue
        return False
    return True


def _is_main_guard(node: ast.stmt) -> bool:
    if not isinstance(node, ast.If) or not isinstance(node.test, ast.Compare):
        return False
    names = [node.test.left, *node.test.comparators]
    return any(isinstance(n, ast.Name) and n.id == "__name__" for n in names)


def _is_constant(value: ast.expr | None) -> bool:
    return value is None or isinstance(value, ast.Constant)


def call(function: Callable, *args: Any, expected_seconds: float = 0.0) -> Any:
    """``function(*args)``, in a child process when ``expected_seconds`` exceeds
    :data:`ISOLATE_AFTER` and :func:`can_isolate` (``function`` and its arguments must then
    pickle: module-level functions and plain data, circuits included).

    An exception raised in the child is raised again here (a :class:`ResourceError` naming it if
    it cannot be pickled); a child that dies without answering (killed, out of memory) is a
    :class:`ResourceError` naming its exit code. Ctrl-C terminates the child and raises
    ``KeyboardInterrupt`` within :data:`POLL_SECONDS`.
    """
    if expected_seconds <= ISOLATE_AFTER or not can_isolate():
        return function(*args)
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    # the child plans against the caller's limits (a context variable does not cross processes)
    child = context.Process(target=_run, args=(send, function, args, current_limits()), daemon=True)
    # A Ctrl-C inside start() could leave a started child that no handle reaches, running on
    # with the parent's stdout; it is held back until the child is known and raised in the try
    # below, which stops the child.
    with held_back() as held:
        child.start()
    send.close()
    try:
        held.deliver()
        # poll() is also true when the child closed the pipe by dying: recv() then fails
        while not receive.poll(POLL_SECONDS):
            pass
        try:
            ok, value = receive.recv()
        except EOFError:
            child.join()
            raise ResourceError(
                f"the simulator process ended without an answer (exit code {child.exitcode})"
            ) from None
    except BaseException:
        _stop(child)
        raise
    finally:
        receive.close()
    child.join()
    if ok:
        return value
    raise value


def _run(send, function: Callable, args: tuple, caller_limits: Limits) -> None:
    """The child: run the call under the caller's limits and send ``(True, result)`` or
    ``(False, exception)``."""
    try:
        with limits(value=caller_limits):
            message = (True, function(*args))
    except BaseException as exc:  # sent to the parent, which raises it
        message = (False, exc)
    try:
        send.send(message)
    except Exception as exc:  # the result or the exception does not pickle
        send.send((False, ResourceError(f"the simulator's answer could not be sent back: {exc}")))
    finally:
        send.close()


def _stop(child) -> None:
    """Terminate the child, then kill it if it does not end within a second."""
    child.terminate()
    child.join(1.0)
    if child.is_alive():
        child.kill()
        child.join()

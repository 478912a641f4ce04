"""The limits every plan is checked against (the context in force): seconds and bytes.

qcards refuses, before any work, a request planned to run longer than ten minutes (unless
forced) or to hold more memory than a third of this machine (at most 8 GiB: the machine is
shared, and a run keeps copies beside its state). Those two numbers are one :class:`Limits`
value; :func:`limits` sets another inside a ``with`` block (a context variable, so a thread or
a Dask task of the block sees it, and nothing global is patched):

    with qcards.limits(seconds=3600, memory=16 * 2**30):
        qcards.evaluate(spec, method="sparse")
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

GIB = 2**30


def physical_memory() -> int:
    """Bytes of memory of this machine (24 GiB here)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # not a POSIX system: assume a small machine
        return 8 * GIB


@dataclass(frozen=True)
class Limits:
    """What one request may plan to use.

    Attributes:
        seconds: the time a request may plan to run before it is refused unless forced.
        memory: the bytes one exact state, or the samples of one run, may hold (never forced:
            past it the operating system kills the process minutes later).
    """

    seconds: float = 600.0
    memory: float = min(8 * GIB, physical_memory() // 3)

    def __post_init__(self) -> None:
        for field in ("seconds", "memory"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"limits: {field} must be a positive number, got {value!r}")


DEFAULT_LIMITS = Limits()
"""Ten minutes, and a third of the machine's memory up to 8 GiB."""

_LIMITS: ContextVar[Limits] = ContextVar("qcards_limits", default=DEFAULT_LIMITS)


def current_limits() -> Limits:
    """The limits in force (:data:`DEFAULT_LIMITS` outside any :func:`limits` block)."""
    return _LIMITS.get()


@contextmanager
def limits(
    seconds: float | None = None, memory: float | None = None, *, value: Limits | None = None
) -> Iterator[Limits]:
    """Plan against other limits inside the block: ``seconds`` and ``memory`` (bytes) replace
    those in force, or ``value`` replaces both. Yields the limits in force inside."""
    changed = value if value is not None else current_limits()
    if seconds is not None:
        changed = replace(changed, seconds=seconds)
    if memory is not None:
        changed = replace(changed, memory=memory)
    token = _LIMITS.set(changed)
    try:
        yield changed
    finally:
        _LIMITS.reset(token)

"""Former home of the plugin loader, now :mod:`qcards.plugins` (the one loader of every
registry); these names stay as aliases of it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from qcards.plugins import load_group, lookup

R = TypeVar("R")

__all__ = ["lookup", "with_plugins"]


def with_plugins(
    group: str,
    built_in: Iterable[R],
    record_type: type[R],
    what: str = "",
    error: Callable[[str], Exception] | None = None,
    reserved: Iterable[str] = (),
) -> dict[str, R]:
    """:func:`qcards.plugins.load_group` (``what`` and ``error`` are no longer read: every
    broken plugin, and a name taken twice, is a :class:`~qcards.errors.PluginError`)."""
    return load_group(group, built_in, record_type, reserved)

"""Records that other packages add through entry points (standard library only; in the bottom
layer, so the registries of every layer can use it).

Play models, objectives and evaluation methods are records in registries: the built-ins
first, then every entry point of the registry's group that loads a record of the right type
and of its own name. A plugin that fails to load, or loads something else, is an error naming
it; a name already taken by a built-in stays the built-in's.
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

R = TypeVar("R")


def with_plugins(
    group: str,
    built_in: Iterable[R],
    record_type: type[R],
    what: str,
    error: Callable[[str], Exception],
    reserved: Iterable[str] = (),
) -> dict[str, R]:
    """The records by name: ``built_in``, then the entry points of ``group`` (``what`` names
    a record in messages, ``error`` makes the exception a broken plugin raises; ``reserved``
    names no plugin may take)."""
    records: dict[str, Any] = {getattr(r, "name"): r for r in built_in}  # noqa: B009
    taken = set(reserved)
    for entry in importlib.metadata.entry_points(group=group):
        if entry.name in records or entry.name in taken:
            continue
        try:
            record = entry.load()
        except Exception as exc:  # a third party's import error, reported with its name
            raise error(f"the {what} plugin {entry.name!r} failed to load: {exc}") from exc
        if not isinstance(record, record_type) or getattr(record, "name", None) != entry.name:
            raise error(
                f"the entry point {entry.name!r} of {group} must be a qcards "
                f"{record_type.__name__} called {entry.name!r}"
            )
        records[entry.name] = record
    return records


def lookup(
    records: dict[str, R], name: Any, record_type: type[R], unknown: Callable[[], Exception]
) -> R:
    """The record called ``name`` in ``records`` (a record of ``record_type`` is returned as it
    is); ``unknown()`` makes the error for a name that is not there (it names the choices)."""
    if isinstance(name, record_type):
        return name
    try:
        return records[name]
    except (KeyError, TypeError):
        raise unknown() from None

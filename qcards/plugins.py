"""Records that other packages add through entry points: the one loader of every registry
(standard library only; below all layers, so the registries of every layer use it).

Constructions, estimation algorithms, evaluation methods, play models and objectives are
records in registries: qcards' built-ins, then the records named by the entry points of the
registry's group. One rule holds for a name taken twice in any of them: a name that two entry
points of the group provide, or that an entry point shares with a built-in record (or a name
the registry reserves, such as the methods' ``auto``), raises
:class:`~qcards.errors.PluginError` naming the group, the name and every provider. No
provider is skipped and none replaces another. Two entry points naming the same object (one
package seen twice on the path) count as one provider. A plugin that fails to load, or loads
anything but a record of the registry's type called by its entry point's name, is a
:class:`~qcards.errors.PluginError` naming it too.

Reading a group's entry points imports nothing. A record is imported when it is loaded: a
registry's records all at once (:func:`load_group`), or one name at a time
(:func:`entry_points_by_name`, then :func:`load_record`, as the constructions are loaded).
"""

from __future__ import annotations

import importlib.metadata
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from qcards.errors import PluginError

R = TypeVar("R")

BUILT_IN = "qcards' own record"
"""The provider of a built-in (or reserved) name, as the errors write it."""


def provider(entry: importlib.metadata.EntryPoint) -> str:
    """What provides ``entry``, as the errors write it: the object it names and, when known,
    the distribution that declares it (``probe_records:MODEL from probe-records 0.1``)."""
    try:
        dist = getattr(entry, "dist", None)
        name, version = getattr(dist, "name", None), getattr(dist, "version", None)
    except Exception:  # unreadable metadata: the entry point's value still names it
        name = version = None
    if not name:
        return str(entry.value)
    return f"{entry.value} from {name} {version}" if version else f"{entry.value} from {name}"


def _taken(group: str, name: str, providers: list[str]) -> str:
    times = "twice" if len(providers) == 2 else f"{len(providers)} times"
    by = ", by ".join(providers[:-1]) + f" and by {providers[-1]}"
    return (
        f"the name {name!r} in the entry-point group {group} is taken {times}: by {by}; "
        "uninstall or rename all but one"
    )


def entry_points_by_name(
    group: str, built_in: Iterable[str] = ()
) -> dict[str, importlib.metadata.EntryPoint]:
    """The entry points of ``group`` by name, in the order Python lists them (nothing is
    imported). A name that two of them take, or one of them and ``built_in`` (the registry's
    own names), raises :class:`~qcards.errors.PluginError` naming the group, the name and
    every provider."""
    own = set(built_in)
    found: dict[str, list[importlib.metadata.EntryPoint]] = {}
    for entry in importlib.metadata.entry_points(group=group):
        same = found.setdefault(entry.name, [])
        if all(other.value != entry.value for other in same):
            same.append(entry)
    for name, entries in found.items():
        providers = [BUILT_IN] * (name in own) + [provider(e) for e in entries]
        if len(providers) > 1:
            raise PluginError(_taken(group, name, providers))
    return {name: entries[0] for name, entries in found.items()}


def load_record(group: str, entry: importlib.metadata.EntryPoint, record_type: type[R]) -> R:
    """The record ``entry`` (of ``group``) names, imported now: a ``record_type`` called
    ``entry.name``, or :class:`~qcards.errors.PluginError` naming the plugin."""
    plugin = f"the plugin {entry.name!r} of {group} ({provider(entry)})"
    try:
        record = entry.load()
    except Exception as exc:  # a third party's import error, reported with its name
        raise PluginError(f"{plugin} failed to load: {exc}") from exc
    if not isinstance(record, record_type) or getattr(record, "name", None) != entry.name:
        raise PluginError(
            f"{plugin} must be a qcards {record_type.__name__} called {entry.name!r}, "
            f"not {record!r:.80}"
        )
    return record


def load_group(
    group: str, built_in: Iterable[R], record_type: type[R], reserved: Iterable[str] = ()
) -> dict[str, R]:
    """The records by name: ``built_in`` (records with a ``name``), then the record of every
    entry point of ``group``, all loaded now. A plugin name taken twice (by two entry points,
    or by an entry point and a built-in record or a ``reserved`` name) and a broken plugin
    raise :class:`~qcards.errors.PluginError`."""
    records: dict[str, Any] = {getattr(r, "name"): r for r in built_in}  # noqa: B009
    for name, entry in entry_points_by_name(group, (*records, *reserved)).items():
        records[name] = load_record(group, entry, record_type)
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

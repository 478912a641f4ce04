"""A plan of work (:class:`Plan`) and the one function that refuses it (:func:`check`).

Every estimate qcards makes before long work (the referee's positions, the sparse engine's
play paths, a simulator's gates, shots, a game study's first hands) ends in a :class:`Plan`:
what the work is, its seconds and bytes, the sizes the estimate came from and what the user can
do instead. :func:`check` compares it with the limits in force
(:func:`~qcards.plan.context.current_limits`) and writes the refusal, so that every refusal
reads alike and names its way out; :func:`instead` writes the way out.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from qcards.errors import QcardsError, ResourceError
from qcards.plan.context import GIB, Limits, current_limits
from qcards.progress import duration

SAMPLE = "give {shots} to sample the circuit shot by shot at any size"
"""Shot-by-shot sampling answers at any size (:mod:`qcards.execution.shots`)."""
FORCE = "{force} to run it anyway"
CLASSICAL = "use {method} classical"
SMALLER = "a smaller spec"
SPARSE_BACKEND = "use {backend} sparse, which samples the circuit shot by shot at any size"

_MARKER = re.compile(r"\{(\w+)\}")


def instead(ways: tuple[str, ...] | list[str]) -> str:
    """The ways out, as one phrase: ``a, b or c`` (each may name ``{parameter}`` markers)."""
    ways = list(dict.fromkeys(ways))
    if len(ways) <= 1:
        return "".join(ways)
    return f"{', '.join(ways[:-1])} or {ways[-1]}"


@dataclass(frozen=True)
class Plan:
    """The planned cost of one piece of work, computed once, before the work.

    Attributes:
        work: what would run, as the subject of a sentence ("the sparse engine on this
            endgame").
        seconds: the estimated time (0 when not estimated).
        bytes: the estimated peak memory (0 when not estimated).
        paths: the (deal, play path) pairs the work follows, by Knuth's estimate (0 if none).
        states: the rows (basis states) or positions the work holds (0 if not estimated).
        size: the sizes the estimate comes from ("about 861 million play paths at about 1.5
            million a second"), quoted in a refusal.
        time_fits: what would fit in the time limit, if known ("about 90 million play paths").
        memory_fits: what would fit in the memory limit, if known.
        ways: what to do instead, phrases naming ``{parameter}`` markers (:data:`SAMPLE`,
            :data:`CLASSICAL`, :data:`SMALLER`, ...); a time refusal adds :data:`FORCE` last
            (:func:`forced`), so a way names ``{force}`` only to say what forcing does.
    """

    work: str
    seconds: float = 0.0
    bytes: float = 0.0
    paths: float = 0.0
    states: float = 0.0
    size: str = ""
    time_fits: str = ""
    memory_fits: str = ""
    ways: tuple[str, ...] = (SMALLER,)

    def over_memory(self, limits: Limits | None = None) -> bool:
        return self.bytes > (limits or current_limits()).memory

    def over_time(self, limits: Limits | None = None) -> bool:
        return self.seconds > (limits or current_limits()).seconds


def check(plan: Plan, force: bool = False, error: type[QcardsError] = ResourceError) -> Plan:
    """Refuse ``plan`` (``error``, a :class:`~qcards.errors.ResourceError` unless a game names
    its own) when it would hold more memory than the limits allow, or, unless ``force``, run
    longer; returns the plan."""
    limits = current_limits()
    if plan.over_memory(limits):
        reason = (
            f"{plan.work} would need about {memory_size(plan.bytes)}"
            + (f" ({plan.size})" if plan.size else "")
            + f"; the budget is {memory_size(limits.memory)}"
            + (f", {plan.memory_fits}" if plan.memory_fits else "")
        )
        raise _refusal(error, reason, plan.ways)
    if plan.over_time(limits) and not force:
        reason = (
            f"{plan.work} would take about {duration(plan.seconds)}"
            + (f" ({plan.size})" if plan.size else "")
            + f", more than the {duration(limits.seconds)} qcards plans for"
            + (f"; {plan.time_fits} would fit" if plan.time_fits else "")
        )
        raise _refusal(error, reason, forced(plan.ways))
    return plan


def forced(ways: tuple[str, ...]) -> tuple[str, ...]:
    """The ways out of a time refusal: ``ways`` and :data:`FORCE` last, unless a way already
    names ``{force}`` (a refusal names each way out once)."""
    if any("{force}" in way for way in ways):
        return ways
    return (*ways, FORCE)


def memory_size(size: float) -> str:
    """Bytes in words: GiB to one decimal from a tenth of a GiB, else MiB, KiB or bytes."""
    for unit, scale in (("GiB", GIB), ("MiB", 2**20), ("KiB", 2**10)):
        if size >= scale / 10 or unit == "KiB" and size >= 1024:
            return f"{size / scale:,.1f} {unit}"
    return f"{size:,.0f} bytes"


def marked_parameters(text: str) -> tuple[str, ...]:
    """The parameters ``text`` names as ``{parameter}`` markers, sorted, each once."""
    return tuple(sorted(set(_MARKER.findall(text))))


def _refusal(error: type[QcardsError], reason: str, ways: tuple[str, ...]) -> QcardsError:
    advice = instead(ways)
    parameters = marked_parameters(reason + advice)
    if issubclass(error, ResourceError):
        return error(reason, parameters=parameters, advice=advice or None)
    return error(f"{reason}; {advice}" if advice else reason, parameters=parameters)

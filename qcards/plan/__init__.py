"""One plan per request: its cost computed once and checked against one set of limits.

:mod:`~qcards.plan.context` holds the :class:`Limits` in force (ten minutes and a third of the
machine's memory by default; :func:`limits` changes them inside a block),
:mod:`~qcards.plan.refusal` the :class:`Plan` every estimate ends in and :func:`check`, the one
function that refuses work past the limits and writes what to do instead. Below every layer:
the referees, the engines, the simulators and the games all plan through it.
"""

from qcards.plan.context import DEFAULT_LIMITS, GIB, Limits, current_limits, limits
from qcards.plan.refusal import (
    CLASSICAL,
    FORCE,
    SAMPLE,
    SMALLER,
    SPARSE_BACKEND,
    Plan,
    check,
    instead,
)

__all__ = [
    "CLASSICAL",
    "DEFAULT_LIMITS",
    "FORCE",
    "GIB",
    "SAMPLE",
    "SMALLER",
    "SPARSE_BACKEND",
    "Limits",
    "Plan",
    "check",
    "current_limits",
    "instead",
    "limits",
]

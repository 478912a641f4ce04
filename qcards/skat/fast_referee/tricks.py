"""Deprecated alias of :mod:`qcards.skat.solvers.fast_referee.tricks`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.solvers.fast_referee.tricks")

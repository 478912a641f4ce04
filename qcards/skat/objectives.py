"""Deprecated alias of :mod:`qcards.skat.solvers.objectives`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.solvers.objectives")

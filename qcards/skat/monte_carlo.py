"""Deprecated alias of :mod:`qcards.skat.solvers.monte_carlo`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.solvers.monte_carlo")

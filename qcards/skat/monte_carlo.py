"""Deprecated alias of :mod:`qcards.skat.solvers.monte_carlo`, kept for one release."""

from qcards.skat.moved import alias

alias(__name__, "qcards.skat.solvers.monte_carlo")

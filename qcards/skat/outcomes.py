"""Deprecated alias of :mod:`qcards.skat.solvers.outcomes`, kept for one release."""

from qcards.skat.moved import alias

alias(__name__, "qcards.skat.solvers.outcomes")

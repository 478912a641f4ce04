"""Deprecated alias of :mod:`qcards.skat.solvers.plain_referee`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.solvers.plain_referee")

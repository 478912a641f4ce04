"""Deprecated alias of :mod:`qcards.skat.solvers.double_dummy.search`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.solvers.double_dummy.search")

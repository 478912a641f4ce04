"""Deprecated alias of :mod:`qcards.skat.solvers.double_dummy.search`, kept for one release."""

from qcards.skat.moved import alias

alias(__name__, "qcards.skat.solvers.double_dummy.search")

"""Deprecated alias of :mod:`qcards.skat.solvers.adversarial`, kept for one release."""

from qcards.skat.moved import alias

alias(__name__, "qcards.skat.solvers.adversarial")

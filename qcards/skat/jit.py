"""Deprecated alias of :mod:`qcards.skat.compiled.jit`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.compiled.jit")

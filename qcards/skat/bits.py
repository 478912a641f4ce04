"""Deprecated alias of :mod:`qcards.skat.compiled.bits`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.compiled.bits")

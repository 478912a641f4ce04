"""Deprecated alias of :mod:`qcards.skat.openspiel`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.openspiel")

"""Deprecated alias of :mod:`qcards.skat.position.spec`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.position.spec")

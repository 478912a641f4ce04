"""Deprecated alias of :mod:`qcards.skat.rules.turns_kernel`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.rules.turns_kernel")

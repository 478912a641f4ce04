"""Deprecated alias of :mod:`qcards.skat.rules.cards`, kept for one release."""

from qcards.skat.moved import alias

alias(__name__, "qcards.skat.rules.cards")

"""Deprecated alias of :mod:`qcards.skat.rules.cards`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.rules.cards")

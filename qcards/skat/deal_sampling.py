"""Deprecated alias of :mod:`qcards.skat.deals.sample`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.deals.sample")

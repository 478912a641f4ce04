"""Deprecated alias of :mod:`qcards.skat.players.beliefs`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.players.beliefs")

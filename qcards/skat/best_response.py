"""Deprecated alias of :mod:`qcards.skat.players.best_response`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.players.best_response")

"""Deprecated alias of :mod:`qcards.games.time_budget`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.games.time_budget")

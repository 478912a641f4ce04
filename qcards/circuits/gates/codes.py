"""Deprecated alias of :mod:`qcards.circuits.gates.card_code_updates`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.circuits.gates.card_code_updates")

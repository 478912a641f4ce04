"""Deprecated alias of :mod:`qcards.skat.records.game_record`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.records.game_record")

"""Deprecated alias of :mod:`qcards.skat.rules.bidding_rules`, kept for one release."""

from qcards.moved import alias

alias(__name__, "qcards.skat.rules.bidding_rules")

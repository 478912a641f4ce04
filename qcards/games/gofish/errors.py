"""Errors of Quantum Go Fish: moves that break the rules, records that cannot be replayed."""

from qcards.errors import QcardsError


class RuleError(QcardsError, ValueError):
    """A move that breaks the rules of a game (not your turn, a suit you cannot hold, ...)."""


class RecordError(QcardsError, ValueError):
    """A game record that cannot be read or replayed; names the file and the line."""

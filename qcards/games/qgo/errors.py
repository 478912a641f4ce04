"""Errors of Quantum Go."""

from qcards.errors import QcardsError


class QgoError(QcardsError, ValueError):
    """Quantum Go: an illegal move, bad options, or a record line that breaks the rules.

    Errors from a record read ``"FILE, line N: what is wrong"``.
    """

"""Errors of Philosopher Cats."""

from qcards.errors import QcardsError


class CatsError(QcardsError, ValueError):
    """Bad input to Philosopher Cats: an unknown card, a false announcement, bad options."""

"""Deprecated alias of :mod:`qcards.skat.rules.cards`, kept for one release."""

import sys
import warnings

from qcards.skat.rules import cards as _moved

warnings.warn(
    "qcards.skat.cards moved to qcards.skat.rules.cards; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved

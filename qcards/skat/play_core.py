"""Deprecated alias of :mod:`qcards.skat.rules.turns`, kept for one release."""

import sys
import warnings

from qcards.skat.rules import turns as _moved

warnings.warn(
    "qcards.skat.play_core moved to qcards.skat.rules.turns; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved

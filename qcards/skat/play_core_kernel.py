"""Deprecated alias of :mod:`qcards.skat.rules.turns_kernel`, kept for one release."""

import sys
import warnings

from qcards.skat.rules import turns_kernel as _moved

warnings.warn(
    "qcards.skat.play_core_kernel moved to qcards.skat.rules.turns_kernel;"
    " the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved

"""Deprecated alias of :mod:`qcards.skat.rules.scoring`, kept for one release."""

import sys
import warnings

from qcards.skat.rules import scoring as _moved

warnings.warn(
    "qcards.skat.scoring moved to qcards.skat.rules.scoring; the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved

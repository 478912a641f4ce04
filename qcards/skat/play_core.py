"""Deprecated alias of :mod:`qcards.skat.rules.play_core`, kept for one release."""

import sys
import warnings

from qcards.skat.rules import play_core as _moved

warnings.warn(
    "qcards.skat.play_core moved to qcards.skat.rules.play_core;"
    " the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved

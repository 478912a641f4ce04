"""Deprecated alias of :mod:`qcards.skat.rules.rule_tables`, kept for one release."""

import sys
import warnings

from qcards.skat.rules import rule_tables as _moved

warnings.warn(
    "qcards.skat.rule_tables moved to qcards.skat.rules.rule_tables;"
    " the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved

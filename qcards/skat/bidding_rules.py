"""Deprecated alias of :mod:`qcards.skat.rules.bidding_rules`, kept for one release."""

import sys
import warnings

from qcards.skat.rules import bidding_rules as _moved

warnings.warn(
    "qcards.skat.bidding_rules moved to qcards.skat.rules.bidding_rules;"
    " the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)
sys.modules[__name__] = _moved

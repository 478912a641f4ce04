"""Deprecated alias of :mod:`qcards.skat.deals.count`, kept for one release.

The module holds the multinomial count of deals.
"""

import warnings

from qcards.skat.deals.count import multinomial

__all__ = ["multinomial"]

warnings.warn(
    "qcards.skat.deal_count moved to qcards.skat.deals.count;"
    " the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)

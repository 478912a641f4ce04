"""Deprecated alias of :mod:`qcards.skat.deals.sample`, kept for one release.

The module holds deals drawn at random by their probabilities.
"""

import warnings

from qcards.skat.deals.sample import (
    ReceiverTable,
    chunks,
    deal_stream,
    fresh_seed,
    sample_owners,
    sample_receivers,
    spec_receiver_table,
)

__all__ = [
    "ReceiverTable",
    "chunks",
    "deal_stream",
    "fresh_seed",
    "sample_owners",
    "sample_receivers",
    "spec_receiver_table",
]

warnings.warn(
    "qcards.skat.deal_sampling moved to qcards.skat.deals.sample;"
    " the old name goes in the next release",
    DeprecationWarning,
    stacklevel=2,
)

"""How many deals there are: the multinomial coefficient, the one place it is computed.

The Skat referee's deal count (Sec. VIII's N, Eq. 32), the uniform prior's partition function,
the multinomial deal gate's and Quantum Go Fish's count of a suit's deals all ask it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Protocol


class Dealt(Protocol):
    """What :func:`num_deals` reads of a spec (:class:`qcards.skat.position.spec.Endgame`, which
    imports the prior and so this module: a Protocol keeps the import one-way)."""

    @property
    def receivers(self) -> tuple[str, ...]: ...
    @property
    def sizes(self) -> Mapping[str, int]: ...


def multinomial(sizes: Iterable[int]) -> int:
    """The ways to deal ``sum(sizes)`` distinct cards to receivers taking ``sizes`` of them:
    ``(sum sizes)! / prod(size!)``, as a product of binomials (exact integers)."""
    count, dealt = 1, 0
    for size in sizes:
        if size < 0:
            raise ValueError(f"a receiver cannot take {size} cards")
        dealt += size
        count *= math.comb(dealt, size)
    return count


def num_deals(spec: Dealt) -> int:
    """How many deals :func:`~qcards.skat.deals.enumeration.deals` yields: the multinomial of
    the receivers' sizes (the Skat is one of the receivers: the deal is uniform over the
    players' hands and the Skat).
    Sec. VIII's N (Eq. 32) for the paper's games."""
    return multinomial(spec.sizes[receiver] for receiver in spec.receivers)

"""How a polynomial deal is prepared, and what it costs, without building it (no Qiskit).

The plan of :class:`~qcards.circuits.gates.dicke.MultinomialDealGate` (which receiver gets which
owner code, and the Dicke and subset-Dicke step of every group of cards), the CX count of its
building blocks, and the clean ancillas it needs. Kept apart from the gates so that a game
circuit's width (:func:`multinomial_ancillas`, read by the construction records) is known
without importing Qiskit.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

# CX cost of the building blocks, as Qiskit lowers them to {cx, u} (checked by the tests).
_CX_SCS_FIRST = 4  # CX . CRY . CX, the CRY as a 1-control UCRY (2 CX)
_CX_SCS_OTHER = 6  # CX . CCRY . CX, the CCRY as a 2-control UCRY (4 CX)
_CX_FREDKIN = 8


def dicke_cx(n: int, k: int) -> int:
    """CX count of :class:`~qcards.circuits.gates.dicke.DickeGate` ``(n, k)``."""
    k = min(k, n - k)
    if k <= 0:
        return 0
    shifts = (n - k) * (_CX_SCS_FIRST + _CX_SCS_OTHER * (k - 1))
    shifts += sum(_CX_SCS_FIRST + _CX_SCS_OTHER * (m - 2) for m in range(2, k + 1))
    return shifts


def routing_swaps(n: int, m: int) -> list[int]:
    """For each position j: how far the ancilla register is shifted (swaps after the first).

    Before position j at least ``j - (n - m)`` marked positions have been passed, and the
    ancillas they consumed sit, cleared, at the top of the register; those need no shifting.
    """
    return [m - 1 - max(0, j - (n - m)) for j in range(n)]


def subset_dicke_cx(n: int, m: int, k: int) -> int:
    """CX count of :class:`~qcards.circuits.gates.dicke.SubsetDickeGate` ``(n, m, k)``."""
    if k == 0:
        return 0
    if k == m:
        return n
    return dicke_cx(m, k) + _CX_FREDKIN * sum(1 + s for s in routing_swaps(n, m))


@dataclass(frozen=True)
class DealPlan:
    """How a deal is prepared: each receiver's code, and the (Subset)Dicke step of every group.

    Attributes:
        codes: the code prepared for each receiver (same order as ``sizes``).
        steps: ``(bit, prefix, marked, weight)``: among the cards whose bits above ``bit`` equal
            ``prefix`` (``marked`` of them; all cards for the top bit), ``weight`` get ``bit``.
    """

    codes: tuple[int, ...]
    steps: tuple[tuple[int, int, int, int], ...]

    def routed_ancillas(self, width: int) -> int:
        """Ancillas for the routed Dicke states: the largest routed group."""
        return max((m for b, _, m, k in self.steps if b < width - 1 and 0 < k < m), default=0)

    def ancillas(self, num_cards: int, width: int) -> int:
        """Clean ancillas of the deal: the largest routed group, and below the second bit one
        marker per card (a group there is marked by several higher bits)."""
        return self.routed_ancillas(width) + (num_cards if width > 2 else 0)

    def cost(self, num_cards: int, width: int) -> int:
        """CX count of the plan: exact for width <= 2, an estimate beyond (marker MCX)."""
        total = 0
        for bit, _prefix, m, k in self.steps:
            if bit == width - 1:
                total += dicke_cx(num_cards, k)
            else:
                total += subset_dicke_cx(num_cards, m, k)
                if bit < width - 2 and k:
                    total += 2 * 6 * num_cards  # marking the group: a Toffoli per card, twice
        if list(self.codes) != list(range(len(self.codes))):
            total += 3 * num_cards  # the relabelling, at most 3 CX per 2-bit code
        return total


def plan_deal(sizes: Sequence[int], width: int) -> DealPlan:
    """The cheapest assignment of codes to receivers (by :meth:`DealPlan.cost`)."""
    best = None
    for codes in itertools.permutations(range(2**width), len(sizes)):
        plan = _plan_for(sizes, width, codes)
        key = (plan.cost(sum(sizes), width), plan.codes)
        if best is None or key < best[0]:
            best = (key, plan)
    # check_deal_shape leaves 2**width codes for the receivers: some assignment was tried
    return cast("tuple[object, DealPlan]", best)[1]


def _plan_for(sizes: Sequence[int], width: int, codes: Sequence[int]) -> DealPlan:
    steps = []
    for bit in range(width - 1, -1, -1):
        prefixes = sorted({c >> (bit + 1) for c in codes})
        for prefix in prefixes:
            group = [s for s, c in zip(sizes, codes, strict=True) if c >> (bit + 1) == prefix]
            ones = sum(
                s
                for s, c in zip(sizes, codes, strict=True)
                if c >> (bit + 1) == prefix and (c >> bit) & 1
            )
            steps.append((bit, prefix, sum(group), ones))
    return DealPlan(tuple(codes), tuple(steps))


def multinomial_ancillas(sizes: Sequence[int], width: int) -> int:
    """Clean ancillas of the multinomial deal of ``sizes`` on ``width``-qubit owner registers
    (:meth:`DealPlan.ancillas` of its plan)."""
    return plan_deal(sizes, width).ancillas(sum(sizes), width) if width else 0

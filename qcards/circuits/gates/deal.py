"""The deal gate of a spec: uniform (Eq. 1) or weighted by the spec's prior.

One place decides which gate prepares a spec's deal of the unknown cards, so that every
construction deals the same state:

* uniform prior: :class:`~qcards.circuits.gates.states.DealGate` (the paper's exponential
  reference) or :class:`~qcards.circuits.gates.dicke.MultinomialDealGate` (polynomial);
* any other prior (:mod:`qcards.skat.prior`): the same reference with the weighted amplitudes,
  or :class:`~qcards.circuits.gates.weighted_deal.WeightedDealGate` (polynomial: conditional
  rotations whose angles come from the prior's partition sums). Forbidden cards get weight 0,
  so the constraints are dealt exactly, never post-selected.
"""

from __future__ import annotations

from qiskit.circuit import Gate

from qcards.circuits.gates.dicke import MultinomialDealGate
from qcards.circuits.gates.states import DealGate, Tally
from qcards.circuits.gates.weighted_deal import WeightedDealGate
from qcards.skat.spec import Endgame


def deal_sizes(spec: Endgame) -> tuple[int, ...]:
    """Cards each receiver gets, in :attr:`~qcards.skat.spec.Endgame.receivers` order."""
    return tuple(spec.sizes[r] for r in spec.receivers)


def prior_tables(spec: Endgame) -> tuple[list[list], tuple[Tally, ...]]:
    """The spec's prior as the deal gates' ``weights`` (unknown card x receiver) and
    :class:`Tally` factors."""
    weights, tallies = spec.prior.tables(spec)
    return weights, tuple(Tally(r, cards, factors) for r, cards, factors in tallies)


def deal_gate(spec: Endgame, width: int, polynomial: bool) -> Gate:
    """The gate preparing ``spec``'s deal on its owner registers (``width`` qubits per card).

    ``polynomial`` picks the polynomial construction over the exponential reference.
    """
    sizes = deal_sizes(spec)
    if spec.prior.is_uniform:
        return (MultinomialDealGate if polynomial else DealGate)(sizes, width)
    weights, tallies = prior_tables(spec)
    if polynomial:
        return WeightedDealGate(sizes, width, weights, tallies)
    return DealGate(sizes, width, weights=weights, tallies=tallies)

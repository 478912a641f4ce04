"""Every deal of the unknown cards, known cards included, and each deal's exact probability
(uniform, or weighted by the spec's prior, :mod:`qcards.skat.position.prior`): what the exact
referee (:mod:`qcards.skat.solvers.plain_referee`) and the tests' brute forces sum over."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from fractions import Fraction

from qcards.skat.deals.count import num_deals
from qcards.skat.position.prior import partition_function
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card


def deals(spec: Endgame) -> Iterator[dict[Card, str]]:
    """Every deal as a map card -> player (or :data:`SKAT`), known cards included.

    Every deal the receivers' sizes allow, whatever the prior (see :func:`weighted_deals`).
    """
    known = {c: p for p in spec.players for c in spec.hands[p]}

    def assign(cards: tuple[Card, ...], receivers: tuple[str, ...]) -> Iterator[dict[Card, str]]:
        if not receivers:
            yield {}
            return
        first, rest = receivers[0], receivers[1:]
        for chosen in itertools.combinations(cards, spec.sizes[first]):
            remaining = tuple(c for c in cards if c not in chosen)
            for tail in assign(remaining, rest):
                yield {**{c: first for c in chosen}, **tail}

    for unknown in assign(spec.unknown, spec.receivers):
        yield {**known, **unknown}


def weighted_deals(spec: Endgame) -> Iterator[tuple[dict[Card, str], Fraction]]:
    """Every deal of positive probability with its exact probability.

    Uniform prior: every deal, each with probability 1/:func:`num_deals`. Otherwise each
    deal's weight :meth:`~qcards.skat.position.prior.Prior.deal_weight` over the partition function
    Z (:func:`~qcards.skat.position.prior.partition_function`); deals of weight 0 are skipped.
    """
    if spec.prior.is_uniform:
        probability = Fraction(1, num_deals(spec))
        for owner in deals(spec):
            yield owner, probability
        return
    z = partition_function(spec)
    weight_of = spec.prior.weigher(spec)
    for owner in deals(spec):
        weight = weight_of(owner)
        if weight:
            yield owner, weight / z

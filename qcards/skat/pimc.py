"""The adversarial model at any size: double dummy over every deal, or over sampled deals.

The referee's adversarial model (:mod:`qcards.skat.referee`) plays each deal open: the declarer
maximises, the defenders minimise. :func:`exact_double_dummy` gives the same exact numbers with
the compiled double-dummy solver (:mod:`qcards.skat.double_dummy`) on every deal of the prior;
:func:`pimc_chunk` solves deals drawn by their probabilities instead: perfect-information Monte
Carlo (PIMC), the standard evaluation of Skat play since Kupferschmid and Helmert (2006).

What PIMC over-estimates: each sampled deal is solved as if every player saw every card, so
the declarer's value is that of a clairvoyant declarer against clairvoyant defenders. A real
declarer must choose one card for all the deals he cannot tell apart (strategy fusion), and
information that play reveals is given for free; both make the double-dummy value an upper
bound, in expectation, of what the declarer achieves, often by a few per cent of win rate in
suit games. The defenders are clairvoyant too, which pulls the other way, less strongly. The
exact value of the imperfect-information game is neither this nor the random model.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from qcards.skat.cards import Card
from qcards.skat.deal_sampling import deal_stream, sample_owners, spec_receiver_table
from qcards.skat.declaration import deal_matadors
from qcards.skat.double_dummy.outcome import DoubleDummyOutcome, deal_outcome
from qcards.skat.double_dummy.solver import DoubleDummyValue, solve_deal
from qcards.skat.referee import weighted_deals
from qcards.skat.spec import Endgame

PIMC_CHUNK = 4
"""Deals solved per chunk (one Dask task each): a full deal takes about a second."""


@dataclass(frozen=True)
class DoubleDummyAverage:
    """The adversarial model's exact figures over every deal of positive probability.

    Attributes:
        p_win: the probability that the declarer wins double dummy.
        expected_points: the declarer's expected card points under minimax on points.
        num_deals: the deals solved.
        outcomes: a declared game's outcomes (points, tricks, matadors; :func:`deal_outcome`)
            with their probabilities, which every score objective averages exactly; ``None``
            without a declaration.
    """

    p_win: Fraction
    expected_points: Fraction
    num_deals: int
    outcomes: dict[tuple[int, int, int], Fraction] | None = None


def exact_double_dummy(spec: Endgame, first: Card | None = None) -> DoubleDummyAverage:
    """The adversarial model's exact figures, every deal of positive probability solved once
    (with the trick searches of :func:`deal_outcome` in a declared game)."""
    p_win, points, deals = Fraction(0), Fraction(0), 0
    outcomes: dict[tuple[int, int, int], Fraction] | None = None
    if spec.declaration is not None:
        outcomes = {}
    value: DoubleDummyValue | DoubleDummyOutcome
    for owner, probability in weighted_deals(spec):
        if outcomes is None:
            value = solve_deal(spec, owner, first)
        else:
            value = deal_outcome(spec, owner, first)
            key = (value.points, value.tricks, deal_matadors(spec.declaration, owner))
            outcomes[key] = outcomes.get(key, Fraction(0)) + probability
        p_win += probability * int(value.wins)
        points += probability * value.points
        deals += 1
    return DoubleDummyAverage(p_win, points, deals, outcomes)


def exact_levels(spec: Endgame, first: Card | None = None) -> dict[tuple[int, int, int], Fraction]:
    """A declared game's double-dummy outcomes over every deal with their probabilities, the
    points standing for their level (``deal_outcome(..., points=False)``): every score's
    exact average, faster than :func:`exact_double_dummy`, without the expected points."""
    outcomes: dict[tuple[int, int, int], Fraction] = {}
    for owner, probability in weighted_deals(spec):
        value = deal_outcome(spec, owner, first, points=False)
        key = (value.points, value.tricks, deal_matadors(spec.declaration, owner))
        outcomes[key] = outcomes.get(key, Fraction(0)) + probability
    return outcomes


def pimc_chunk(
    spec: Endgame, first: Card | None, seed: int, chunk: tuple[int, int], points: bool = True
) -> tuple[np.ndarray, ...]:
    """The double-dummy points and wins of chunk ``chunk = (index, deals)``'s sampled deals,
    and in a declared game their tricks and matadors (:func:`deal_outcome`; ``points`` false:
    levels only, the points standing for them); module level, so Dask can run it. Its deals
    are those every sampled method of ``seed`` draws for that chunk
    (:func:`~qcards.skat.deal_sampling.deal_stream`)."""
    index, count = chunk
    owners = sample_owners(spec, deal_stream(seed, index), count, spec_receiver_table(spec))
    if spec.declaration is None:
        values = [solve_deal(spec, owner, first) for owner in owners]
        return (
            np.array([v.points for v in values], dtype=np.int64),
            np.array([v.wins for v in values], dtype=bool),
        )
    outcomes = [deal_outcome(spec, owner, first, points) for owner in owners]
    return (
        np.array([v.points for v in outcomes], dtype=np.int64),
        np.array([v.wins for v in outcomes], dtype=bool),
        np.array([v.tricks for v in outcomes], dtype=np.int64),
        np.array([deal_matadors(spec.declaration, o) for o in owners], dtype=np.int64),
    )

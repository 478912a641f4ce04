"""The adversarial model on sampled deals: perfect-information Monte Carlo.

The adversarial model plays each deal open: the declarer maximises, the defenders minimise; its
exact value over every deal is :mod:`qcards.skat.solvers.minimax`'s. :func:`pimc_chunk` solves
deals drawn by their probabilities instead, with the compiled double-dummy solver
(:mod:`qcards.skat.solvers.double_dummy`): perfect-information Monte Carlo (PIMC), the standard
evaluation of Skat play since Kupferschmid and Helmert (2006).

What PIMC over-estimates: each sampled deal is solved as if every player saw every card, so
the declarer's value is that of a clairvoyant declarer against clairvoyant defenders. A real
declarer must choose one card for all the deals he cannot tell apart (strategy fusion), and
information that play reveals is given for free; both make the double-dummy value an upper
bound, in expectation, of what the declarer achieves, often by a few per cent of win rate in
suit games. The defenders are clairvoyant too, which pulls the other way, less strongly. The
exact value of the imperfect-information game is neither this nor the random model.
"""

from __future__ import annotations

import numpy as np

from qcards.skat.deals.sample import deal_stream, sample_owners, spec_receiver_table
from qcards.skat.position.declaration import deal_matadors
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.double_dummy.outcome import deal_outcome
from qcards.skat.solvers.double_dummy.solver import solve_deal

PIMC_CHUNK = 4
"""Deals solved per chunk (one Dask task each): a full deal takes about a second."""


def pimc_chunk(
    spec: Endgame, first: Card | None, seed: int, chunk: tuple[int, int], points: bool = True
) -> tuple[np.ndarray, ...]:
    """The double-dummy points and wins of chunk ``chunk = (index, deals)``'s sampled deals,
    and in a declared game their tricks and matadors (:func:`deal_outcome`; ``points`` false:
    levels only, the points standing for them); module level, so Dask can run it. Its deals
    are those every sampled method of ``seed`` draws for that chunk
    (:func:`~qcards.skat.deals.sample.deal_stream`)."""
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

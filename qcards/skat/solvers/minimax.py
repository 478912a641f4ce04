"""The adversarial value: every deal played open, the declarer maximising, the defenders
minimising (double dummy), averaged over the deal. Every caller asks this module.

Three engines compute the same exact value, each where it is the fastest, and the tests compare
them on every test spec:

* the plain referee (:mod:`qcards.skat.solvers.plain_referee`, exact fractions, pure Python),
  the tests' independent oracle, answers tiny endgames before numba could load;
* the fast referee (:mod:`qcards.skat.solvers.fast_referee`) searches every deal at once, memoized
  across deals by canonical position: p_win and the expected card points together
  (:func:`value`; :mod:`qcards.skat.solvers.evaluation` picks between the two referees);
* the double-dummy solver (:mod:`qcards.skat.solvers.double_dummy`, alpha-beta on bitboards) solves
  deal by deal and gives what the referees do not: a declared game's outcome of each deal
  (points, tricks, matadors), which every score objective averages (:func:`average`), or its
  levels alone (:func:`levels`, what the declaration and bidding decisions compare).

Sampled deals, perfect-information Monte Carlo, are :mod:`qcards.skat.solvers.pimc`'s; what double
dummy over-estimates is said there. Each function refuses up front (unless ``force``) what would run
past the time limit (:mod:`qcards.plan`): the referees by their own cost model, the solver from
the measured time of a few deals (:func:`check_solving_time`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from qcards.plan import Plan, check, current_limits
from qcards.skat.deals.count import num_deals
from qcards.skat.deals.enumeration import weighted_deals
from qcards.skat.deals.sample import sample_owners
from qcards.skat.position.declaration import deal_matadors
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers import evaluation
from qcards.skat.solvers.plain_referee import Evaluation

if TYPE_CHECKING:  # the compiled solver (numba) is imported when a deal is first solved
    import qcards.skat.position.spec
    import qcards.skat.rules.cards
    import qcards.skat.solvers.double_dummy.outcome

ADVERSARIAL = "adversarial"
"""The referee's name of the model (:data:`qcards.skat.solvers.plain_referee.MODELS`)."""

TIMING_DEALS = 3
"""Deals solved (after one that warms the compiled solver up) to estimate the double-dummy
solver's time."""


def value(spec: Endgame, first: Card | None = None, force: bool = False) -> Evaluation:
    """The exact p_win and expected card points (with the deal and path counts) from the
    referees: the plain one on tiny endgames, else the fast referee's memoized search. Refused
    past 128-bit numerators or, unless ``force``, past the time limit."""
    return evaluation.evaluate(spec, ADVERSARIAL, first, force=force)


@dataclass(frozen=True)
class DoubleDummyAverage:
    """The adversarial model's exact figures over every deal of positive probability.

    Attributes:
        p_win: the probability that the declarer wins double dummy.
        expected_points: the declarer's expected card points under minimax on points.
        num_deals: the deals solved.
        outcomes: a declared game's outcomes (points, tricks, matadors;
            :func:`~qcards.skat.solvers.double_dummy.outcome.deal_outcome`) with their
            probabilities, which every score objective averages exactly; ``None`` without a
            declaration.
    """

    p_win: Fraction
    expected_points: Fraction
    num_deals: int
    outcomes: dict[tuple[int, int, int], Fraction] | None = None


def _every_deal(spec: Endgame, first: Card | None = None) -> DoubleDummyAverage:
    """The adversarial model's exact figures, every deal of positive probability solved once
    (with the trick searches of :func:`~qcards.skat.solvers.double_dummy.outcome.deal_outcome` in a
    declared game)."""
    solve = _deal_solver(spec)
    p_win, points, deals = Fraction(0), Fraction(0), 0
    outcomes: dict[tuple[int, int, int], Fraction] | None = None
    if spec.declaration is not None:
        outcomes = {}
    for owner, probability in weighted_deals(spec):
        value = solve(spec, owner, first)  # a DoubleDummyOutcome when outcomes are kept
        if outcomes is not None:
            key = (value.points, value.tricks, deal_matadors(spec.declaration, owner))
            outcomes[key] = outcomes.get(key, Fraction(0)) + probability
        p_win += probability * int(value.wins)
        points += probability * value.points
        deals += 1
    return DoubleDummyAverage(p_win, points, deals, outcomes)


def _deal_solver(spec: Endgame) -> Callable[..., Any]:
    """What :func:`average` solves each deal with: the full search, or in a declared game
    :func:`~qcards.skat.solvers.double_dummy.outcome.deal_outcome` (up to three searches a deal, for
    the tricks and the schneider and schwarz levels), so its time is planned with the same."""
    if spec.declaration is None:
        from qcards.skat.solvers.double_dummy.solver import solve_deal

        return solve_deal
    from qcards.skat.solvers.double_dummy.outcome import deal_outcome

    return deal_outcome


def _every_level(spec: Endgame, first: Card | None = None) -> dict[tuple[int, int, int], Fraction]:
    """A declared game's double-dummy outcomes over every deal with their probabilities, the
    points standing for their level (``deal_outcome(..., points=False)``): every score's
    exact average, faster than :func:`average`'s searches, without the expected points."""
    outcomes: dict[tuple[int, int, int], Fraction] = {}
    for owner, probability in weighted_deals(spec):
        value = deal_level(spec, owner, first)
        key = (value.points, value.tricks, deal_matadors(spec.declaration, owner))
        outcomes[key] = outcomes.get(key, Fraction(0)) + probability
    return outcomes


def deal_level(
    spec: qcards.skat.position.spec.Endgame, owner, first: qcards.skat.rules.cards.Card | None
) -> (
    qcards.skat.solvers.double_dummy.outcome.DoubleDummyOutcome
):  # qualified: the API page resolves them
    """One deal's double-dummy level (``deal_outcome(..., points=False)``: the points stand for
    the level), what :func:`levels` and the decisions' sampled deals solve."""
    from qcards.skat.solvers.double_dummy.outcome import deal_outcome

    return deal_outcome(spec, owner, first, points=False)


def average(spec: Endgame, first: Card | None = None, force: bool = False) -> DoubleDummyAverage:
    """The exact figures by the double-dummy solver on every deal of positive probability (a
    declared game's outcomes too), refused up front past the time limit unless ``force``."""
    advice = (
        "give {shots} to solve that many sampled deals (perfect-information Monte Carlo)",
        "{force} to solve them all",
    )
    check_solving_time(
        spec, first, num_deals(spec), force, "solving all {count:,} deals", advice,
        _deal_solver(spec),
    )  # fmt: skip
    return _every_deal(spec, first)


def levels(spec: Endgame, force: bool = False) -> dict[tuple[int, int, int], Fraction]:
    """A declared game's double-dummy levels over every deal (see :func:`_every_level`),
    refused up front past the time limit unless ``force``."""
    advice = ("give {shots} to sample deals",)
    check_solving_time(
        spec, None, num_deals(spec), force, "solving all {count:,} deals", advice, deal_level
    )
    return _every_level(spec)


def check_solving_time(
    spec: Endgame | Sequence[Endgame], first: Card | None, deals: int, force: bool, what: str,
    ways: tuple[str, ...], solver: Callable | None = None, workers: int = 1,
) -> float:  # fmt: skip
    """Refuse (unless ``force``) solving ``deals`` deals double dummy (by ``solver``, a
    function of the spec, a deal and the first card; the full solve by default) when that is
    estimated to take longer than the time limit (:mod:`qcards.plan`): the measured time of a
    few random deals, times ``deals``. Given several specs (the plays of a decision), the deals
    timed are spread over them; ``workers`` solve them side by side. ``what`` names the work
    (``{count}`` is the number of deals), ``ways`` what to do instead (the ways out of
    :class:`~qcards.plan.Plan`; the refusal adds ``{force}`` unless one names it). Returns the
    estimated seconds."""
    if solver is None:
        from qcards.skat.solvers.double_dummy.solver import solve_deal

        solver = solve_deal
    specs = [spec] if isinstance(spec, Endgame) else list(spec)
    timed = max(TIMING_DEALS, min(len(specs), 2 * TIMING_DEALS))
    picks = [specs[i * len(specs) // timed] for i in range(timed)]
    rng = np.random.default_rng(0)
    solver(picks[0], sample_owners(picks[0], rng, 1)[0], first)  # compiles on a first call
    start = time.perf_counter()
    for pick in picks:
        solver(pick, sample_owners(pick, rng, 1)[0], first)
    per_deal = (time.perf_counter() - start) / timed / workers
    seconds = per_deal * deals
    fits = max(1, int(current_limits().seconds / max(per_deal, 1e-9)))
    plan = Plan(
        f"{what.format(count=deals)} double dummy",
        seconds=seconds,
        size=f"{per_deal:.2g} s a deal",
        time_fits=f"about {fits:,} deals",
        ways=ways,
    )
    return check(plan, force).seconds

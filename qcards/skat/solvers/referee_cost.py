"""What the exact referee's compiled search costs, known before any work (no numba here).

The search's positions follow Knuth's estimate of the play paths (:data:`FRAMES_MODEL`), its
speed one calibrated rate (:data:`FRAMES_PER_SECOND`); :func:`check_time` refuses past the
time budget, :func:`check_width` a spec whose numerators would not fit in 128 bits
(:func:`denominators`). The search itself is :mod:`qcards.skat.solvers.fast_referee`.
"""

from __future__ import annotations

import math

from qcards.errors import ResourceError
from qcards.plan import Plan, check, current_limits
from qcards.skat.deals.count import num_deals
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.plain_referee import estimate_paths


def denominators(players: int, hand: int) -> list[int]:
    """D(0..hand): the common denominator of the random model's values with h cards a hand.

    D(0) = 1 and D(h) = h * lcm(1..h)^(players-1) * D(h-1): the leader chooses among h cards,
    each follower among at most h, and every count divides its factor.
    """
    out = [1]
    for h in range(1, hand + 1):
        out.append(h * math.lcm(*range(1, h + 1)) ** (players - 1) * out[-1])
    return out


def check_width(spec: Endgame) -> None:
    """Refuse a spec whose numerators could overflow 128 bits (intermediate sums included)."""
    n, h = len(spec.players), spec.num_tricks
    top = denominators(n, h)[-1] * 128 * max(h, 1)
    paths = math.factorial(h) ** n
    if max(top, paths) >= 2**127:
        raise ResourceError(
            f"the exact referee's numerators would exceed 128 bits for {n} players with {h} "
            "cards each, and its search could not finish anyway",
            advice="use a smaller endgame",
        )


FRAMES_PER_SECOND = 60_000.0
"""Positions the search expands a second, rounded down from the rates of the largest endgames
measured by ``benchmarks/bench_referee.py`` (eighteen and twenty-one cards; figures in
``benchmarks/results/referee.md``): a conservative rate."""
DEAL_SECONDS = 2e-5
"""Seconds to list and weigh one deal in Python (measured: about 5 microseconds, more with a
prior)."""
FRAMES_MODEL = {"random": (0.35, 0.75), "adversarial": (16.4, 0.505)}
"""(a, b): the positions a search expands are about ``a * P ** b`` for P (deal, play path)
pairs. Fitted through the benchmark's largest endgames (random: 15 and 18 cards, adversarial:
18 and 21; three players, the declarer's hand known), above the smaller ones: the paths merge,
so the positions grow far slower than the paths, and the random model's key also holds the
points still needed. A rough model for other shapes of endgame; the search's frame budget
(:func:`frame_budget`) bounds it whatever the estimate said."""


def estimate_frames(spec: Endgame, first: Card | None = None, model: str = "random") -> float:
    """The positions the search is expected to expand (Knuth's path estimate, milliseconds)."""
    a, b = FRAMES_MODEL[model]
    return a * max(estimate_paths(spec, first), 1.0) ** b


def estimate_seconds(spec: Endgame, first: Card | None = None, model: str = "random") -> float:
    """Seconds :func:`evaluate` is expected to take (a rough model: :data:`FRAMES_MODEL`)."""
    frames = estimate_frames(spec, first, model)
    return frames / FRAMES_PER_SECOND + num_deals(spec) * DEAL_SECONDS


def plan(spec: Endgame, first: Card | None = None, model: str = "random") -> Plan:
    """The search's cost: :func:`estimate_seconds` on its positions and deals."""
    return Plan(
        "the exact referee",
        seconds=estimate_seconds(spec, first, model),
        size=f"about {estimate_frames(spec, first, model):,.0f} positions and "
        f"{num_deals(spec):,} deals",
        ways=(),
    )


def check_time(
    spec: Endgame, first: Card | None = None, force: bool = False, model: str = "random"
) -> float:
    """Refuse (:class:`~qcards.errors.ResourceError`) a spec estimated to take longer than the
    limits allow (:func:`qcards.plan.check`); returns the estimated seconds."""
    return check(plan(spec, first, model), force).seconds


def frame_budget(force: bool) -> int:
    """The search's hard stop: four times the positions the time limit plans for."""
    return 2**62 if force else int(4 * current_limits().seconds * FRAMES_PER_SECOND)

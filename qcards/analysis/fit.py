"""The variational fit the paper proposes (Sec. X.1): card-play weights fitted to play better.

The paper's outlook replaces the uniform amplitudes 1/sqrt(k) of each card-play gate by
parameters CP_k^n(c_1, ..., c_k), fitted variationally "to a more realistic assignment of
weights". Here the weights come from the softmax family of :mod:`qcards.skat.players.play_models`
(pi_theta(card | view), one theta per role), and one role's theta is fitted to its payoff, the
other role's held fixed; the roles alternate (fictitious play), and every round reports how
the declarer's value moved.

The payoff is an objective of :mod:`qcards.skat.solvers.objectives` (the win, the list score or the
Seeger-Fabian points): the declarer maximises its expectation, the defenders minimise it (the
game is zero-sum between the two sides for these objectives). On endgames the expectation is
the referee's, exact for the policy
(:func:`~qcards.skat.solvers.outcome_distributions.outcome_distribution`), or with
``method="circuit"`` the policy-weighted game circuit's own exact final state (the sparse
engine running the CP_k^n(c_1, ..., c_k) gates of :mod:`qcards.circuits.gates.policy_play`: the
paper's proposal taken literally, the circuit's expectation optimised); with
``shots`` it is the mean of that many games played by the policy on sampled deals, every
evaluation on the same seed (common random numbers), so the optimiser sees a smooth function.
The optimisers are qiskit-algorithms' (COBYLA, SPSA, Nelder-Mead).

A fit is planned before its rounds (:func:`plan_fit`, :mod:`qcards.plan`): the evaluations its
optimiser makes, times one evaluation's measured seconds (the first, the start's value, or a
few sampled games), against the time limit unless forced; sampled games' deals against the
memory limit, never forced.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import cast

import numpy as np

from qcards.errors import ParameterError
from qcards.plan import Plan, check, current_limits
from qcards.skat.deals.sample import OWNER_BYTES, fresh_seed
from qcards.skat.players.play_models import DEFAULT_THETA, FEATURES, PlayModel, softmax_policy
from qcards.skat.position.spec import Endgame
from qcards.skat.solvers.monte_carlo import playouts
from qcards.skat.solvers.objectives import check_objective, expectation, per_sample
from qcards.skat.solvers.outcome_distributions import outcome_distribution

ROLES = ("declarer", "defender")
OPTIMIZERS = ("cobyla", "spsa", "nelder-mead")

Theta = Mapping[str, Mapping[str, float]]


@dataclass(frozen=True)
class FitRound:
    """One role's fit: the declarer's value before and after, the role's new parameters and
    how many evaluations the optimiser made."""

    role: str
    before: float
    after: float
    theta: Mapping[str, float]
    evaluations: int
    seconds: float

    def to_json(self) -> dict:
        return {"role": self.role, "before": self.before, "after": self.after,
                "theta": dict(self.theta), "evaluations": self.evaluations,
                "seconds": self.seconds}  # fmt: skip


@dataclass(frozen=True)
class FitResult:
    """The rounds of a fit and the parameters it ends with."""

    objective: str
    method: str
    start: float
    rounds: tuple[FitRound, ...]
    theta: Theta
    seed: int | None

    def to_json(self) -> dict:
        return {
            "objective": self.objective,
            "method": self.method,
            "start": self.start,
            "rounds": [r.to_json() for r in self.rounds],
            "theta": {role: dict(w) for role, w in self.theta.items()},
            "seed": self.seed,
        }


FIT_METHODS = ("classical", "circuit", "monte-carlo")
"""How :func:`fit` values a parameter set: the referee's exact expectation, the weighted
circuit's exact final state on the sparse engine, or games played on sampled deals."""


def declarer_value(
    spec: Endgame, theta: Theta, objective: str = "win", shots: int | None = None,
    seed: int = 0, method: str | None = None,
) -> float:  # fmt: skip
    """The declarer's expected ``objective`` when both roles play the softmax policy of
    ``theta``: exact (``classical``, the referee; ``circuit``, the policy-weighted circuit's
    final state) or, with ``shots``, the mean of that many games on ``seed``'s deals."""
    goal = check_objective(spec, objective)
    policy = softmax_policy(theta)
    method = _method(method, shots)
    if method == "circuit":
        from qcards.analysis.scores import pair_outcomes
        from qcards.circuits.game import build_game
        from qcards.execution.exact import sparse_final_outcomes

        model = PlayModel("fitted-softmax", "softmax with the parameters being fitted", policy,
                          exact=False)  # fmt: skip
        outcomes = sparse_final_outcomes(build_game(spec, model=model))
        return float(expectation(spec, goal, pair_outcomes(spec, outcomes)))
    if method == "classical":
        return float(expectation(spec, goal, outcome_distribution(spec, None, policy)))
    # monte-carlo: _method has refused it without shots
    points, _wins, tricks, matadors = playouts(spec, cast(int, shots), seed, policy)
    return float(per_sample(spec, goal, points, tricks, matadors).mean())


def _method(method: str | None, shots: int | None) -> str:
    """The fit's method: ``classical`` or ``monte-carlo`` by ``shots`` when not given; an
    exact method with ``shots``, or ``monte-carlo`` without, is refused."""
    if method is None:
        return "classical" if shots is None else "monte-carlo"
    if method not in FIT_METHODS:
        raise ParameterError(
            "method", f"unknown fit method {method!r} (expected {' | '.join(FIT_METHODS)})"
        )
    if method == "monte-carlo" and shots is None:
        raise ParameterError(
            "method", "{method} monte-carlo needs {shots} (games a parameter set)", also=("shots",)
        )
    if method != "monte-carlo" and shots is not None:
        raise ParameterError(
            "method",
            f"{{method}} {method} is exact: it needs no {{shots}} (those are {{method}} "
            "monte-carlo's)",
            also=("shots",),
        )
    return method


TIMED_GAMES = 20
"""Games played to time a sampled evaluation before a fit is planned."""

GAME_BYTES = 64
"""Bytes a sampled game's results take beside its deal: four arrays of 8 bytes (points, wins,
tricks, matadors) and the objective's values."""


def fit_evaluations(optimizer: str, maxiter: int, rounds: int) -> int:
    """The evaluations a fit makes at most: the start's, and in each round each role's
    optimiser's (COBYLA: ``maxiter``; SPSA: its calibration's 50, two an iteration and the
    last; Nelder-Mead: the first simplex and up to two an iteration) and the value it ends
    on."""
    features = len(FEATURES)
    each = {"cobyla": maxiter, "spsa": 50 + 2 * maxiter + 1,
            "nelder-mead": features + 1 + 2 * maxiter}[optimizer]  # fmt: skip
    return 1 + rounds * len(ROLES) * (each + 1)


def plan_fit(
    evaluations: int, seconds_each: float, shots: int | None = None, force: bool = False
) -> Plan:
    """The plan of a fit of ``evaluations`` evaluations of ``seconds_each`` (measured), and
    with ``shots`` the games of one evaluation, their deals held at once, checked
    (:mod:`qcards.plan`): the games past the memory limit refused, the time past the time
    limit unless ``force``. Returns the time's plan."""
    ways: tuple[str, ...] = ("fewer {rounds} or {maxiter}",)
    if shots is not None:
        per_game = OWNER_BYTES + GAME_BYTES
        check(Plan(
            f"{{shots}} {shots:,}",
            bytes=shots * per_game,
            size=f"the games of one evaluation, {per_game:,} bytes a game's deal and results",
            memory_fits=f"at most about {int(current_limits().memory // per_game):,} games fit",
            ways=("fewer {shots}",),
        ))  # fmt: skip
        ways += ("fewer {shots}",)
    fits = int(current_limits().seconds / max(seconds_each, 1e-9))
    each = "" if shots is None else f", {shots:,} games each"
    plan = Plan(
        f"a fit of about {evaluations:,} evaluations{each}",
        seconds=evaluations * seconds_each,
        size=f"about {seconds_each:.2g} s an evaluation",
        time_fits=f"about {fits:,} evaluations",
        ways=ways,
    )
    return check(plan, force)


def _optimizer(name: str, maxiter: int):
    # qiskit-algorithms' optimisers (imported here: they load scipy)
    from qiskit_algorithms.optimizers import COBYLA, NELDER_MEAD, SPSA

    if name == "cobyla":
        return COBYLA(maxiter=maxiter)
    if name == "spsa":
        return SPSA(maxiter=maxiter)
    if name == "nelder-mead":
        return NELDER_MEAD(maxiter=maxiter)
    raise ParameterError("optimizer", f"unknown optimizer {name!r} (expected "
                         f"{' | '.join(OPTIMIZERS)})")  # fmt: skip


def fit(
    spec: Endgame,
    objective: str = "win",
    rounds: int = 2,
    optimizer: str = "cobyla",
    maxiter: int = 40,
    shots: int | None = None,
    seed: int | None = None,
    start: Theta | None = None,
    method: str | None = None,
    force: bool = False,
) -> FitResult:
    """Fit the softmax policy's parameters role by role: ``rounds`` rounds, each fitting the
    declarer's theta (maximising its expected ``objective``) and then the defenders' (minimising
    it), each by ``optimizer`` with at most ``maxiter`` iterations, from ``start`` (default
    :data:`~qcards.skat.players.play_models.DEFAULT_THETA`). ``method`` values each parameter set
    (:data:`FIT_METHODS`; default ``classical``, or ``monte-carlo`` with ``shots``).

    The fit is planned before its rounds (:func:`plan_fit`): with ``shots`` before any game
    (the games' memory, and their time from :data:`TIMED_GAMES` games), else on the start's
    value, timed. Past the memory limit it is refused, past the time limit unless ``force``.

    Raises:
        ParameterError: an unknown optimizer or method, or ``rounds``/``maxiter`` below 1.
        ModelError: an objective the spec cannot score (a score without a declaration).
        ResourceError: the plan is past the limits (:mod:`qcards.plan`), or one evaluation is
            (the referee's or the sparse engine's own plan).
    """
    if rounds < 1:
        raise ParameterError("rounds", "{rounds} must be at least 1")
    if maxiter < 1:
        raise ParameterError("maxiter", "{maxiter} must be at least 1")
    if optimizer == "cobyla" and maxiter < len(FEATURES) + 2:
        raise ParameterError(
            "maxiter",
            f"COBYLA needs {{maxiter}} of at least {len(FEATURES) + 2} (the parameters plus two)",
        )
    check_objective(spec, objective)
    method = _method(method, shots)
    _optimizer(optimizer, maxiter)  # refuse an unknown name before any work
    seed = fresh_seed(seed) if shots is not None else None
    theta = {role: dict((start or DEFAULT_THETA).get(role, {})) for role in ROLES}

    def value(current: Theta) -> float:
        return declarer_value(spec, current, objective, shots, seed or 0, method)

    evaluations = fit_evaluations(optimizer, maxiter, rounds)
    if shots is not None:
        plan_fit(evaluations, 0.0, shots)  # the games' memory, before any game
        begin = time.perf_counter()
        playouts(spec, TIMED_GAMES, seed or 0, softmax_policy(theta))
        plan_fit(evaluations, (time.perf_counter() - begin) / TIMED_GAMES * shots, shots, force)
        start_value = value(theta)
    else:
        begin = time.perf_counter()
        start_value = value(theta)
        plan_fit(evaluations, time.perf_counter() - begin, None, force)
    current = start_value
    done: list[FitRound] = []
    for _ in range(rounds):
        for role in ROLES:
            sign = -1.0 if role == "declarer" else 1.0  # the optimisers minimise

            def loss(x: np.ndarray, role: str = role, sign: float = sign) -> float:
                trial = {**theta, role: dict(zip(FEATURES, map(float, x), strict=True))}
                return sign * value(trial)

            x0 = np.array([theta[role].get(f, 0.0) for f in FEATURES])
            begin = time.perf_counter()
            result = _optimizer(optimizer, maxiter).minimize(loss, x0)
            candidate = dict(zip(FEATURES, map(float, result.x), strict=True))
            after = value({**theta, role: candidate})
            # keep the new parameters only when they serve the role (an optimiser may end on
            # a worse point than it started from)
            if sign * after <= sign * current:
                theta[role] = candidate
            else:
                after = current
            done.append(FitRound(role, current, after, dict(theta[role]), int(result.nfev),
                                 time.perf_counter() - begin))  # fmt: skip
            current = after
    return FitResult(objective, method, start_value, tuple(done), theta, seed)

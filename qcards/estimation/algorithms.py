"""Amplitude estimation algorithms as records in a registry (the way targets and constructions
are chosen).

An :class:`EstimationAlgorithm` says everything qcards needs of one of qiskit-algorithms'
estimators: how to build it from :class:`~qcards.estimation.options.EstimationOptions` (for
circuits that are built, and for qcards' sparse engine, which answers marker circuits), how to
read its result, the qubits it adds, the Grover applications it needs (for the work estimate)
and the settings a study sweeps. Nothing else in qcards tells the algorithms apart.

Built-ins:

``canonical``
    phase estimation of the Grover operator with m evaluation qubits: the paper's quantum
    counting (Eq. 19). The measured phase :math:`\\phi` gives :math:`a = \\sin^2(\\phi/2)`.
``iae``
    iterative amplitude estimation, aiming at an interval of half-width ``epsilon``.
``mlae``
    maximum-likelihood amplitude estimation on a doubling schedule of Grover powers up to about
    :math:`\\pi/(4\\epsilon)`.

Third parties add one through the entry-point group :data:`ENTRY_POINT_GROUP`, each entry
point loading a record of its own name (:mod:`qcards.plugins`: a name taken twice is an
error); ``--algorithm`` then offers it everywhere.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np
from qiskit.primitives import BaseSamplerV2
from qiskit_algorithms import (
    AmplitudeEstimation,
    AmplitudeEstimator,
    AmplitudeEstimatorResult,
    EstimationProblem,
    IterativeAmplitudeEstimation,
    MaximumLikelihoodAmplitudeEstimation,
)
from scipy.optimize import fmin
from scipy.stats import chi2

from qcards.errors import ParameterError
from qcards.estimation.grover import phase_estimation_circuit, phase_estimation_marker, power_marker
from qcards.estimation.schedules import (
    Schedule,
    canonical_schedule,
    doubling_powers,
    mlae_schedule,
)
from qcards.execution.sparse.sampler import SparseSampler
from qcards.plugins import load_group

ENTRY_POINT_GROUP = "qcards.estimation_algorithms"


class Settings(Protocol):
    """What the records read of :class:`~qcards.estimation.options.EstimationOptions` (which
    checks its algorithm's name against this registry, and so is not imported here)."""

    @property
    def epsilon(self) -> float: ...
    @property
    def alpha(self) -> float: ...
    @property
    def eval_qubits(self) -> int: ...


EstimatorFactory = Callable[[Settings, EstimationProblem, BaseSamplerV2], AmplitudeEstimator]
"""``factory(options, problem, sampler)``: a qiskit-algorithms estimator running on ``sampler``."""


@dataclass(frozen=True)
class AmplitudeEstimate:
    """What an estimator found for the probability that the objective qubit reads 1.

    Attributes:
        estimate: the estimated probability a.
        ci: confidence interval ``(low, high)``, clipped to [0, 1].
        oracle_calls: applications of the Grover operator, summed over all shots (the result's
            ``num_oracle_queries``).
        phase: measured phase :math:`\\phi` with :math:`a = \\sin^2(\\phi/2)` (canonical only).
    """

    estimate: float
    ci: tuple[float, float]
    oracle_calls: int
    phase: float | None

    @classmethod
    def of(
        cls,
        result: AmplitudeEstimatorResult,
        estimate: float,
        ci: tuple[float, float],
        phase: float | None = None,
    ) -> AmplitudeEstimate:
        """The estimate, the interval clipped to [0, 1], and the result's oracle queries."""
        return cls(
            estimate=float(estimate),
            ci=(float(max(0.0, ci[0])), float(min(1.0, ci[1]))),
            oracle_calls=int(result.num_oracle_queries),
            phase=phase,
        )


def grover_engine(sampler: SparseSampler, problem: EstimationProblem) -> BaseSamplerV2:
    """The sparse engine for ``problem``: a
    :class:`~qcards.execution.sparse.sampler.GroverSampler`, which applies the Grover powers to
    a kept state instead of building them (it answers the marker circuits of
    :mod:`qcards.estimation.grover`)."""
    return sampler.for_problem(problem)


def no_extra_qubits(options: Settings) -> int:
    return 0


def one_circuit(options: Settings) -> Sequence[int]:
    return ()


@dataclass(frozen=True)
class EstimationAlgorithm:
    """One amplitude estimation algorithm.

    Attributes:
        name: what ``--algorithm`` and ``EstimationOptions(algorithm=...)`` call it.
        summary: one line for help texts.
        estimator: ``estimator(options, problem, sampler)``, qiskit-algorithms' estimator
            whose circuits are built (any sampler).
        estimate: ``estimate(estimator, problem, alpha)`` runs the estimator and reads its
            result (interval at confidence 1 - alpha) as an :class:`AmplitudeEstimate`.
        oracle_calls: ``oracle_calls(options)``, about the most Grover applications one of its
            circuits makes at these options: the scale of the work estimate (each applies A
            and its inverse to the game state).
        sweep: the settings a study sweeps (``estimation_error``, the benchmarks), coarse to
            fine, each a dict of :class:`~qcards.estimation.options.EstimationOptions` fields.
        quick_sweep: two of them, for smoke runs.
        extra_qubits: ``extra_qubits(options)``, the qubits it adds to the state preparation
            (phase estimation's evaluation register).
        schedule: ``schedule(options)``, the Grover powers it samples at once in one run, one
            circuit each (empty: one circuit per run); bounds the shots' memory.
        engine_estimator: the same estimator on qcards' sparse engine (``engine``), asking for
            marker circuits of :mod:`qcards.estimation.grover` instead of building Grover
            powers; None: its built circuits run on the sparse sampler as on any other.
        engine: ``engine(sparse_sampler, problem)``, the sampler ``engine_estimator`` runs on.
        aimed_schedule: ``aimed_schedule(epsilon, alpha, amplitude)``, the circuits it runs to
            reach a half-width epsilon at confidence 1 - alpha, by its guarantee
            (:mod:`qcards.estimation.schedules`); None: read off a run of the estimator on a
            stand-in problem (adaptive algorithms, :mod:`qcards.estimation.fault_tolerant`).
    """

    name: str
    summary: str
    estimator: EstimatorFactory
    estimate: Callable[[Any, EstimationProblem, float], AmplitudeEstimate]
    oracle_calls: Callable[[Settings], float]
    sweep: tuple[Mapping[str, Any], ...]
    quick_sweep: tuple[Mapping[str, Any], ...]
    extra_qubits: Callable[[Settings], int] = no_extra_qubits
    schedule: Callable[[Settings], Sequence[int]] = one_circuit
    engine_estimator: EstimatorFactory | None = None
    engine: Callable[[SparseSampler, EstimationProblem], BaseSamplerV2] = grover_engine
    aimed_schedule: Callable[[float, float, float], Schedule] | None = None

    def __str__(self) -> str:
        return self.name


# ----------------------------------------------------------------------------- canonical


class _MarkedAE(AmplitudeEstimation):
    """Qiskit's canonical amplitude estimation asking for phase estimation by marker."""

    def __init__(self, num_eval_qubits: int, sampler: BaseSamplerV2) -> None:
        super().__init__(num_eval_qubits=num_eval_qubits, sampler=sampler)
        self.num_eval_qubits = num_eval_qubits

    def construct_circuit(self, estimation_problem, measurement=False):
        return phase_estimation_marker(estimation_problem, self.num_eval_qubits, measurement)


def _phase_estimation(options, problem, sampler) -> AmplitudeEstimation:
    circuit = phase_estimation_circuit(problem, options.eval_qubits)
    return AmplitudeEstimation(
        num_eval_qubits=options.eval_qubits, phase_estimation_circuit=circuit, sampler=sampler
    )


def _read_phase_estimation(estimator, problem, alpha) -> AmplitudeEstimate:
    result = estimator.estimate(problem)
    ci = estimator.compute_confidence_interval(result, alpha, kind="likelihood_ratio")
    # The most likely grid value a = sin^2(pi y / 2^m) gives the phase of Eq. 19,
    # phi = 2 pi y / 2^m with p = sin^2(phi / 2); the estimate itself is the maximum
    # likelihood refinement over all measured y.
    phase = 2 * math.asin(math.sqrt(float(result.estimation)))
    return AmplitudeEstimate.of(result, result.mle, ci, phase)


CANONICAL = EstimationAlgorithm(
    name="canonical",
    summary="phase estimation with m evaluation qubits (the paper's counting, Eq. 19)",
    estimator=_phase_estimation,
    estimate=_read_phase_estimation,
    oracle_calls=lambda options: 2**options.eval_qubits,
    sweep=tuple({"eval_qubits": m} for m in (2, 3, 4)),
    quick_sweep=({"eval_qubits": 2}, {"eval_qubits": 3}),
    extra_qubits=lambda options: options.eval_qubits,
    engine_estimator=lambda options, problem, sampler: _MarkedAE(options.eval_qubits, sampler),
    aimed_schedule=canonical_schedule,
)


# ----------------------------------------------------------------------------- iae, mlae


def _aiming_at_epsilon(sweep: Sequence[float], quick: Sequence[float]) -> dict[str, Any]:
    """The fields an algorithm aiming at a precision ``epsilon`` derives from it: about
    1/epsilon Grover applications, and sweeps over epsilon."""
    return {
        "oracle_calls": lambda options: 1 / options.epsilon,
        "sweep": tuple({"epsilon": e} for e in sweep),
        "quick_sweep": tuple({"epsilon": e} for e in quick),
    }


class _MarkedIAE(IterativeAmplitudeEstimation):
    """Qiskit's IAE asking for Grover powers by marker (the same schedule and statistics)."""

    def construct_circuit(self, estimation_problem, k=0, measurement=False):
        return power_marker(estimation_problem, k, measurement)


def _iterative(cls: type[IterativeAmplitudeEstimation]) -> EstimatorFactory:
    def factory(options, problem, sampler) -> IterativeAmplitudeEstimation:
        return cls(epsilon_target=options.epsilon, alpha=options.alpha, sampler=sampler)

    return factory


def estimate_with_interval(estimator, problem, alpha) -> AmplitudeEstimate:
    """Run ``estimator`` and take its result's ``estimation`` and ``confidence_interval`` (an
    estimator that aims at its own interval, as IAE and FAE do, so ``alpha`` went into it)."""
    result = estimator.estimate(problem)
    return AmplitudeEstimate.of(result, result.estimation, result.confidence_interval)


IAE = EstimationAlgorithm(
    name="iae",
    summary="iterative amplitude estimation to a half-width epsilon",
    estimator=_iterative(IterativeAmplitudeEstimation),
    estimate=estimate_with_interval,
    **_aiming_at_epsilon(sweep=(0.1, 0.05, 0.02, 0.01), quick=(0.1, 0.03)),
    engine_estimator=_iterative(_MarkedIAE),
)


def doubling_schedule(options: Settings) -> list[int]:
    """The Grover powers MLAE samples in one run: 0, then doubling up to about
    :math:`\\pi/(4\\epsilon)`."""
    return doubling_powers(options.epsilon)


def _maximum_likelihood(cls: type[MaximumLikelihoodAmplitudeEstimation]) -> EstimatorFactory:
    def factory(options, problem, sampler) -> MaximumLikelihoodAmplitudeEstimation:
        schedule = doubling_schedule(options)
        return cls(evaluation_schedule=schedule, sampler=sampler)

    return factory


ANGLE_EPS = 1e-15
"""qiskit-algorithms' margin from 0 and pi/2 (no log of 0 at the ends)."""


def likelihood_points(schedule: list[int]) -> int:
    """How many angles qiskit-algorithms' MLAE tries in (0, pi/2) (for its estimate and its
    likelihood-ratio interval): max(10^4, pi/2 * 10^3 * 2 m) for the largest Grover power m."""
    return max(10000, int(np.pi / 2 * 1000 * 2 * schedule[-1]))


def _one_at_a_time(values: np.ndarray, near: np.ndarray, single) -> np.ndarray:
    """``values`` of a function computed on a whole grid, with the points ``near`` (a mask)
    computed again one at a time by ``single(i)``: NumPy's vectorised sin and log may differ
    from its scalar ones in the last bit, which decides a tie as qiskit (one point at a time)
    does not."""
    values = values.copy()
    for i in np.flatnonzero(near):
        values[i] = single(i)
    return values


def _near(values: np.ndarray, level: float) -> np.ndarray:
    return np.abs(values - level) <= 1e-9 * max(1.0, abs(level))


def log_likelihood(theta, schedule: list[int], good: list[int], shots: list[int]):
    """The log-likelihood of the angle ``theta`` (a number or an array) given ``good`` of
    ``shots`` shots at each Grover power of ``schedule``: qiskit-algorithms' formula."""
    total = 0.0
    for k, ones, every in zip(schedule, good, shots, strict=True):
        angle = (2 * k + 1) * theta
        total = total + np.log(np.sin(angle) ** 2) * ones
        total = total + np.log(np.cos(angle) ** 2) * (every - ones)
    return total


def _counts(results, problem: EstimationProblem) -> tuple[list[int], list[int]]:
    """The good shots and all shots of each circuit's counts (as qiskit-algorithms reads them)."""
    good = [
        sum(c for bits, c in counts.items() if problem.is_good_state(bits)) for counts in results
    ]
    return good, [sum(counts.values()) for counts in results]


class _FastMLAE(MaximumLikelihoodAmplitudeEstimation):
    """Qiskit's MLAE with its grid search done on the whole grid at once.

    qiskit-algorithms evaluates the likelihood one angle at a time in Python, both for the
    estimate (scipy's ``brute`` over :func:`likelihood_points` angles, then ``fmin`` from the
    best) and for the likelihood-ratio interval: about 200,000 calls each at epsilon 0.01, 35 s
    and 20 s for a one-qubit problem. The same grid and the same refinement, vectorised, take
    a fifth of a second; the numbers are the same (``tests/test_estimation_algorithms.py`` compares
    them with qiskit's own)."""

    def __init__(self, evaluation_schedule: list[int], sampler: BaseSamplerV2 | None) -> None:
        super().__init__(evaluation_schedule=evaluation_schedule, sampler=sampler)
        self.powers = list(evaluation_schedule)

    def compute_mle(self, circuit_results, estimation_problem, num_state_qubits=None,
                    return_counts=False):  # fmt: skip
        good, shots = _counts(circuit_results, estimation_problem)
        schedule = self.powers

        def objective(theta):
            return -log_likelihood(theta, schedule, good, shots)

        # scipy's brute on qiskit's grid (each point a 1-element array), then its fmin
        grid = np.mgrid[
            slice(ANGLE_EPS, np.pi / 2 - ANGLE_EPS, complex(likelihood_points(schedule)))
        ]
        values = objective(grid)
        if not np.isnan(values).any():
            values = _one_at_a_time(
                values, _near(values, values.min()), lambda i: objective(grid[i : i + 1])[0]
            )
        start = grid[np.argmin(values) : np.argmin(values) + 1]  # the first NaN, as brute
        theta = float(fmin(objective, start, full_output=True, disp=False)[0][0])
        return (theta, good) if return_counts else theta


class _FastMarkedMLAE(_FastMLAE):
    """:class:`_FastMLAE` asking for its schedule's Grover powers by marker (the engine's)."""

    def construct_circuits(self, estimation_problem, measurement=False):
        return [power_marker(estimation_problem, k, measurement) for k in self.powers]


def likelihood_ratio_interval(result, alpha: float) -> tuple[float, float]:
    """qiskit-algorithms' likelihood-ratio interval of an MLAE result (the same grid, the same
    chi-squared threshold), with the likelihood on the whole grid at once (see
    :class:`_FastMLAE`)."""
    schedule = list(result.evaluation_schedule)
    good = list(result.good_counts)
    shots = [result.shots] * len(good)
    angles = np.linspace(ANGLE_EPS, np.pi / 2 - ANGLE_EPS, likelihood_points(schedule))
    values = log_likelihood(angles, schedule, good, shots)
    level = log_likelihood(result.theta, schedule, good, shots) - chi2.ppf(1 - alpha, df=1) / 2
    values = _one_at_a_time(
        values, _near(values, level), lambda i: log_likelihood(angles[i], schedule, good, shots)
    )
    above = angles[values >= level]
    bounds = (above.min(), above.max()) if above.size else (0.0, np.pi / 2)
    low, high = (float(result.post_processing(np.sin(b) ** 2)) for b in bounds)
    return low, high


def _read_maximum_likelihood(estimator, problem, alpha) -> AmplitudeEstimate:
    # at a = 0 or 1 the Fisher information divides by a(1 - a) = 0, in estimate() (which
    # computes an interval of its own) as in the interval asked for here
    with np.errstate(divide="ignore", invalid="ignore"):
        result = estimator.estimate(problem)
        ci = estimator.compute_confidence_interval(result, alpha, kind="fisher")
    if not ci[1] - ci[0] > 1e-12:
        # at a = 0 or 1 the Fisher information is infinite and its interval a point (which
        # misses an amplitude 1e-7 away): the likelihood-ratio interval stays honest there
        with np.errstate(divide="ignore", invalid="ignore"):
            ci = likelihood_ratio_interval(result, alpha)
        # its grid of angles starts beside the boundary: an estimate there is in the interval
        ci = (0.0 if result.estimation < 1e-12 else ci[0], ci[1])
        ci = (ci[0], 1.0 if result.estimation > 1 - 1e-12 else ci[1])
    return AmplitudeEstimate.of(result, result.estimation, ci)


MLAE = EstimationAlgorithm(
    name="mlae",
    summary="maximum-likelihood amplitude estimation on a doubling schedule up to pi/(4 epsilon)",
    estimator=_maximum_likelihood(_FastMLAE),
    estimate=_read_maximum_likelihood,
    **_aiming_at_epsilon(sweep=(0.2, 0.1, 0.05, 0.02), quick=(0.2, 0.05)),
    schedule=doubling_schedule,
    engine_estimator=_maximum_likelihood(_FastMarkedMLAE),
    aimed_schedule=mlae_schedule,
)


# ----------------------------------------------------------------------------- registry

BUILTIN_ALGORITHMS = (CANONICAL, IAE, MLAE)


@cache
def registry() -> Mapping[str, EstimationAlgorithm]:
    """Every estimation algorithm by name: the built-ins, then the entry points of
    :data:`ENTRY_POINT_GROUP` (each must load an :class:`EstimationAlgorithm` of its own name;
    read once per process; a broken plugin, or a name taken twice, raises
    :class:`~qcards.errors.PluginError` naming it)."""
    return MappingProxyType(load_group(ENTRY_POINT_GROUP, BUILTIN_ALGORITHMS, EstimationAlgorithm))


def algorithm_names() -> tuple[str, ...]:
    """The registered algorithms' names, for help texts and choices."""
    return tuple(registry())


def get_algorithm(name: str, parameter: str = "algorithm") -> EstimationAlgorithm:
    """The algorithm called ``name``; an unknown name raises
    :class:`~qcards.errors.ParameterError` listing the registered ones."""
    found = registry().get(name) if isinstance(name, str) else None
    if found is None:
        raise ParameterError(
            parameter,
            f"unknown estimation algorithm {name!r} (expected {' | '.join(algorithm_names())})",
        )
    return found

"""Quantum counting (Eq. 19) and weighted counting by amplitude estimation (Sec. VI.6.2).

This module is Skat's problem (what to estimate); the algorithms (how) are game-agnostic, in
:mod:`qcards.estimation.amplitude`, and the primitive (where) any sampler. The problem is always
the same: the state preparation A = win oracle . game
circuit (:func:`qcards.circuits.oracle.build_win_circuit`) and its objective qubit, whose
probability of
being 1 is :math:`p_{win} = \\langle\\Phi_{fin}|P_{fav}|\\Phi_{fin}\\rangle`. The algorithm (how)
is one of qiskit-algorithms' estimators:

``canonical``
    phase estimation of the Grover operator with m evaluation qubits: the paper's quantum
    counting. The measured phase :math:`\\phi` gives :math:`p = \\sin^2(\\phi/2)`; when every
    play path carries the same weight, :math:`N = N^{tot} \\sin^2(\\phi/2)` (Eq. 19) is the
    number of winning paths.
``iae``, ``mlae``
    iterative and maximum-likelihood amplitude estimation: no phase-estimation register, only
    powers of the Grover operator.

Paths of a real endgame do *not* all carry the same weight (a forced card has weight 1, a free
choice among k cards 1/k), so counting paths is not the win probability; amplitude estimation
of p_win is the weighted count the paper calls open research. The primitive (where) is a
``BaseSamplerV2``; by default Aer's sampler.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from qiskit.primitives import BaseSamplerV2
from qiskit_algorithms import EstimationProblem

from qcards.circuits.construction import Construction
from qcards.circuits.oracle import WinCircuit
from qcards.circuits.task import GameTask, as_task
from qcards.errors import ResourceError
from qcards.estimation.amplitude import estimate_amplitude
from qcards.estimation.options import EstimationOptions
from qcards.execution.backends import parse_backend
from qcards.execution.budget import check_work
from qcards.execution.exact import check_circuit_time
from qcards.execution.sampling import default_sampler
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.plain_referee import estimate_paths, paths


@dataclass(frozen=True)
class CountResult:
    """One estimate of p_win with everything needed to judge it.

    Attributes:
        method: the estimation algorithm's name (``canonical``, ``iae``, ``mlae``, ...).
        estimate: the estimated win probability.
        ci: confidence interval ``(low, high)`` at ``confidence_level``.
        oracle_calls: applications of the Grover operator, summed over all shots.
        exact: the referee's exact p_win.
        num_qubits: width of the largest circuit run.
        shots: shots per circuit.
        phase: measured phase :math:`\\phi` (canonical only; :math:`p = \\sin^2(\\phi/2)`).
        num_paths: number of play paths N^tot.
        equal_weights: whether all paths carry the same weight (then counting counts paths).
        winning_paths: N = N^tot p (Eq. 19), only if ``equal_weights``.
        winning_paths_exact: the referee's number of winning paths.
    """

    method: str
    estimate: float
    ci: tuple[float, float]
    confidence_level: float
    oracle_calls: int
    exact: Fraction
    num_qubits: int
    shots: int
    phase: float | None
    num_paths: int
    equal_weights: bool
    winning_paths: float | None
    winning_paths_exact: int

    @property
    def error(self) -> float:
        return abs(self.estimate - float(self.exact))

    def to_json(self) -> dict:
        return {
            "estimate": self.estimate,
            "ci": list(self.ci),
            "confidence_level": self.confidence_level,
            "oracle_calls": self.oracle_calls,
            "exact": float(self.exact),
            "exact_fraction": f"{self.exact.numerator}/{self.exact.denominator}",
            "error": self.error,
            "method": self.method,
            "num_qubits": self.num_qubits,
            "shots": self.shots,
            "phase": self.phase,
            "num_paths": self.num_paths,
            "equal_weights": self.equal_weights,
            "winning_paths": self.winning_paths,
            "winning_paths_exact": self.winning_paths_exact,
        }


def _repeats(options: EstimationOptions) -> float:
    """How many times an algorithm applies A (and its inverse) to the game state: once, and
    twice per Grover power, up to about pi / (4 epsilon) or 2^m for phase estimation."""
    return 1 + 2 * math.pi / 4 * options.algorithm_record.oracle_calls(options)


def _checked_sampler(task, circuit, width: int, options, repeats: float, force: bool):
    """The options' backend's sampler, after refusing a circuit too wide for it or estimated to
    run past the time budget (before any work)."""
    target = parse_backend(options.backend)
    target.check_capacity(width)
    paths_estimate = estimate_paths(task.spec, task.first)
    check_circuit_time(
        circuit, width, paths_estimate, target.simulated_method, force, repeats, "backend"
    )
    return default_sampler(options.backend, options.shots, options.seed)


def estimation_problem(win: WinCircuit) -> EstimationProblem:
    """A and its objective qubit; the Grover operator is built by qiskit-algorithms."""
    return EstimationProblem(state_preparation=win.circuit, objective_qubits=[win.objective])


def count(
    game: GameTask | Endgame,
    options: EstimationOptions | None = None,
    sampler: BaseSamplerV2 | None = None,
    force: bool = False,
    *,
    first: Card | None = None,
    construction: Construction | str | None = None,
) -> CountResult:
    """Estimate p_win of a game by quantum counting or amplitude estimation.

    Args:
        game: a :class:`GameTask` (the spec, the declarer's fixed first card and the
            construction of the game circuit inside A), or a spec with ``first`` and
            ``construction`` (:func:`~qcards.circuits.task.as_task`, as for ``evaluate`` and
            ``run``).
        options: the algorithm and its settings (:class:`EstimationOptions`; defaults: IAE at
            epsilon 0.01 on the ``sparse`` engine).
        sampler: any ``BaseSamplerV2`` (an IBM runtime sampler, a noisy simulator, ...) instead
            of the options' backend; it receives untranspiled circuits, so wrap it in
            :class:`~qcards.execution.sampling.TranspilingSampler`.
        force: run even when the work is estimated to exceed
            the time limit (:mod:`qcards.plan`; refused otherwise, before any work).
    """
    task = as_task(game, first, construction)
    options = options or EstimationOptions()
    spec, first = task.spec, task.first
    # the referee's enumeration below, and the algorithm's Grover powers (_repeats)
    repeats = _repeats(options)
    check_work(spec, first, force, "counting on this endgame", repeats)
    win = task.win_circuit()
    width = win.num_qubits + options.extra_qubits
    sampler = sampler or _checked_sampler(task, win.circuit, width, options, repeats, force)
    found = estimate_amplitude(estimation_problem(win), options, sampler)
    estimate = found.estimate

    # One enumeration of the referee's paths gives the exact p_win, the path count and
    # whether the paths weigh the same.
    all_paths = list(paths(spec, first))
    winning = [p for p in all_paths if p.declarer_won(spec)]
    exact = sum((p.probability for p in winning), Fraction(0))
    equal = len({p.probability for p in all_paths}) == 1
    return CountResult(
        method=options.algorithm,
        estimate=estimate,
        ci=found.ci,
        confidence_level=1 - options.alpha,
        oracle_calls=found.oracle_calls,
        exact=exact,
        num_qubits=width,
        shots=options.shots,
        phase=found.phase,
        num_paths=len(all_paths),
        equal_weights=equal,
        winning_paths=len(all_paths) * estimate if equal else None,
        winning_paths_exact=len(winning),
    )


@dataclass(frozen=True)
class PayoffCountResult:
    """One estimate of a declared game's expected score by amplitude estimation of the payoff
    oracle (:mod:`qcards.circuits.payoff`), beside the referee's exact value.

    Attributes:
        objective: ``score`` (the ISkO list score) or ``seeger-fabian``.
        estimate: the expected payoff, ``low + (high - low) * amplitude``.
        ci: its interval at ``confidence_level``.
        amplitude: the estimated probability of the payoff qubit.
        low, high: the payoff's normalisation.
        exact: the referee's expected payoff (a Fraction), ``None`` when the referee cannot
            answer.
    """

    objective: str
    method: str
    estimate: float
    ci: tuple[float, float]
    confidence_level: float
    amplitude: float
    low: float
    high: float
    oracle_calls: int
    exact: Fraction | None
    num_qubits: int
    shots: int

    @property
    def error(self) -> float | None:
        return None if self.exact is None else abs(self.estimate - float(self.exact))

    def to_json(self) -> dict:
        exact = self.exact
        return {
            "objective": self.objective,
            "estimate": self.estimate,
            "ci": list(self.ci),
            "confidence_level": self.confidence_level,
            "amplitude": self.amplitude,
            "payoff_range": [self.low, self.high],
            "oracle_calls": self.oracle_calls,
            "exact": None if exact is None else float(exact),
            "exact_fraction": None if exact is None else f"{exact.numerator}/{exact.denominator}",
            "error": self.error,
            "method": self.method,
            "num_qubits": self.num_qubits,
            "shots": self.shots,
        }


def count_payoff(
    game: GameTask | Endgame,
    objective: str,
    options: EstimationOptions | None = None,
    sampler: BaseSamplerV2 | None = None,
    force: bool = False,
    *,
    first: Card | None = None,
    construction: Construction | str | None = None,
) -> PayoffCountResult:
    """Estimate a declared game's expected ``objective`` (``score``, ``seeger-fabian``) by
    amplitude estimation of its payoff oracle: weighted counting of a payoff (the paper's
    Sec. VI.6.2 leaves it open). Arguments as for :func:`count`."""
    from qcards.circuits.payoff import build_payoff_circuit
    from qcards.skat.solvers.objectives import check_objective, expectation
    from qcards.skat.solvers.outcome_distributions import outcome_distribution

    task = as_task(game, first, construction)
    options = options or EstimationOptions()
    spec, first = task.spec, task.first
    record = check_objective(spec, objective)
    repeats = _repeats(options)
    check_work(spec, first, force, "estimating the payoff of this endgame", repeats)
    payoff = build_payoff_circuit(spec, objective, first, task.construction)
    width = payoff.num_qubits + options.extra_qubits
    sampler = sampler or _checked_sampler(task, payoff.circuit, width, options, repeats, force)
    problem = EstimationProblem(
        state_preparation=payoff.circuit, objective_qubits=[payoff.objective]
    )
    found = estimate_amplitude(problem, options, sampler)
    try:
        exact = Fraction(expectation(spec, record, outcome_distribution(spec, first)))
    except ResourceError:
        exact = None
    low, high = found.ci
    return PayoffCountResult(
        objective=objective,
        method=options.algorithm,
        estimate=payoff.payoff(found.estimate),
        ci=(payoff.payoff(low), payoff.payoff(high)),
        confidence_level=1 - options.alpha,
        amplitude=found.estimate,
        low=payoff.low,
        high=payoff.high,
        oracle_calls=found.oracle_calls,
        exact=exact,
        num_qubits=width,
        shots=options.shots,
    )

"""Quantum counting (Eq. 19) and weighted counting by amplitude estimation (Sec. VI.6.2).

The problem (what to estimate) is always the same: the state preparation A = win oracle . game
circuit (:func:`qcards.score.build_win_circuit`) and its objective qubit, whose probability of
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

from qiskit import QuantumCircuit, QuantumRegister, transpile
from qiskit.circuit.library import PermutationGate, QFTGate
from qiskit.primitives import BaseSamplerV2
from qiskit_algorithms import (
    AmplitudeEstimation,
    EstimationProblem,
    IterativeAmplitudeEstimation,
    MaximumLikelihoodAmplitudeEstimation,
)

from qcards.backends import FAKE_PREFIXES, RUN_BACKENDS, check_capacity, named_backend
from qcards.cards import Card
from qcards.classical import paths
from qcards.errors import ModelError
from qcards.score import WinCircuit, build_win_circuit
from qcards.spec import Endgame

METHODS = ("canonical", "iae", "mlae")
BACKENDS = (*RUN_BACKENDS, "mps", "fake:<Name>", "fake-aer:<Name>")
"""The backend names of ``qcards run`` (``mps`` is an older name of ``aer-mps``). IBM hardware
(``ibm:``) is not offered: amplitude estimation submits a chain of circuits, each chosen from
the results of the last, which the job store's one-job records do not cover."""


class TranspilingSampler(BaseSamplerV2):
    """A SamplerV2 that transpiles every circuit for ``target`` before handing it on.

    qiskit-algorithms 0.4.0 takes a ``transpiler`` argument, but its maximum-likelihood
    estimator transpiles only the first circuit of its schedule and then iterates over that
    circuit's instructions (``mlae.py``: ``self._transpiler.run(circuits[0])``); transpiling in
    the sampler works for all three estimators.
    """

    def __init__(self, sampler: BaseSamplerV2, target) -> None:
        self.sampler = sampler
        self.target = target

    @property
    def default_shots(self) -> int:
        return self.sampler.default_shots

    def run(self, pubs, *, shots: int | None = None):
        prepared = []
        for pub in pubs:
            circuit, *rest = pub if isinstance(pub, tuple) else (pub,)
            circuit = transpile(circuit, self.target, optimization_level=1)
            prepared.append((circuit, *rest))
        return self.sampler.run(prepared, shots=shots)


def default_sampler(
    backend: str = "ddsim", shots: int = 100, seed: int | None = None
) -> BaseSamplerV2:
    """A SamplerV2 that transpiles for, and runs on, the named simulator.

    ``ddsim`` is MQT DDSIM's decision-diagram sampler: the game states are sums of few
    orthogonal paths, which decision diagrams store compactly, and a Grover power runs about
    a hundred times faster than on Aer's dense statevector (``benchmarks/bench_counting.py``).
    The other names are those of ``qcards run`` (:func:`qcards.backends.named_backend`):
    ``aer``, ``statevector``, ``aer-mps`` (also ``mps``), and fake IBM devices with their noise.
    """
    if backend.startswith("ibm:"):
        raise ModelError(
            f"backend {backend!r}: counting runs a chain of dependent circuits and is not "
            "offered on IBM hardware; use qcards run there, or a fake: device to emulate it"
        )
    name = "aer-mps" if backend == "mps" else backend
    if name not in RUN_BACKENDS and not name.startswith(FAKE_PREFIXES):
        raise ModelError(f"unknown backend {backend!r} (expected {' | '.join(BACKENDS)})")
    target, sampler = named_backend(name, seed, shots)
    return TranspilingSampler(sampler, target)


@dataclass(frozen=True)
class CountResult:
    """One estimate of p_win with everything needed to judge it.

    Attributes:
        method: ``canonical``, ``iae`` or ``mlae``.
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


def controlled_grover_power(problem: EstimationProblem, power: int) -> QuantumCircuit:
    r"""Controlled :math:`Q^{power}` on (control, state qubits), Q as Qiskit's ``grover_operator``.

    :math:`Q = -A S_0 A^\dagger S_\chi`. Only the reflections and the sign need the control:
    with the control off, :math:`A A^\dagger = 1`. Controlling A itself, as the generic
    ``Gate.control()`` does, multiplies the circuit about thirty-fold for the game circuits
    (every multi-controlled gate gains a control and is re-synthesised); this keeps a
    controlled Grover step at the cost of two uncontrolled A's.
    """
    a_op = problem.state_preparation
    n = a_op.num_qubits
    control = QuantumRegister(1, "control")
    state = QuantumRegister(n, "state")
    qc = QuantumCircuit(control, state, name=f"c-Q^{power}")
    objective = problem.objective_qubits
    a_gate = a_op.to_gate(label="A")
    a_inverse = a_gate.inverse()
    for _ in range(power):
        for q in objective:  # controlled S_chi: phase -1 on the good states
            qc.cz(control[0], state[q])
        qc.append(a_inverse, state)
        qc.x(state)  # controlled S_0 = 1 - 2|0><0|
        qc.h(state[n - 1])
        qc.mcx([control[0], *state[: n - 1]], state[n - 1])
        qc.h(state[n - 1])
        qc.x(state)
        qc.append(a_gate, state)
        qc.z(control[0])  # the global phase -1 of Q, controlled
    return qc


def phase_estimation_circuit(problem: EstimationProblem, num_eval: int) -> QuantumCircuit:
    """Phase estimation of Q with ``num_eval`` qubits, laid out as Qiskit's ``phase_estimation``
    (evaluation register first, inverse QFT then bit reversal), with cheap controlled powers."""
    n = problem.state_preparation.num_qubits
    evaluation = QuantumRegister(num_eval, "eval")
    state = QuantumRegister(n, "q")
    qc = QuantumCircuit(evaluation, state, name="phase_estimation")
    qc.h(evaluation)
    for j in range(num_eval):
        qc.compose(controlled_grover_power(problem, 2**j), [evaluation[j], *state], inplace=True)
    qc.append(QFTGate(num_eval).inverse(), evaluation)
    qc.append(PermutationGate(list(reversed(range(num_eval)))), evaluation)
    return qc


def estimation_problem(win: WinCircuit) -> EstimationProblem:
    """A and its objective qubit; the Grover operator is built by qiskit-algorithms."""
    return EstimationProblem(state_preparation=win.circuit, objective_qubits=[win.objective])


def check_options(method: str, epsilon: float, alpha: float, eval_qubits: int, shots: int) -> None:
    """Refuse settings no estimator can use, naming the option (a :class:`ModelError`)."""
    if method not in METHODS:
        raise ModelError(f"unknown counting method {method!r} (expected {' | '.join(METHODS)})")
    if not 0 < epsilon < 0.5:
        raise ModelError(f"--epsilon must lie in (0, 0.5), got {epsilon}")
    if not 0 < alpha < 1:
        raise ModelError(f"--alpha must lie in (0, 1), got {alpha}")
    if not 1 <= eval_qubits <= 12:
        raise ModelError(f"--eval-qubits must lie in 1..12, got {eval_qubits}")
    if shots < 1:
        raise ModelError(f"--shots must be at least 1, got {shots}")


@dataclass(frozen=True)
class AmplitudeEstimate:
    """What an estimator found for the probability that the objective qubit reads 1.

    Attributes:
        estimate: the estimated probability a.
        ci: confidence interval ``(low, high)``, clipped to [0, 1].
        oracle_calls: applications of the Grover operator, summed over all shots.
        phase: measured phase :math:`\\phi` with :math:`a = \\sin^2(\\phi/2)` (canonical only).
    """

    estimate: float
    ci: tuple[float, float]
    oracle_calls: int
    phase: float | None


def estimate_amplitude(
    problem: EstimationProblem,
    method: str,
    sampler: BaseSamplerV2,
    epsilon: float = 0.01,
    alpha: float = 0.05,
    eval_qubits: int = 4,
) -> AmplitudeEstimate:
    """Run one of qiskit-algorithms' estimators on ``problem`` (any game: Skat, Go Fish, ...).

    ``canonical`` is phase estimation with ``eval_qubits`` evaluation qubits (Eq. 19); ``iae``
    aims at an interval of half-width ``epsilon``; ``mlae`` takes a doubling schedule of Grover
    powers up to about :math:`\\pi/(4\\epsilon)`. ``alpha`` is 1 - confidence level.
    """
    phase = None
    if method == "canonical":
        algorithm = AmplitudeEstimation(
            eval_qubits,
            phase_estimation_circuit=phase_estimation_circuit(problem, eval_qubits),
            sampler=sampler,
        )
        result = algorithm.estimate(problem)
        ci = algorithm.compute_confidence_interval(result, alpha, kind="likelihood_ratio")
        estimate = float(result.mle)
        # The most likely grid value a = sin^2(pi y / 2^m) gives the phase of Eq. 19,
        # phi = 2 pi y / 2^m with p = sin^2(phi / 2); the estimate itself is the maximum
        # likelihood refinement over all measured y.
        phase = 2 * math.asin(math.sqrt(float(result.estimation)))
    elif method == "iae":
        algorithm = IterativeAmplitudeEstimation(epsilon, alpha, sampler=sampler)
        result = algorithm.estimate(problem)
        ci = result.confidence_interval
        estimate = float(result.estimation)
    else:
        top = max(1, math.ceil(math.log2(math.pi / (4 * epsilon))))
        schedule = [0] + [2**j for j in range(top)]
        algorithm = MaximumLikelihoodAmplitudeEstimation(schedule, sampler=sampler)
        result = algorithm.estimate(problem)
        ci = algorithm.compute_confidence_interval(result, alpha, kind="fisher")
        estimate = float(result.estimation)
    return AmplitudeEstimate(
        estimate=estimate,
        ci=(float(max(0.0, ci[0])), float(min(1.0, ci[1]))),
        oracle_calls=int(result.num_oracle_queries),
        phase=phase,
    )


def count(
    spec: Endgame,
    first: Card | None = None,
    method: str = "iae",
    epsilon: float = 0.01,
    alpha: float = 0.05,
    eval_qubits: int = 4,
    shots: int = 100,
    seed: int | None = None,
    backend: str = "ddsim",
    sampler: BaseSamplerV2 | None = None,
    construction: str = "paper",
) -> CountResult:
    """Estimate p_win of ``spec`` by quantum counting or amplitude estimation.

    Args:
        spec: the endgame.
        first: fix the declarer's first card.
        method: ``canonical`` (phase estimation, Eq. 19), ``iae`` or ``mlae``.
        epsilon: target half-width of the interval (``iae``); for ``mlae`` the largest Grover
            power is chosen as about :math:`\\pi/(4\\epsilon)`, in a doubling schedule.
        alpha: 1 - confidence level of the interval.
        eval_qubits: evaluation qubits m of phase estimation (``canonical``).
        shots: shots per circuit.
        seed: sampler seed.
        backend: ``ddsim`` (decision diagrams, default), ``aer`` (dense statevector) or ``mps``
            (matrix product state); ignored when a ``sampler`` is given.
        sampler: any ``BaseSamplerV2`` (an IBM runtime sampler, a noisy simulator, ...); it
            receives untranspiled circuits, so wrap it in :class:`TranspilingSampler`.
        construction: the game circuit inside A, ``paper`` or ``efficient`` (polynomial).
    """
    check_options(method, epsilon, alpha, eval_qubits, shots)
    win = build_win_circuit(spec, first, construction)
    width = win.num_qubits + (eval_qubits if method == "canonical" else 0)
    check_capacity(width, {"ddsim": "ddsim", "mps": "mps", "aer-mps": "mps"}.get(backend, "aer"))
    sampler = sampler or default_sampler(backend, shots, seed)
    found = estimate_amplitude(
        estimation_problem(win), method, sampler, epsilon, alpha, eval_qubits
    )
    estimate = found.estimate

    # One enumeration of the referee's paths gives the exact p_win, the path count and
    # whether the paths weigh the same.
    all_paths = list(paths(spec, first))
    winning = [p for p in all_paths if p.declarer_points(spec) >= spec.target]
    exact = sum((p.probability for p in winning), Fraction(0))
    equal = len({p.probability for p in all_paths}) == 1
    return CountResult(
        method=method,
        estimate=estimate,
        ci=found.ci,
        confidence_level=1 - alpha,
        oracle_calls=found.oracle_calls,
        exact=exact,
        num_qubits=width,
        shots=shots,
        phase=found.phase,
        num_paths=len(all_paths),
        equal_weights=equal,
        winning_paths=len(all_paths) * estimate if equal else None,
        winning_paths_exact=len(winning),
    )

"""Amplitude estimation of any state preparation, game-agnostic (Skat, Go Fish, ...).

The algorithm (how) is one of qiskit-algorithms' estimators, chosen by
:attr:`EstimationOptions.algorithm <qcards.estimation.options.EstimationOptions.algorithm>`:

``canonical``
    phase estimation of the Grover operator with m evaluation qubits: the paper's quantum
    counting (Eq. 19). The measured phase :math:`\\phi` gives :math:`a = \\sin^2(\\phi/2)`.
``iae``, ``mlae``
    iterative and maximum-likelihood amplitude estimation: no phase-estimation register, only
    powers of the Grover operator.

The primitive (where) is any ``BaseSamplerV2``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from qiskit import ClassicalRegister, QuantumCircuit, QuantumRegister
from qiskit.circuit.library import PermutationGate, QFTGate
from qiskit.primitives import BaseSamplerV2
from qiskit_algorithms import (
    AmplitudeEstimation,
    EstimationProblem,
    IterativeAmplitudeEstimation,
    MaximumLikelihoodAmplitudeEstimation,
)

from qcards.estimation.options import EstimationOptions
from qcards.execution.sparse_sampler import (
    GROVER_POWER,
    PHASE_ESTIMATION,
    SparseSampler,
    problem_width,
)
from qcards.progress import active, step


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


def power_marker(problem: EstimationProblem, k: int, measurement: bool) -> QuantumCircuit:
    r"""A circuit standing for :math:`Q^k A|0\rangle` (objective qubits measured), for a
    :class:`~qcards.execution.sparse_sampler.GroverSampler`: its gates are not built."""
    circuit = QuantumCircuit(
        problem_width(problem), name=f"marker_q{k}", metadata={GROVER_POWER: k}
    )
    if measurement:
        register = ClassicalRegister(len(problem.objective_qubits))
        circuit.add_register(register)
        circuit.measure(problem.objective_qubits, register[:])
    return circuit


class _MarkedIAE(IterativeAmplitudeEstimation):
    """Qiskit's IAE asking for Grover powers by marker (the same schedule and statistics)."""

    def construct_circuit(self, estimation_problem, k=0, measurement=False):
        return power_marker(estimation_problem, k, measurement)


class _MarkedMLAE(MaximumLikelihoodAmplitudeEstimation):
    """Qiskit's MLAE asking for its schedule's Grover powers by marker."""

    def construct_circuits(self, estimation_problem, measurement=False):
        return [power_marker(estimation_problem, k, measurement) for k in self._evaluation_schedule]


class _MarkedAE(AmplitudeEstimation):
    """Qiskit's canonical amplitude estimation asking for phase estimation by marker."""

    def construct_circuit(self, estimation_problem, measurement=False):
        m = self._m
        width = problem_width(estimation_problem)
        circuit = QuantumCircuit(m + width, name="marker_qpe", metadata={PHASE_ESTIMATION: m})
        if measurement:
            register = ClassicalRegister(m)
            circuit.add_register(register)
            circuit.measure(list(range(m)), list(range(m)))
        return circuit


_PLAIN = (AmplitudeEstimation, IterativeAmplitudeEstimation, MaximumLikelihoodAmplitudeEstimation)


def estimate_amplitude(
    problem: EstimationProblem, options: EstimationOptions, sampler: BaseSamplerV2
) -> AmplitudeEstimate:
    """Run one of qiskit-algorithms' estimators on ``problem`` (any game: Skat, Go Fish, ...).

    ``canonical`` is phase estimation with ``eval_qubits`` evaluation qubits (Eq. 19); ``iae``
    aims at an interval of half-width ``epsilon``; ``mlae`` takes a doubling schedule of Grover
    powers up to about :math:`\\pi/(4\\epsilon)`. ``alpha`` is 1 - confidence level. The
    options' sampler fields are not used here: ``sampler`` runs the circuits. A progress
    display (:mod:`qcards.progress`), if one shows, counts the circuits run.
    """
    # on the sparse engine, the Grover powers are applied to a kept state instead of built
    marked = isinstance(sampler, SparseSampler)
    if marked:
        sampler = sampler.for_problem(problem)
    ae, iae, mlae = (
        (_MarkedAE, _MarkedIAE, _MarkedMLAE)
        if marked
        else (
            AmplitudeEstimation,
            IterativeAmplitudeEstimation,
            MaximumLikelihoodAmplitudeEstimation,
        )
    )
    with step(f"amplitude estimation ({options.algorithm}): circuits run") as task:
        if active():
            sampler = _Progressed(sampler, task)
        return _estimate(problem, options, sampler, ae, iae, mlae, marked)


class _Progressed(BaseSamplerV2):
    """Forwards to ``sampler`` (every other attribute too), advancing the progress display's
    task by the circuits of each run."""

    def __init__(self, sampler: BaseSamplerV2, task) -> None:
        self._sampler, self._task = sampler, task

    def run(self, pubs, *, shots: int | None = None):
        pubs = list(pubs)
        job = self._sampler.run(pubs, shots=shots)
        self._task.advance(len(pubs))
        return job

    def __getattr__(self, name: str):
        return getattr(self._sampler, name)


def _estimate(problem, options, sampler, ae, iae, mlae, marked) -> AmplitudeEstimate:
    method, epsilon, alpha = options.algorithm, options.epsilon, options.alpha
    eval_qubits = options.eval_qubits
    phase = None
    if method == "canonical":
        circuit = None if marked else phase_estimation_circuit(problem, eval_qubits)
        algorithm = ae(eval_qubits, phase_estimation_circuit=circuit, sampler=sampler)
        result = algorithm.estimate(problem)
        ci = algorithm.compute_confidence_interval(result, alpha, kind="likelihood_ratio")
        estimate = float(result.mle)
        # The most likely grid value a = sin^2(pi y / 2^m) gives the phase of Eq. 19,
        # phi = 2 pi y / 2^m with p = sin^2(phi / 2); the estimate itself is the maximum
        # likelihood refinement over all measured y.
        phase = 2 * math.asin(math.sqrt(float(result.estimation)))
    elif method == "iae":
        algorithm = iae(epsilon, alpha, sampler=sampler)
        result = algorithm.estimate(problem)
        ci = result.confidence_interval
        estimate = float(result.estimation)
    else:
        algorithm = mlae(options.schedule, sampler=sampler)
        # at a = 0 or 1 the Fisher information divides by a(1 - a) = 0, in estimate() (which
        # computes an interval of its own) as in the interval asked for here
        with np.errstate(divide="ignore", invalid="ignore"):
            result = algorithm.estimate(problem)
            ci = algorithm.compute_confidence_interval(result, alpha, kind="fisher")
        if not ci[1] - ci[0] > 1e-12:
            # at a = 0 or 1 the Fisher information is infinite and its interval a point (which
            # misses an amplitude 1e-7 away): the likelihood-ratio interval stays honest there
            ci = algorithm.compute_confidence_interval(result, alpha, kind="likelihood_ratio")
            # its grid of angles starts beside the boundary: an estimate there is in the interval
            ci = (0.0 if result.estimation < 1e-12 else ci[0], ci[1])
            ci = (ci[0], 1.0 if result.estimation > 1 - 1e-12 else ci[1])
        estimate = float(result.estimation)
    return AmplitudeEstimate(
        estimate=estimate,
        ci=(float(max(0.0, ci[0])), float(min(1.0, ci[1]))),
        oracle_calls=int(result.num_oracle_queries),
        phase=phase,
    )

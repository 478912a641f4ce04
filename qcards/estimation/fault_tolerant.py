"""The logical cost of amplitude estimation on a fault-tolerant computer: the state preparation A,
one Grover iterate, and an algorithm's whole schedule to a precision epsilon.

An algorithm's schedule (which Grover powers it runs, with how many shots) is read off the
algorithm itself: its estimator (the record's ``engine_estimator`` of
:mod:`qcards.estimation.algorithms`, so qiskit-algorithms' own logic) is run on a one-qubit
stand-in problem whose amplitude is ``amplitude``, answered exactly by
:class:`IdealAmplitudeSampler` (a Grover power k measures 1 with probability
:math:`\\sin^2((2k+1)\\theta)`, :math:`a = \\sin^2\\theta`; phase estimation by the Fejer kernel).
Algorithms whose schedule is fixed state it themselves (``aimed_schedule``,
:mod:`qcards.estimation.schedules`). The circuits a schedule names are the game's circuits at
those powers; their logical counts are A's and the Grover iterate's
(:func:`grover_iterate_counts`), composed as a call graph.

Schedules depend on the amplitude only through the algorithm's stopping rules; the default 1/2 is
the worst case of sampling variance (the classical side of the crossover is priced at it too).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from qiskit import QuantumCircuit
from qiskit.circuit.library import QFTGate
from qiskit.primitives import SamplerPubResult
from qiskit.primitives.containers import BitArray, DataBin
from qiskit.synthesis import synth_mcx_1_clean_kg24
from qiskit_algorithms import EstimationProblem

from qcards.circuits.logical_counts import LogicalCounter, LogicalCounts
from qcards.errors import ParameterError
from qcards.estimation.algorithms import EstimationAlgorithm, get_algorithm
from qcards.estimation.schedules import Schedule, ScheduledCircuit, eval_qubits_for
from qcards.execution.local_sampler import LocalSampler
from qcards.execution.sparse.sampler import GROVER_POWER, PHASE_ESTIMATION

DEFAULT_SHOTS = 100
"""Shots per round of an adaptive schedule (as
:class:`~qcards.estimation.options.EstimationOptions`)."""


@dataclass(frozen=True)
class AimedSettings:
    """The settings an adaptive algorithm runs with on the stand-in (the
    :class:`~qcards.estimation.algorithms.Settings` protocol)."""

    epsilon: float
    alpha: float
    eval_qubits: int


class IdealAmplitudeSampler(LocalSampler):
    """An ideal device for a problem whose amplitude is known: answers the Grover-power and
    phase-estimation markers of :mod:`qcards.estimation.grover` from the amplitude alone
    (exact distributions, seeded draws), and records every circuit it is asked for."""

    def __init__(self, amplitude: float, seed: int = 0, default_shots: int = DEFAULT_SHOTS):
        self.theta = math.asin(math.sqrt(amplitude))
        self.default_shots = default_shots
        self._rng = np.random.default_rng(seed)
        self.runs: list[tuple[str, int, int]] = []  # (kind, power or m, shots)

    def power_distribution(self, k: int) -> np.ndarray:
        """P(objective = 0), P(objective = 1) after :math:`Q^k A`."""
        one = math.sin((2 * k + 1) * self.theta) ** 2
        return np.array([1 - one, one])

    def phase_distribution(self, m: int) -> np.ndarray:
        """P(evaluation register = y) of phase estimation with m qubits, in the register's
        bit order (the marker's layout: inverse QFT, then bit reversal). Q's eigenphases on the
        problem's plane are :math:`\\pm 2\\theta`, each with weight 1/2 (the Fejer kernel)."""
        size = 2**m
        y = np.arange(size)
        out = np.zeros(size)
        for phase in (self.theta / math.pi, -self.theta / math.pi):
            delta = y / size - phase
            s = np.sin(math.pi * delta)
            kernel = np.where(
                np.abs(s) < 1e-15,
                1.0,
                np.sin(size * math.pi * delta) ** 2 / (size**2 * s**2 + 1e-300),
            )
            out += kernel / 2
        reverse = [int(format(k, f"0{m}b")[::-1], 2) for k in range(size)]
        distribution = np.zeros(size)
        distribution[reverse] = out
        return distribution / distribution.sum()

    def _run_pub(self, pub) -> SamplerPubResult:
        metadata = pub.circuit.metadata or {}
        if GROVER_POWER in metadata:
            k = int(metadata[GROVER_POWER])
            distribution, kind, size = self.power_distribution(k), "power", k
        elif PHASE_ESTIMATION in metadata:
            m = int(metadata[PHASE_ESTIMATION])
            distribution, kind, size = self.phase_distribution(m), "phase estimation", m
        else:
            raise ParameterError("pubs", "the ideal amplitude sampler answers marker circuits only")
        self.runs.append((kind, size, pub.shots))
        creg = pub.circuit.cregs[0]
        drawn = self._rng.choice(len(distribution), size=pub.shots, p=distribution)
        data = {creg.name: BitArray.from_samples(drawn.tolist(), creg.size)}
        return SamplerPubResult(DataBin(**data), metadata={"shots": pub.shots})


def _stand_in() -> EstimationProblem:
    prep = QuantumCircuit(1)
    return EstimationProblem(state_preparation=prep, objective_qubits=[0])


def schedule(
    algorithm: EstimationAlgorithm | str,
    epsilon: float,
    alpha: float = 0.05,
    amplitude: float = 0.5,
    shots: int = DEFAULT_SHOTS,
    seed: int = 0,
) -> Schedule:
    """The circuits ``algorithm`` runs aiming at ``epsilon`` (confidence 1 - ``alpha``) at an
    amplitude ``amplitude``: its ``aimed_schedule`` when it states one, else read off a run of
    its estimator (``shots`` a round, seeded) on a stand-in problem of that amplitude."""
    record = get_algorithm(algorithm) if isinstance(algorithm, str) else algorithm
    if not 0 < epsilon < 0.5:
        raise ParameterError("epsilon", f"{{epsilon}} must lie in (0, 0.5), got {epsilon}")
    if not 0 < alpha < 1:
        raise ParameterError("alpha", f"{{alpha}} must lie in (0, 1), got {alpha}")
    if not 0 <= amplitude <= 1:
        raise ParameterError("amplitude", f"amplitude must lie in [0, 1], got {amplitude}")
    if record.aimed_schedule is not None:
        return record.aimed_schedule(epsilon, alpha, amplitude)
    settings = AimedSettings(epsilon, alpha, eval_qubits_for(epsilon))
    sampler = IdealAmplitudeSampler(amplitude, seed, shots)
    factory = record.engine_estimator or record.estimator
    problem = _stand_in()
    estimate = record.estimate(factory(settings, problem, sampler), problem, alpha)
    merged: dict[tuple[int, int], int] = {}
    for kind, size, count in sampler.runs:
        key = (2**size - 1, size) if kind == "phase estimation" else (size, 0)
        merged[key] = merged.get(key, 0) + count
    circuits = tuple(
        ScheduledCircuit(powers, count, m) for (powers, m), count in sorted(merged.items())
    )
    half_width = (estimate.ci[1] - estimate.ci[0]) / 2
    basis = f"its estimator run on a stand-in of amplitude {amplitude:g}, {shots} shots a round"
    return Schedule(record.name, epsilon, circuits, half_width, amplitude, basis)


# ----------------------------------------------------------------------------- counts


@functools.cache
def reflection_counts(width: int, controlled: bool) -> LogicalCounts:
    """:math:`S_0 = 1 - 2|0\\rangle\\langle 0|` on ``width`` qubits, as
    :func:`qcards.estimation.grover.controlled_grover_power` builds it (with the phase
    estimation's control when ``controlled``); :math:`S_\\chi` is a Z or CZ (Clifford)."""
    controls = width - 1 + (1 if controlled else 0)
    qc = QuantumCircuit(controls + 2)  # the controls, the target, one clean ancilla
    target = controls
    qc.h(target)
    if controls >= 3:
        # A's ancillas are back to 0 but an AND chain would hold width - 3 more: Khattar and
        # Gidney's construction with one clean ancilla (Qiskit's synthesis, 2024) keeps the
        # register's width for about 8 T gates a control
        qc.compose(synth_mcx_1_clean_kg24(controls), range(controls + 2), inplace=True)
    else:
        qc.mcx(list(range(controls)), target)
    qc.h(target)
    return LogicalCounter().count(qc)


def grover_iterate_counts(
    counter: LogicalCounter, a_counts: LogicalCounts, width: int, controlled: bool = False
) -> LogicalCounts:
    """:math:`Q = A S_0 A^\\dagger S_\\chi` (controlled: only the reflections take the
    control): A twice (its inverse costs what it does) and the zero reflection."""
    reflection = reflection_counts(width, controlled)
    return a_counts.then(reflection).then(a_counts)


def inverse_qft_counts(counter: LogicalCounter, m: int) -> LogicalCounts:
    """The inverse QFT on phase estimation's m evaluation qubits (Qiskit's ``QFTGate``)."""
    qc = QuantumCircuit(m)
    qc.append(QFTGate(m).inverse(), range(m))
    return counter.count(qc)


def circuit_counts(
    counter: LogicalCounter,
    a_counts: LogicalCounts,
    width: int,
    circuit: ScheduledCircuit,
) -> LogicalCounts:
    """One shot of a scheduled circuit: A, then its Grover iterates (controlled, and the
    inverse QFT, for phase estimation), then the measurement of the objective or evaluation
    qubits."""
    controlled = circuit.eval_qubits > 0
    iterate = grover_iterate_counts(counter, a_counts, width, controlled)
    total = a_counts.widened(circuit.eval_qubits).then(iterate.times(circuit.powers))
    if controlled:
        total = total.then(inverse_qft_counts(counter, circuit.eval_qubits))
    measured = LogicalCounts(measurements=circuit.eval_qubits or 1)
    return total.then(measured)

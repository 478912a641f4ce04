"""What an amplitude estimation runs to reach a precision epsilon: its schedule of circuits
(Grover powers and shots), for the fault-tolerant cost (:mod:`qcards.estimation.fault_tolerant`).

Algorithms with a fixed schedule state it by their guarantee (:func:`mlae_schedule`,
:func:`canonical_schedule`); adaptive ones (IAE) are run on a stand-in problem instead.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from qcards.files import json_fields


@dataclass(frozen=True)
class ScheduledCircuit:
    """Circuits of one kind an algorithm runs: ``shots`` times A then ``powers`` Grover
    iterates (controlled ones, with ``eval_qubits`` evaluation qubits and an inverse QFT, for
    phase estimation)."""

    powers: int
    shots: int
    eval_qubits: int = 0


@dataclass(frozen=True)
class Schedule:
    """What an algorithm runs to reach its precision.

    Attributes:
        algorithm: the algorithm's name.
        epsilon: the half-width aimed at.
        circuits: the distinct circuits, with their shots summed.
        half_width: the half-width it reaches at the stand-in amplitude (by its guarantee, or
            measured on the stand-in for adaptive algorithms).
        amplitude: the amplitude the schedule was worked out at.
        basis: how the schedule was found, in words.
    """

    algorithm: str
    epsilon: float
    circuits: tuple[ScheduledCircuit, ...]
    half_width: float
    amplitude: float
    basis: str

    @property
    def oracle_calls(self) -> int:
        """Grover iterates over all shots (phase estimation: 2^m - 1 controlled ones a shot)."""
        return sum(c.powers * c.shots for c in self.circuits)

    @property
    def shots(self) -> int:
        return sum(c.shots for c in self.circuits)

    @property
    def deepest(self) -> int:
        return max(c.powers for c in self.circuits)

    def to_json(self) -> dict:
        return {
            **json_fields(
                self,
                "oracle_calls shots deepest half_width amplitude basis",
                keys={"deepest": "deepest_power"},
            ),
            "circuits": [json_fields(c, "powers shots eval_qubits") for c in self.circuits],
        }


def normal_quantile(alpha: float) -> float:
    """The z with :math:`P(|Z| > z) = \\alpha` for a standard normal Z."""
    return NormalDist().inv_cdf(1 - alpha / 2)


def doubling_powers(epsilon: float) -> list[int]:
    """MLAE's Grover powers: 0, then doubling up to about :math:`\\pi/(4\\epsilon)`."""
    top = max(1, math.ceil(math.log2(math.pi / (4 * epsilon))))
    return [0] + [2**j for j in range(top)]


def mlae_schedule(epsilon: float, alpha: float, amplitude: float) -> Schedule:
    """Maximum-likelihood amplitude estimation on the doubling schedule, with the fewest shots a
    power whose Fisher interval (the one qcards reports for it) has half-width at most
    epsilon: :math:`z\\sqrt{a(1-a) / (N\\sum_k (2m_k+1)^2)}` (Suzuki et al. 2020)."""
    powers = doubling_powers(epsilon)
    information = sum((2 * m + 1) ** 2 for m in powers)
    variance = max(amplitude * (1 - amplitude), 1e-12)
    z = normal_quantile(alpha)
    shots = max(1, math.ceil(z**2 * variance / (epsilon**2 * information)))
    half_width = z * math.sqrt(variance / (shots * information))
    circuits = tuple(ScheduledCircuit(m, shots) for m in powers)
    basis = f"doubling powers to {powers[-1]}, {shots} shots each (Fisher interval)"
    return Schedule("mlae", epsilon, circuits, half_width, amplitude, basis)


def eval_qubits_for(epsilon: float) -> int:
    """The fewest evaluation qubits m of canonical amplitude estimation whose error bound
    :math:`2\\pi\\sqrt{a(1-a)}/M + \\pi^2/M^2` (Brassard et al. 2002, Theorem 12; M = 2^m) is
    at most epsilon at the worst amplitude a = 1/2."""
    m = 1
    while math.pi / 2**m + math.pi**2 / 4**m > epsilon:
        m += 1
    return m


def canonical_schedule(epsilon: float, alpha: float, amplitude: float) -> Schedule:
    """Phase estimation with m evaluation qubits (:func:`eval_qubits_for`); one run is within
    the bound with probability at least :math:`8/\\pi^2`, so the median of R runs is, except
    with probability :math:`e^{-2R(8/\\pi^2 - 1/2)^2} \\le \\alpha` (Hoeffding)."""
    m = eval_qubits_for(epsilon)
    size = 2**m
    runs = math.ceil(math.log(1 / alpha) / (2 * (8 / math.pi**2 - 0.5) ** 2))
    spread = math.sqrt(amplitude * (1 - amplitude))
    half_width = 2 * math.pi * spread / size + math.pi**2 / size**2
    circuits = (ScheduledCircuit(size - 1, runs, m),)
    basis = f"{m} evaluation qubits, median of {runs} runs (Brassard et al. bound)"
    return Schedule("canonical", epsilon, circuits, half_width, amplitude, basis)

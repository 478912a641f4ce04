"""The settings of one amplitude estimation, as one record shared by Skat and Go Fish."""

from __future__ import annotations

import math
from dataclasses import dataclass

from qcards.errors import ParameterError
from qcards.execution.budget import check_shot_memory
from qcards.execution.targets import check_seed

ALGORITHMS = ("canonical", "iae", "mlae")
"""Estimation algorithms: phase estimation (the paper's counting, Eq. 19), iterative and
maximum-likelihood amplitude estimation (qiskit-algorithms)."""


@dataclass(frozen=True)
class EstimationOptions:
    """How to estimate an amplitude, and where (checked on creation, naming the field).

    Attributes:
        algorithm: one of :data:`ALGORITHMS`.
        epsilon: target half-width of the interval (``iae``); for ``mlae`` the largest Grover
            power is chosen as about :math:`\\pi/(4\\epsilon)`, in a doubling schedule.
        alpha: 1 - confidence level of the interval.
        eval_qubits: evaluation qubits m of phase estimation (``canonical``).
        shots: shots per circuit.
        seed: sampler seed.
        backend: the target the circuits run on (:func:`qcards.execution.targets.parse_target`;
            ``sparse`` by default: qcards' exact engine, :mod:`qcards.execution.sparse_sampler`);
            ignored when a sampler is given.
    """

    algorithm: str = "iae"
    epsilon: float = 0.01
    alpha: float = 0.05
    eval_qubits: int = 4
    shots: int = 100
    seed: int | None = None
    backend: str = "sparse"

    def __post_init__(self) -> None:
        if self.algorithm not in ALGORITHMS:
            raise ParameterError(
                "algorithm",
                f"unknown estimation algorithm {self.algorithm!r} "
                f"(expected {' | '.join(ALGORITHMS)})",
            )
        if not 0 < self.epsilon < 0.5:
            raise ParameterError("epsilon", f"{{epsilon}} must lie in (0, 0.5), got {self.epsilon}")
        if not 0 < self.alpha < 1:
            raise ParameterError("alpha", f"{{alpha}} must lie in (0, 1), got {self.alpha}")
        if not 1 <= self.eval_qubits <= 12:
            raise ParameterError(
                "eval_qubits", f"{{eval_qubits}} must lie in 1..12, got {self.eval_qubits}"
            )
        if self.shots < 1:
            raise ParameterError("shots", f"{{shots}} must be at least 1, got {self.shots}")
        # a run samples every circuit of the schedule at once (one for iae and canonical),
        # measuring at most the evaluation qubits (one qubit for iae and mlae)
        check_shot_memory(self.shots, self.eval_qubits, len(self.schedule) or 1)
        check_seed(self.seed)

    @property
    def schedule(self) -> list[int]:
        """The Grover powers ``mlae`` samples in one run: 0, then doubling up to about
        :math:`\\pi/(4\\epsilon)`; empty for the other algorithms."""
        if self.algorithm != "mlae":
            return []
        top = max(1, math.ceil(math.log2(math.pi / (4 * self.epsilon))))
        return [0] + [2**j for j in range(top)]

    @property
    def extra_qubits(self) -> int:
        """Qubits the algorithm adds to the state preparation (phase estimation's register)."""
        return self.eval_qubits if self.algorithm == "canonical" else 0

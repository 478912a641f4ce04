"""The settings of one amplitude estimation, as one record shared by Skat and Go Fish."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from qcards.errors import ParameterError
from qcards.execution.backends import check_seed
from qcards.execution.budget import check_shot_memory

if TYPE_CHECKING:
    from qcards.estimation.algorithms import EstimationAlgorithm

# the algorithms' registry is imported where it is used: it loads qiskit-algorithms (about a
# second), which a command that only parses these options does not need


@dataclass(frozen=True)
class EstimationOptions:
    """How to estimate an amplitude, and where (checked on creation, naming the field).

    Attributes:
        algorithm: the name of a registered algorithm
            (:func:`~qcards.estimation.algorithms.algorithm_names`: ``canonical``, ``iae``,
            ``mlae`` and any plugin's).
        epsilon: target half-width of the interval (``iae``); for ``mlae`` the largest Grover
            power is chosen as about :math:`\\pi/(4\\epsilon)`, in a doubling schedule.
        alpha: 1 - confidence level of the interval.
        eval_qubits: evaluation qubits m of phase estimation (``canonical``).
        shots: shots per circuit.
        seed: sampler seed.
        backend: the target the circuits run on (:func:`qcards.execution.backends.parse_backend`;
            ``sparse`` by default: qcards' exact engine, :mod:`qcards.execution.sparse.sampler`);
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
        from qcards.estimation.algorithms import get_algorithm

        get_algorithm(self.algorithm)
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
    def algorithm_record(self) -> EstimationAlgorithm:
        """The registered algorithm these options name
        (:func:`~qcards.estimation.algorithms.get_algorithm`)."""
        from qcards.estimation.algorithms import get_algorithm

        return get_algorithm(self.algorithm)

    @property
    def schedule(self) -> list[int]:
        """The Grover powers the algorithm samples at once in one run (``mlae``: 0, then
        doubling up to about :math:`\\pi/(4\\epsilon)`); empty for one circuit per run."""
        return list(self.algorithm_record.schedule(self))

    @property
    def extra_qubits(self) -> int:
        """Qubits the algorithm adds to the state preparation (phase estimation's register)."""
        return self.algorithm_record.extra_qubits(self)

"""What an evaluation reports (:class:`EvaluationReport`), whichever method computed it."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from qcards.circuits.construction import DEFAULT_CONSTRUCTION, Construction

if TYPE_CHECKING:
    from qcards.analysis.sampled import Samples
    from qcards.analysis.scores import ScoreFigures
    from qcards.skat.solvers.plain_referee import Evaluation


@dataclass(frozen=True)
class EvaluationReport:
    """What ``qcards evaluate`` reports."""

    p_win: float
    p_win_exact: Fraction | None
    expected_points: float
    model: str
    method: str
    num_deals: int
    num_qubits: int
    shots: int | None = None
    construction: Construction | str = DEFAULT_CONSTRUCTION
    samples: Samples | None = field(default=None, repr=False, compare=False)
    method_reason: str | None = None
    scores: ScoreFigures | None = None
    """A declared game's expected scores (:mod:`qcards.analysis.scores`)."""

    def to_json(self) -> dict:
        exact = self.p_win_exact
        out: dict[str, Any] = {
            "p_win": self.p_win,
            "p_win_exact": None if exact is None else f"{exact.numerator}/{exact.denominator}",
            "expected_points": self.expected_points,
            "model": self.model,
            "method": self.method,
            "num_deals": self.num_deals,
            "num_qubits": self.num_qubits,
            "construction": str(self.construction),
            "shots": self.shots,
        }
        if self.method_reason is not None:
            out["method_reason"] = self.method_reason
        if self.samples is not None:
            out["ci"] = list(self.samples.p_win_ci)
            out["expected_points_ci"] = list(self.samples.expected_points_ci)
            out["seed"] = self.samples.seed
        if self.scores is not None:
            out.update(self.scores.to_json())
        return out


def probability(total: float) -> float:
    """A sum of squared amplitudes reported as a probability: rounding can carry a sure win's
    sum to 1.0000000000000002, and a p_win is never reported outside [0, 1]."""
    return min(1.0, max(0.0, float(total)))


def referee_report(
    referee: Evaluation,
    num_qubits: int,
    construction: Construction | str = DEFAULT_CONSTRUCTION,
    method: str = "classical",
) -> EvaluationReport:
    """The report of the classical referee's exact answer (``"method": "classical"``, or the
    name of the record that ran it)."""
    return EvaluationReport(
        float(referee.p_win),
        referee.p_win,
        float(referee.expected_points),
        referee.model,
        method,
        referee.num_deals,
        num_qubits,
        construction=construction,
    )

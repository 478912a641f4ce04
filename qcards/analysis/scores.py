"""A declared game's expected scores beside p_win: what every evaluation of a spec with a
``[declaration]`` reports (the ISkO list score and the Seeger-Fabian points,
:mod:`qcards.skat.solvers.objectives`).

Each method supplies the outcomes it has
(:data:`qcards.skat.solvers.outcome_distributions.Outcome`: points, tricks, matadors): the referee
their exact distribution in Fractions, a circuit's exact state
or Aer's counts a distribution of floats, shots and sampled deals one outcome a sample (with
95% intervals of the mean). The referee's Fractions are reported beside a circuit's numbers
whenever it can answer, as for p_win.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from qcards.errors import ModelError, ResourceError
from qcards.intervals import mean_interval
from qcards.skat.position.declaration import deal_matadors
from qcards.skat.position.spec import Endgame
from qcards.skat.position.stages import Snapshot
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.objectives import expectation, per_sample, scored_objectives
from qcards.skat.solvers.outcome_distributions import outcome_distribution


@dataclass(frozen=True)
class ScoreFigures:
    """The expected scores of one evaluation, by report field (``expected_score``,
    ``expected_seeger_fabian``): values, the referee's exact Fractions and sampled intervals."""

    values: Mapping[str, float] = field(default_factory=dict)
    exact: Mapping[str, Fraction] = field(default_factory=dict)
    ci: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    samples: Mapping[str, np.ndarray] = field(default_factory=dict, repr=False, compare=False)
    note: str | None = None

    def to_json(self) -> dict:
        out: dict = {}
        for name, value in self.values.items():
            out[name] = value
            exact = self.exact.get(name)
            out[f"{name}_exact"] = None if exact is None else _fraction(exact)
            if name in self.ci:
                out[f"{name}_ci"] = list(self.ci[name])
        if self.note is not None:
            out["scores_note"] = self.note
        return out


def _fraction(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def referee_scores(spec: Endgame, first: Card | None) -> dict[str, Fraction]:
    """The exact expected scores under random play (:func:`outcome_distribution`)."""
    return exact_scores(spec, outcome_distribution(spec, first))


def exact_scores(
    spec: Endgame, outcomes: Mapping[tuple[int, int, int], Fraction]
) -> dict[str, Fraction]:
    """Every scored objective's exact average over an outcome distribution in Fractions."""
    return {o.report: Fraction(expectation(spec, o, outcomes)) for o in scored_objectives(spec)}


def exact_figures(
    spec: Endgame,
    first: Card | None,
    outcomes: Mapping[tuple[int, int, int], Fraction] | None = None,
) -> ScoreFigures | None:
    """The exact figures (``None`` without a declaration): the referee's under random play,
    or those of exact ``outcomes`` when given (the adversarial model's double-dummy ones,
    :func:`qcards.skat.solvers.minimax.average`, or a rational play model's)."""
    if spec.declaration is None:
        return None
    exact = referee_scores(spec, first) if outcomes is None else exact_scores(spec, outcomes)
    return ScoreFigures({k: float(v) for k, v in exact.items()}, exact)


def _beside_referee(spec: Endgame, first: Card | None) -> dict[str, Fraction]:
    try:
        return referee_scores(spec, first)
    except ResourceError:  # too large for the exact search: the circuit's numbers alone
        return {}


def distribution_figures(
    spec: Endgame, first: Card | None, distribution: Mapping[tuple[int, int, int], float]
) -> ScoreFigures | None:
    """The figures of a circuit's outcome distribution, the referee's Fractions beside them."""
    if spec.declaration is None:
        return None
    values = {o.report: float(expectation(spec, o, distribution)) for o in scored_objectives(spec)}
    return ScoreFigures(values, _beside_referee(spec, first))


def pair_outcomes(
    spec: Endgame, outcomes: Mapping[tuple[int, ...], float]
) -> dict[tuple[int, int, int], float]:
    """The sparse engine's outcomes as (points, tricks, matadors): read from each row's Skat
    when they vary with the deal (a Hand game's unknown Skat), else the declaration's."""
    declared = spec.declaration
    fixed = 0
    if declared is not None and not declared.declaration.is_null and not declared.per_deal:
        fixed = declared.matadors_of()
    return {(k[0], k[1], k[2] if len(k) > 2 else fixed): q for k, q in outcomes.items()}


def snapshot_outcomes(
    spec: Endgame, distribution: Mapping[Snapshot, float]
) -> dict[tuple[int, int, int], float]:
    """Decoded final snapshots as outcomes (each snapshot names its deal, so its Skat)."""
    out: dict[tuple[int, int, int], float] = {}
    for snap, q in distribution.items():
        m = deal_matadors(spec.declaration, dict(snap.owner))
        key = (snap.declarer_points(spec), snap.declarer_tricks(spec), m)
        out[key] = out.get(key, 0.0) + q
    return out


def sample_values(
    spec: Endgame, points: np.ndarray, tricks: np.ndarray, matadors: np.ndarray | None
) -> dict[str, np.ndarray]:
    """Each sample's score by every scored objective (none without a declaration)."""
    if spec.declaration is None:
        return {}
    if matadors is None:
        matadors = np.zeros_like(points)
    return {
        o.report: per_sample(spec, o, points, tricks, matadors) for o in scored_objectives(spec)
    }


def sampled_figures(spec: Endgame, values: Mapping[str, np.ndarray]) -> ScoreFigures | None:
    """Means and 95% intervals of per-sample scores."""
    if spec.declaration is None:
        return None
    return ScoreFigures(
        {k: float(v.mean()) for k, v in values.items()},
        {},
        {k: mean_interval(v) for k, v in values.items()},
        values,
    )


def objective_value(scores: ScoreFigures | None, report_name: str) -> Fraction | float:
    """A report's value of a score objective: the referee's Fraction when it has one (so
    exact ties stay ties), else the method's own number."""
    if scores is None or report_name not in scores.values:
        raise ModelError(
            f"{report_name} is not computed here ({scores.note if scores else 'no declaration'})"
        )
    exact = scores.exact.get(report_name)
    return exact if exact is not None else scores.values[report_name]

"""How the estimation error of counting falls with the number of oracle calls.

:func:`estimation_error` measures the absolute error of p_win against the referee's exact value
for canonical phase estimation (Eq. 19), iterative and maximum-likelihood amplitude estimation,
and plain sampling of the win circuit, as a function of oracle calls (applications of the
Grover operator summed over shots; for sampling, one shot is one application of A). Amplitude
estimation should approach error ~ calls^-1, sampling calls^-1/2. The circuits are the paper's
construction.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from fractions import Fraction

import numpy as np
from qiskit import ClassicalRegister

from qcards.circuits.oracle import build_win_circuit
from qcards.circuits.task import GameTask
from qcards.estimation.algorithms import registry
from qcards.estimation.counting import count
from qcards.estimation.options import EstimationOptions
from qcards.execution.sampling import default_sampler
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.evaluation import evaluate

CONSTRUCTION = "paper"
"""The game circuit inside A in this study."""


DEFAULT_SETTINGS: Mapping[str, tuple[Mapping, ...]] = {
    **{name: algorithm.sweep for name, algorithm in registry().items()},
    "sampling": tuple({"shots": n} for n in (100, 400, 1600, 6400)),
}
"""Settings per method, from coarse to fine (the x axis of the error figure): every registered
estimation algorithm's sweep, then plain sampling."""

QUICK_SETTINGS: Mapping[str, tuple[Mapping, ...]] = {
    **{name: algorithm.quick_sweep for name, algorithm in registry().items()},
    "sampling": ({"shots": 100}, {"shots": 1600}),
}
"""Two settings per method, for smoke runs."""


def sampling_estimate(
    spec: Endgame, first: Card | None, shots: int, seed: int | None, backend: str = "sparse"
) -> float:
    """p_win as the share of ``shots`` measurements of the win circuit's objective qubit that
    read 1 (no amplitude amplification: each shot applies A once)."""
    win = build_win_circuit(spec, first, CONSTRUCTION)
    circuit = win.circuit.copy()
    register = ClassicalRegister(1, "win")
    circuit.add_register(register)
    circuit.measure(win.objective, register[0])
    sampler = default_sampler(backend, shots, seed)
    counts = sampler.run([(circuit,)]).result()[0].data.win.get_counts()
    return counts.get("1", 0) / shots


@dataclass(frozen=True)
class ErrorPoint:
    """One setting of one method: medians over seeds."""

    method: str
    setting: dict
    oracle_calls: float
    error: float
    seconds: float

    def to_json(self) -> dict:
        """The fields by name, in order (all plain JSON values)."""
        return asdict(self)


def fit_slope(calls: Iterable[float], errors: Iterable[float]) -> float:
    """Least-squares slope of log(error) on log(calls).

    Points without a call are left out (IAE stops at k = 0 when its first round already meets a
    loose epsilon); an error of 0 counts as 1e-6 so that the logarithm exists. NaN with fewer
    than two points.
    """
    pairs = [(c, max(e, 1e-6)) for c, e in zip(calls, errors, strict=True) if c > 0]
    if len(pairs) < 2:
        return float("nan")
    x, y = np.log([c for c, _ in pairs]), np.log([e for _, e in pairs])
    return float(np.polyfit(x, y, 1)[0])


@dataclass(frozen=True)
class ErrorStudy:
    """Estimation error versus oracle calls for one game (one spec and first card)."""

    name: str
    exact: Fraction
    points: tuple[ErrorPoint, ...]
    seeds: dict[str, int]
    backend: str
    slopes: dict[str, float] = field(init=False)

    def __post_init__(self) -> None:
        slopes = {}
        for method in dict.fromkeys(p.method for p in self.points):
            mine = self.method_points(method)
            slopes[method] = fit_slope([p.oracle_calls for p in mine], [p.error for p in mine])
        object.__setattr__(self, "slopes", slopes)

    def method_points(self, method: str) -> list[ErrorPoint]:
        return [p for p in self.points if p.method == method]

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "exact": f"{self.exact.numerator}/{self.exact.denominator}",
            "seeds": self.seeds,
            "backend": self.backend,
            "points": [p.to_json() for p in self.points],
            "slopes": self.slopes,
        }


def estimation_error(
    name: str,
    spec: Endgame,
    first: Card | None = None,
    settings: Mapping[str, Iterable[Mapping]] = DEFAULT_SETTINGS,
    seeds: int | Mapping[str, int] = 3,
    backend: str = "sparse",
) -> ErrorStudy:
    """Median ``|estimate - exact p_win|`` and oracle calls over seeds 1..n, per setting.

    Amplitude estimation runs through :func:`qcards.estimation.counting.count` (100 shots per
    circuit);
    ``sampling`` through :func:`sampling_estimate`. The exact p_win is the referee's. ``seeds``
    is n for every method, or n per method (sampling is cheap, so it can afford more seeds and
    a steadier median).
    """
    exact = evaluate(spec, "random", first).p_win
    per_method = {m: seeds if isinstance(seeds, int) else seeds[m] for m in settings}
    points = []
    for method, options in settings.items():
        for option in options:
            calls, errors, seconds = [], [], []
            for seed in range(1, per_method[method] + 1):
                start = time.perf_counter()
                if method == "sampling":
                    estimate = sampling_estimate(spec, first, option["shots"], seed, backend)
                    used = option["shots"]
                else:
                    estimation = EstimationOptions(
                        algorithm=method, seed=seed, shots=100, backend=backend, **option
                    )
                    result = count(GameTask(spec, first, CONSTRUCTION), estimation)
                    estimate, used = result.estimate, result.oracle_calls
                seconds.append(time.perf_counter() - start)
                calls.append(used)
                errors.append(abs(estimate - float(exact)))
            points.append(
                ErrorPoint(
                    method,
                    dict(option),
                    statistics.median(calls),
                    statistics.median(errors),
                    statistics.median(seconds),
                )
            )
    return ErrorStudy(name, exact, tuple(points), per_method, backend)

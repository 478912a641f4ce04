"""The studies behind qcards' own figures: how the circuits grow with the game, and how the
estimation error of counting falls with the number of oracle calls.

Both are plain functions returning small records, used by the figure gallery
(``qcards reproduce --out DIR``), the benchmarks and the notebooks, so all three show the same
numbers from the same code.

* :func:`resource_growth`: qubits and CX count of the paper and efficient constructions for
  N = 1..10 cards per player (:func:`qcards.resources.count_resources`; N = 10 is the full game).
* :func:`estimation_error`: the absolute error of p_win against the referee's exact value for
  canonical phase estimation (Eq. 19), iterative and maximum-likelihood amplitude estimation, and
  plain sampling of the win circuit, as a function of oracle calls (applications of the Grover
  operator summed over shots; for sampling, one shot is one application of A). Amplitude
  estimation should approach error ~ calls^-1, sampling calls^-1/2.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from qiskit import ClassicalRegister

from qcards.cards import Card
from qcards.classical import evaluate
from qcards.counting import count, default_sampler
from qcards.errors import ModelError
from qcards.resources import ResourceReport, count_resources
from qcards.score import build_win_circuit
from qcards.spec import Endgame
from qcards.sweeps import sweep

# ----------------------------------------------------------------------------- resources


@dataclass(frozen=True)
class GrowthRow:
    """Both constructions' resources at one N (cards per player)."""

    cards_per_player: int
    paper: ResourceReport
    efficient: ResourceReport

    @property
    def ratio(self) -> float:
        """CX count of the whole game, paper construction over efficient."""
        return self.paper.stages["game"].cx / self.efficient.stages["game"].cx

    def to_json(self) -> dict:
        return {
            "cards_per_player": self.cards_per_player,
            "paper": self.paper.to_json(),
            "efficient": self.efficient.to_json(),
            "ratio": self.ratio,
        }


def _growth_row(cards_per_player: int) -> GrowthRow:
    return GrowthRow(
        cards_per_player,
        count_resources(cards_per_player, "paper"),
        count_resources(cards_per_player, "efficient"),
    )


def resource_growth(
    cards_per_player: Iterable[int] = range(1, 11), scheduler: str | None = None
) -> list[GrowthRow]:
    """Resources of both constructions for each N; ``scheduler`` as :func:`qcards.sweeps.sweep`."""
    return sweep(_growth_row, cards_per_player, scheduler)


# ----------------------------------------------------------------------------- estimation error

DEFAULT_SETTINGS: Mapping[str, tuple[dict, ...]] = {
    "canonical": tuple({"eval_qubits": m} for m in (2, 3, 4)),
    "iae": tuple({"epsilon": e} for e in (0.1, 0.05, 0.02, 0.01)),
    "mlae": tuple({"epsilon": e} for e in (0.2, 0.1, 0.05, 0.02)),
    "sampling": tuple({"shots": n} for n in (100, 400, 1600, 6400)),
}
"""Settings per method, from coarse to fine (the x axis of the error figure)."""

QUICK_SETTINGS: Mapping[str, tuple[dict, ...]] = {
    "canonical": ({"eval_qubits": 2}, {"eval_qubits": 3}),
    "iae": ({"epsilon": 0.1}, {"epsilon": 0.03}),
    "mlae": ({"epsilon": 0.2}, {"epsilon": 0.05}),
    "sampling": ({"shots": 100}, {"shots": 1600}),
}
"""Two settings per method, for smoke runs."""


def sampling_estimate(
    spec: Endgame, first: Card | None, shots: int, seed: int | None, backend: str = "ddsim"
) -> float:
    """p_win as the share of ``shots`` measurements of the win circuit's objective qubit that
    read 1 (no amplitude amplification: each shot applies A once)."""
    win = build_win_circuit(spec, first)
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
        return {
            "method": self.method,
            "setting": self.setting,
            "oracle_calls": self.oracle_calls,
            "error": self.error,
            "seconds": self.seconds,
        }


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
    settings: Mapping[str, Iterable[dict]] = DEFAULT_SETTINGS,
    seeds: int | Mapping[str, int] = 3,
    backend: str = "ddsim",
) -> ErrorStudy:
    """Median |estimate - exact p_win| and oracle calls over seeds 1..n, per setting.

    Amplitude estimation runs through :func:`qcards.counting.count` (100 shots per circuit);
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
                    result = count(
                        spec, first, method=method, seed=seed, shots=100, backend=backend, **option
                    )
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


# ----------------------------------------------------------------------------- hardware fit


@dataclass(frozen=True)
class DeviceErrors:
    """Median calibrated error rates of a device (from its ``Target``)."""

    name: str
    num_qubits: int
    two_qubit_gate: str
    two_qubit_error: float
    one_qubit_error: float
    readout_error: float

    def error_free_share(self, two_qubit_gates: int, one_qubit_gates: int = 0, measured: int = 0):
        """The crude estimate of how many shots see no error at all: the product of the
        success probabilities of every gate and measurement, at median error rates.

        It ignores idling, crosstalk and the fact that some errors do not change the outcome,
        so it is an order of magnitude, not a prediction; ``benchmarks/bench_noise.py``
        measures the real effect under the device's noise model.
        """
        return (
            (1 - self.two_qubit_error) ** two_qubit_gates
            * (1 - self.one_qubit_error) ** one_qubit_gates
            * (1 - self.readout_error) ** measured
        )


def device_errors(name: str) -> DeviceErrors:
    """Median gate and readout errors of the fake IBM device ``name`` (e.g. ``FakeTorino``)."""
    from qcards.noisy import fake_device

    target = fake_device(name).target

    def median_error(operation: str) -> float:
        errors = [p.error for p in target[operation].values() if p and p.error is not None]
        return statistics.median(errors) if errors else 0.0

    two = next(op for op in ("cz", "ecr", "cx") if op in target.operation_names)
    return DeviceErrors(
        name,
        target.num_qubits,
        two,
        median_error(two),
        median_error("sx"),
        median_error("measure"),
    )


@dataclass(frozen=True)
class StageFit:
    """One stage of a game, transpiled for a device."""

    stage: str
    two_qubit_gates: int
    one_qubit_gates: int
    active_qubits: int
    measured: int
    error_free_share: float


def hardware_fit(
    spec: Endgame,
    device: str = "FakeTorino",
    first: Card | None = None,
    construction: str = "paper",
    stages: Iterable[str] | None = None,
    seed: int = 1,
) -> tuple[DeviceErrors, list[StageFit]]:
    """The game transpiled for ``device`` up to each stage (``Stage.name``s; default: the deal,
    the first card and the whole game), with the error-free share each would have at median
    error rates (:meth:`DeviceErrors.error_free_share`).

    Transpilation is Qiskit's preset pass manager at optimization level 1 with ``seed``
    (:func:`qcards.run.transpile_to`), measuring the game's outcome register.
    """
    from qcards.game import build_game
    from qcards.noisy import fake_device
    from qcards.run import measured_circuit, transpile_to

    errors = device_errors(device)
    game = build_game(spec, first, construction=construction)
    by_name = {s.name: s for s in game.stages}
    names = [game.stages[i].name for i in (0, 1, -1)] if stages is None else list(stages)
    unknown = [name for name in names if name not in by_name]
    if unknown:
        raise ModelError(f"unknown stage {unknown[0]!r} (the game has: {', '.join(by_name)})")
    chosen = [by_name[name] for name in names]
    target = fake_device(device)
    fits = []
    for stage in dict.fromkeys(chosen):
        circuit = transpile_to(measured_circuit(game, stage), target, seed)
        ops = [inst for inst in circuit.data if inst.operation.name not in ("barrier", "measure")]
        two = sum(1 for inst in ops if len(inst.qubits) == 2)
        one = sum(1 for inst in ops if len(inst.qubits) == 1 and inst.operation.name != "rz")
        active = {q for inst in circuit.data for q in inst.qubits}
        measured = circuit.count_ops().get("measure", 0)
        fits.append(
            StageFit(
                stage.name,
                two,
                one,
                len(active),
                measured,
                errors.error_free_share(two, one, measured),
            )
        )
    return errors, fits

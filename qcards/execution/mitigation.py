"""Error detection and mitigation for sampled runs: each technique a switch, measured alone.

``qcards run ... --mitigate none|detect|readout|zne|all``:

``detect``
    keep only the shots whose outcome is a state of the game (the rules' invariants,
    :mod:`qcards.skat.position.consistency`); the win probability is taken over the kept shots.
``readout``
    readout-error mitigation with ``mthree`` (M3): the measured qubits' assignment matrices are
    calibrated by running two circuits on the same backend (every measured qubit prepared in 0,
    then in 1), and the counts are corrected into quasi-probabilities before decoding.
``zne``
    zero-noise extrapolation: the transpiled circuit's two-qubit gates are folded with
    ``mitiq`` (``fold_gates_at_random``, single-qubit gates left alone) to scale the noise by
    :data:`ZNE_SCALES`, the same pipeline gives p_win at each scale, and a line fitted by
    ``mitiq``'s :class:`~mitiq.zne.inference.LinearFactory` is read at scale 0.
``all``
    the three together.

The confidence interval is a percentile bootstrap (:data:`BOOTSTRAP` multinomial resamples of
every run's counts through the same pipeline, seeded), so it carries the mitigation's own
variance. Pauli twirling is part of the ``fake:`` emulation's noise model already; dynamical
decoupling has no effect there (the emulation has no idle noise).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np
from qiskit.circuit import ClassicalRegister, QuantumCircuit

from qcards.circuits.decode import OUTCOME_REGISTER, decode_counts, outcome_verdicts
from qcards.circuits.game import GameCircuit
from qcards.errors import ParameterError
from qcards.execution.extras import require
from qcards.execution.results import RunReport
from qcards.execution.transpile import TranspiledSize
from qcards.intervals import wilson
from qcards.skat.position.spec import Endgame

MITIGATIONS = ("none", "detect", "readout", "zne", "all")
"""The values of ``--mitigate``."""

ZNE_SCALES = (1.0, 3.0, 5.0)
"""Noise scale factors of zero-noise extrapolation (1 = the circuit as transpiled)."""

BOOTSTRAP = 200
"""Resamples of the percentile bootstrap behind the confidence interval."""

CONFIDENCE = 0.95


@dataclass(frozen=True)
class Mitigation:
    """Which techniques are on; ``name`` is the ``--mitigate`` value."""

    name: str
    detect: bool
    readout: bool
    zne: bool

    @classmethod
    def parse(cls, name: str) -> Mitigation:
        if name not in MITIGATIONS:
            raise ParameterError(
                "mitigate", f"unknown {{mitigate}} {name!r} (expected {' | '.join(MITIGATIONS)})"
            )
        every = name == "all"
        return cls(
            name, every or name == "detect", every or name == "readout", every or name == "zne"
        )

    def require(self) -> None:
        """Raise :class:`~qcards.errors.MissingExtraError` now if a switch needs a missing
        package (before anything runs)."""
        if self.readout:
            require("mitigation", "readout mitigation (--mitigate readout)")
        if self.zne:
            require("mitigation", "zero-noise extrapolation (--mitigate zne)")

    @property
    def scales(self) -> tuple[float, ...]:
        return ZNE_SCALES if self.zne else (1.0,)


def measured_qubits(circuit: QuantumCircuit) -> list[int]:
    """The qubit measured into each bit of the ``outcome`` register, in bit order."""
    register = next(r for r in circuit.cregs if r.name == OUTCOME_REGISTER)
    out: list[int | None] = [None] * register.size
    for inst in circuit.data:
        if inst.operation.name == "measure" and inst.clbits[0] in register:
            out[register.index(inst.clbits[0])] = circuit.find_bit(inst.qubits[0]).index
    return cast(list[int], out)  # the game circuits measure every bit of the register


def calibration_circuits(circuit: QuantumCircuit, qubits: Sequence[int]) -> list[QuantumCircuit]:
    """Every measured qubit prepared in 0, then in 1, measured like ``circuit`` measures it."""
    out = []
    for bit in (0, 1):
        qc = QuantumCircuit(circuit.num_qubits, name=f"readout_cal_{bit}")
        qc.add_register(ClassicalRegister(len(qubits), OUTCOME_REGISTER))
        if bit:
            qc.x(list(qubits))
        qc.measure(list(qubits), qc.clbits)
        out.append(qc)
    return out


def assignment_matrices(
    zeros: Mapping[int, int], ones: Mapping[int, int], width: int
) -> list[np.ndarray]:
    """Per outcome bit: the 2x2 matrix of P(read i | prepared j) (columns prepared)."""
    out = []
    for k in range(width):
        m = np.zeros((2, 2))
        for prepared, counts in ((0, zeros), (1, ones)):
            total = sum(counts.values())
            read_one = sum(n for o, n in counts.items() if (o >> k) & 1) / total
            m[:, prepared] = (1 - read_one, read_one)
        out.append(m)
    return out


class ReadoutCorrection:
    """M3 correction of outcome counts, calibrated by :func:`assignment_matrices`."""

    def __init__(self, matrices: Sequence[np.ndarray]) -> None:
        require("mitigation", "readout mitigation (--mitigate readout)")
        import mthree

        self.width = len(matrices)
        self._m3 = mthree.M3Mitigation()
        self._m3.cals_from_matrices([np.asarray(m, dtype=np.float32) for m in matrices])

    def __call__(self, counts: Mapping[int, int]) -> dict[int, float]:
        strings = {format(o, f"0{self.width}b"): n for o, n in counts.items()}
        quasi = self._m3.apply_correction(strings, list(range(self.width)))
        return {int(b, 2): float(p) for b, p in quasi.items()}


FOLDING_BASIS = ("cx", "cz", "rz", "sx", "x")
"""Instructions mitiq folds one for one: it folds through Cirq, which has CX and CZ but no ECR,
so a circuit for an Eagle device (ECR) is written with CX for the folding and translated back."""


def fold(circuit: QuantumCircuit, scale: float, seed: int | None, device=None) -> QuantumCircuit:
    """``circuit`` with its two-qubit gates folded to scale the noise by ``scale`` (mitiq).

    With ``device`` (a backend ``circuit`` was transpiled for), the folded circuit is again an
    ISA circuit of that device on the same physical qubits: gates outside
    :data:`FOLDING_BASIS` are first translated into it (one CX per ECR), and the result is
    translated back to the device's gates with the trivial layout (every folded two-qubit gate
    acts on a coupled pair already, so nothing is routed and the two-qubit count is exactly
    ``scale`` times the original's for odd integer scales).
    """
    if scale == 1:
        return circuit
    require("mitigation", "zero-noise extrapolation (--mitigate zne)")
    from mitiq.zne.scaling import fold_gates_at_random
    from qiskit import transpile

    foreign = set(circuit.count_ops()) - {*FOLDING_BASIS, "measure", "barrier"}
    if foreign:
        circuit = transpile(circuit, basis_gates=list(FOLDING_BASIS), optimization_level=0)
    folded = fold_gates_at_random(circuit, scale, fidelities={"single": 1.0}, seed=seed)
    if device is None:
        return folded
    return transpile(
        folded,
        backend=device,
        optimization_level=0,
        layout_method="trivial",
        routing_method="none",
        seed_transpiler=seed,
    )


class Verdicts(dict):
    """Outcome -> (label, declarer wins, consistent), filled on first use
    (:func:`~qcards.circuits.decode.outcome_verdicts`), shared by every resample."""

    def __init__(self, spec: Endgame, game: GameCircuit) -> None:
        super().__init__()
        self.spec, self.game = spec, game

    def __missing__(self, outcome: int):
        self.update(outcome_verdicts(self.spec, self.game, [outcome]))
        return self[outcome]


MIN_KEPT_SHOTS = 30
"""Fewest kept shots a noise scale needs to enter the zero-noise fit when detection is on.

Detection keeps a shot only if no error shows, so the kept fraction falls about as its own
power in the noise scale: 12% at scale 1 of the four-card example on FakeTorino leaves about
0.2% at scale 3 and almost nothing at scale 5. A scale's p_win over a handful of kept shots is
noise, and a line through it extrapolates that noise. Thirty shots is the usual floor of the
normal approximation to a binomial proportion; it depends on nothing but the counts."""


@dataclass(frozen=True)
class Extrapolation:
    """What zero-noise extrapolation saw: p_win and kept shots at every noise scale, and the
    scales that entered the fit (all of them without detection; with detection, those that
    kept :data:`MIN_KEPT_SHOTS`). With fewer than two usable scales nothing is extrapolated
    and p_win is the scale-1 value."""

    scales: tuple[float, ...]
    values: tuple[float | None, ...]
    kept_shots: tuple[float, ...]
    used: tuple[float, ...]

    def to_json(self) -> dict:
        return {
            "scales": list(self.scales),
            "values": list(self.values),
            "kept_shots": list(self.kept_shots),
            "used": list(self.used),
            "extrapolated": len(self.used) >= 2,
        }


@dataclass(frozen=True)
class WinEstimate:
    """p_win after mitigation, the kept fraction at scale 1, and the extrapolation (zne)."""

    p_win: float
    kept_fraction: float
    extrapolation: Extrapolation | None = None


def win_probability(
    verdicts: Verdicts,
    runs: Sequence[Mapping[int, int]],
    mitigation: Mitigation,
    correct: Callable[[Mapping[int, int]], Mapping[int, float]] | None,
) -> WinEstimate:
    """p_win from one run per scale of ``mitigation.scales``: wins over all shots, or over the
    consistent ones with detection, per scale, then extrapolated to zero noise with zne (a line
    by ``mitiq``'s :class:`~mitiq.zne.inference.LinearFactory` through the usable scales, see
    :class:`Extrapolation`)."""
    values, kept_shots, kept = [], [], 1.0
    for k, counts in enumerate(runs):
        weights = correct(counts) if correct is not None else counts
        total = sum(weights.values())
        if mitigation.detect:
            weights = {o: w for o, w in weights.items() if verdicts[o][2]}
        base = sum(weights.values())
        wins = sum(w for o, w in weights.items() if verdicts[o][1])
        values.append(wins / base if base > 0 else None)
        # the readout correction turns counts into quasi-probabilities: scale back to shots
        kept_shots.append(float(base / total * sum(counts.values())) if total else 0.0)
        if k == 0:
            kept = base / total if total else 0.0
    if not mitigation.zne:
        return WinEstimate(_probability(values[0]), kept)
    floor = MIN_KEPT_SHOTS if mitigation.detect else 0
    used = [
        (scale, value)
        for scale, value, shots in zip(mitigation.scales, values, kept_shots, strict=True)
        if value is not None and shots >= floor
    ]
    record = Extrapolation(
        tuple(mitigation.scales), tuple(values), tuple(kept_shots), tuple(s for s, _ in used)
    )
    if len(used) < 2:
        return WinEstimate(_probability(values[0]), kept, record)
    from mitiq.zne.inference import LinearFactory

    value = LinearFactory.extrapolate([s for s, _ in used], [v for _, v in used])
    return WinEstimate(_probability(value), kept, record)


def _probability(value: float | None) -> float:
    """A probability estimate clipped to [0, 1] (no kept shot at all: 0)."""
    return 0.0 if value is None else float(np.clip(value, 0, 1))


def bootstrap_values(
    estimate: Callable[[Sequence[Mapping[int, int]]], float | tuple[float, ...]],
    runs: Sequence[Mapping[int, int]],
    seed: int | None,
    resamples: int = BOOTSTRAP,
) -> np.ndarray:
    """``estimate`` (one value or a tuple of values) on multinomial resamples of every run's
    counts: one row per resample."""
    rng = np.random.default_rng(seed)
    values = []
    for _ in range(resamples):
        resampled = []
        for counts in runs:
            outcomes = sorted(counts)  # the same interval whatever order the counts came in
            shots = np.array([counts[o] for o in outcomes], dtype=float)
            draw = rng.multinomial(int(shots.sum()), shots / shots.sum())
            resampled.append({o: int(n) for o, n in zip(outcomes, draw, strict=True) if n})
        values.append(estimate(resampled))
    return np.array(values, dtype=float)


def percentile_interval(values: np.ndarray) -> tuple[float, float]:
    """The :data:`CONFIDENCE` percentile interval of bootstrap values."""
    tail = (1 - CONFIDENCE) / 2 * 100
    low, high = np.percentile(values, [tail, 100 - tail])
    return float(low), float(high)


def at_least_wilson(ci: tuple[float, float], p_win: float, kept: float) -> tuple[float, float]:
    """``ci`` widened to cover Wilson's score interval of ``p_win`` over the ``kept`` shots (no
    shot kept: all of [0, 1]).

    The percentile bootstrap collapses when the kept shots all lose or all win: every resample
    of one kept losing shot loses, so it gave the interval [0, 0] (a six-card seed on
    FakeTorino kept one shot of 1000 after detection). Wilson's interval stays honest there (one
    shot: [0, 0.79]) and is close to the bootstrap's elsewhere."""
    if kept <= 0:
        return 0.0, 1.0
    low, high = wilson(p_win * kept, kept)
    return min(ci[0], low), max(ci[1], high)


def bootstrap_interval(
    estimate: Callable[[Sequence[Mapping[int, int]]], float],
    runs: Sequence[Mapping[int, int]],
    seed: int | None,
    resamples: int = BOOTSTRAP,
) -> tuple[float, float]:
    """Percentile interval of ``estimate`` over multinomial resamples of every run's counts."""
    return percentile_interval(bootstrap_values(estimate, runs, seed, resamples))


def zne_pays(extrapolated: float, plain: float, values: np.ndarray) -> tuple[bool, str, dict]:
    """Whether zero-noise extrapolation lowers the estimated mean squared error, from the
    bootstrap values of the fit (``values[:, 0]``) and of the unextrapolated estimate
    (``values[:, 1]``), taken as the fit being unbiased: its variance against the plain
    estimate's variance plus the plain estimate's squared bias, which is the fit's shift at
    best. The squared shift overstates that bias by the shift's own variance (E[shift^2] =
    bias^2 + var(shift)), so the bias is estimated as max(0, shift^2 - var(shift)), the
    shift's variance read from the same resamples. Crediting the raw squared shift kept a
    noisy fit whenever its noise moved it far: in the ten-seed six-card study one seed's fit
    moved p_win from 0.590 to 0.470 (exact 2/3) and was kept.

    Returns the verdict, its reason in numbers, and the numbers (``var_fit``, ``var_plain``,
    ``shift``, ``var_shift``, ``bias2``) for the JSON."""
    var_fit, var_plain = float(np.var(values[:, 0])), float(np.var(values[:, 1]))
    shift = extrapolated - plain
    var_shift = float(np.var(values[:, 0] - values[:, 1]))
    bias2 = max(0.0, shift**2 - var_shift)
    verdict = var_fit <= var_plain + bias2
    reason = (
        f"the fit's bootstrap variance {var_fit:.2g} "
        f"{'is within' if verdict else 'exceeds'} the unextrapolated estimate's {var_plain:.2g} "
        f"plus the squared bias its shift shows, {bias2:.2g} (shift {shift:+.3f}, whose own "
        f"variance is {var_shift:.2g})"
    )
    numbers = {
        "var_fit": var_fit,
        "var_plain": var_plain,
        "shift": shift,
        "var_shift": var_shift,
        "bias2": bias2,
    }
    return verdict, reason, numbers


def mitigation_circuits(
    transpiled: QuantumCircuit, mitigation: Mitigation, seed: int | None, device=None
) -> list[QuantumCircuit]:
    """What one mitigated run submits: the circuit at every noise scale of
    ``mitigation.scales`` (folded for ``device``, see :func:`fold`), then the two readout
    calibration circuits if ``mitigation.readout``. :func:`mitigated_report` reads the
    results in this order."""
    circuits = [fold(transpiled, scale, seed, device) for scale in mitigation.scales]
    if mitigation.readout:
        circuits += calibration_circuits(transpiled, measured_qubits(transpiled))
    return circuits


def mitigated_report(
    spec: Endgame,
    game: GameCircuit,
    backend: str,
    size: TranspiledSize,
    counts: Sequence[Mapping[int, int]],
    mitigation: Mitigation,
    seed: int | None,
) -> RunReport:
    """The :class:`RunReport` of the outcome counts of :func:`mitigation_circuits`' results
    (same order): the decoded counts and raw p_win of the unfolded run, p_win after
    ``mitigation``, its bootstrap interval and the kept fraction."""
    runs = counts[: len(mitigation.scales)]
    correct = None
    if mitigation.readout:
        zeros, ones = counts[len(mitigation.scales) :]
        correct = ReadoutCorrection(assignment_matrices(zeros, ones, len(game.layout.measured)))
    decoded = decode_counts(spec, game, runs[0])
    verdicts = Verdicts(spec, game)

    # without extrapolation: the same detection and readout correction on the unfolded run
    plain = dataclasses.replace(mitigation, zne=False)

    def estimate(samples):
        return (
            win_probability(verdicts, samples, mitigation, correct).p_win,
            win_probability(verdicts, samples[:1], plain, correct).p_win,
        )

    found = win_probability(verdicts, runs, mitigation, correct)
    values = bootstrap_values(estimate, runs, seed)
    p_win, ci = found.p_win, percentile_interval(values[:, 0])
    extrapolation = found.extrapolation.to_json() if found.extrapolation else None
    if extrapolation is not None and extrapolation["extrapolated"]:
        unextrapolated = win_probability(verdicts, runs[:1], plain, correct).p_win
        pays, reason, numbers = zne_pays(found.p_win, unextrapolated, values)
        extrapolation.update(
            p_win_extrapolated=found.p_win,
            ci_extrapolated=list(ci),
            dropped=not pays,
            reason=reason,
            **numbers,
        )
        if not pays:  # the fit adds more variance than it can remove bias: leave it out
            p_win, ci = unextrapolated, percentile_interval(values[:, 1])
    if extrapolation is None or not extrapolation["extrapolated"] or extrapolation["dropped"]:
        ci = at_least_wilson(ci, p_win, found.kept_fraction * sum(runs[0].values()))
    return RunReport(
        backend,
        decoded.shots,
        decoded.counts,
        p_win,
        size,
        p_win_raw=decoded.p_win,
        ci=ci,
        kept_fraction=found.kept_fraction,
        mitigation=mitigation.name,
        extrapolation=extrapolation,
    )

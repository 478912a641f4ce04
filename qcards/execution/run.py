"""Run a spec's game circuit on a named backend: transpile, report its size, sample, decode.

The execution path a hardware run will take (issue 5): the circuit is transpiled to the
backend's target with Qiskit's preset pass manager, its two-qubit gate count and depth are
reported *before* it runs, and the measured outcomes are decoded into game states.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass

from qiskit.circuit import ClassicalRegister, QuantumCircuit
from qiskit.transpiler import generate_preset_pass_manager

from qcards.analysis import regroup
from qcards.backends import FAKE_PREFIXES, check_capacity, named_backend
from qcards.cards import Card
from qcards.classical import Stage
from qcards.encoding import InvalidOutcome, readable_label
from qcards.game import GameCircuit, build_game
from qcards.spec import Endgame

OUTCOME_REGISTER = "outcome"
"""The classical register the measured game registers are read into."""

INVALID_LABEL = "(no game state)"
"""The label of measured outcomes that encode no game state (only noise produces them)."""


@dataclass(frozen=True)
class TranspiledSize:
    """Size of the transpiled circuit, reported before it runs."""

    two_qubit_gates: int
    depth: int
    num_qubits: int


@dataclass(frozen=True)
class RunReport:
    """What ``qcards run`` reports: decoded counts (readable labels) and the sampled p_win."""

    backend: str
    shots: int
    counts: dict[str, int]
    p_win: float
    transpiled: TranspiledSize

    def to_json(self) -> dict:
        return asdict(self)  # nested: "transpiled" becomes a dict too


def transpiled_size(circuit) -> TranspiledSize:
    active = {q for inst in circuit.data for q in inst.qubits if inst.operation.name != "barrier"}
    two = sum(1 for inst in circuit.data if len(inst.qubits) == 2)
    return TranspiledSize(two, circuit.depth(), len(active))


def measured_circuit(game: GameCircuit, stage: Stage | None = None) -> QuantumCircuit:
    """The game circuit (up to ``stage``; default all) measured into the ``outcome`` register."""
    source = game.circuit if stage is None else game.upto(stage)
    qc = source.copy_empty_like("run")
    qc.compose(source, inplace=True)
    qc.add_register(ClassicalRegister(len(game.layout.measured), OUTCOME_REGISTER))
    qc.measure(game.layout.measured, qc.clbits)
    return qc


DEVICE_SEEDS = 4
"""Transpiler seeds tried per optimization level when a device target is searched."""

PREFERENCES = {
    # emulation cost grows as 2**qubits: fewest active qubits first
    "qubits": lambda size: (size.num_qubits, size.two_qubit_gates, size.depth),
    # hardware error grows with two-qubit gates and depth
    "gates": lambda size: (size.two_qubit_gates, size.depth, size.num_qubits),
}


def transpile_to(
    circuit: QuantumCircuit, target, seed: int | None = None, prefer: str | None = None
) -> QuantumCircuit:
    """Qiskit's preset pass manager for the backend ``target``.

    Without ``prefer``: one run at optimization level 1. With ``prefer`` (``"qubits"`` for noisy
    emulation, ``"gates"`` for hardware): optimization levels 2 and 3 with
    :data:`DEVICE_SEEDS` layout seeds each (the layout on a heavy-hex device decides how many
    qubits routing touches: 15 to 25 for the four-card example), keeping the best transpilation
    by :data:`PREFERENCES`. The search is deterministic for a given ``seed``.
    """
    base = 0 if seed is None else seed
    if prefer is None:
        trials = [(1, base)]
    else:
        trials = [(level, base + k) for level in (2, 3) for k in range(DEVICE_SEEDS)]
    best, best_key = None, None
    for level, trial_seed in trials:
        manager = generate_preset_pass_manager(
            optimization_level=level, backend=target, seed_transpiler=trial_seed
        )
        candidate = manager.run(circuit)
        key = PREFERENCES[prefer](transpiled_size(candidate)) if prefer else ()
        if best is None or key < best_key:
            best, best_key = candidate, key
    return best


@dataclass(frozen=True)
class Decoded:
    """Sampled outcomes decoded: readable labels with their counts, and the sampled p_win."""

    counts: dict[str, int]
    p_win: float
    shots: int


def decode_counts(
    spec: Endgame, game: GameCircuit, raw: Mapping[int, int], stage: Stage | None = None
) -> Decoded:
    """Decode integer outcomes of the ``outcome`` register into game states after ``stage``.

    Outcomes that encode no game state (noise on hardware) are counted under
    :data:`INVALID_LABEL` and as losses. ``shots`` is the number of outcomes sampled, which
    can exceed the number asked for (the runtime's twirling rounds it up). ``p_win`` counts the
    declarer's points at ``stage`` (default: the last stage, where it is the win probability).
    """
    stage = game.stages[-1] if stage is None else stage

    def label_and_win(outcome: int) -> tuple[str, bool]:
        try:
            snap = game.layout.decode(outcome, stage)
        except InvalidOutcome:
            return INVALID_LABEL, False
        return readable_label(snap, spec), snap.declarer_points(spec) >= spec.target

    decoded = regroup(raw, label_and_win)
    shots = sum(decoded.values())
    wins = sum(n for (_label, won), n in decoded.items() if won)
    counts = regroup(decoded, lambda key: key[0])
    return Decoded(dict(sorted(counts.items())), wins / shots if shots else 0.0, shots)


def outcome_counts(pub_result) -> dict[int, int]:
    """Integer counts of the ``outcome`` register of one sampler pub result."""
    counts = getattr(pub_result.data, OUTCOME_REGISTER).get_int_counts()
    return {int(k): int(v) for k, v in counts.items()}


def run_spec(
    spec: Endgame,
    backend: str = "aer",
    shots: int = 1000,
    seed: int | None = None,
    first: Card | None = None,
    construction: str = "paper",
    on_transpiled=None,
) -> RunReport:
    """Sample the final game state of ``spec`` on ``backend`` and decode the outcomes.

    ``ibm:NAME`` runs on IBM hardware (:func:`qcards.ibm.run_on_ibm`: the job is recorded in the
    job store before waiting, without error suppression).

    Args:
        on_transpiled: called with the :class:`TranspiledSize` before the circuit runs.
    """
    if backend.startswith("ibm:"):
        from qcards.ibm import run_on_ibm

        return run_on_ibm(spec, backend, shots, seed, first, construction, on_transpiled)
    game = build_game(spec, first, construction=construction)
    if backend in ("statevector", "aer"):
        check_capacity(game.num_qubits, "aer")
    target, sampler = named_backend(backend, seed)
    emulated = backend.startswith(FAKE_PREFIXES)
    transpiled = transpile_to(measured_circuit(game), target, seed, "qubits" if emulated else None)
    size = transpiled_size(transpiled)
    if on_transpiled is not None:
        on_transpiled(size)
    if emulated:
        check_capacity(size.num_qubits, "aer")  # Aer keeps only the active device qubits
    result = sampler.run([transpiled], shots=shots).result()[0]
    decoded = decode_counts(spec, game, outcome_counts(result))
    return RunReport(backend, decoded.shots, decoded.counts, decoded.p_win, size)

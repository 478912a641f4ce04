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
from qcards.backends import check_capacity, named_backend
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


def transpile_to(circuit: QuantumCircuit, target, seed: int | None = None) -> QuantumCircuit:
    """Qiskit's preset pass manager (optimization level 1) for the backend ``target``."""
    manager = generate_preset_pass_manager(
        optimization_level=1, backend=target, seed_transpiler=0 if seed is None else seed
    )
    return manager.run(circuit)


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
    transpiled = transpile_to(measured_circuit(game), target, seed)
    size = transpiled_size(transpiled)
    if on_transpiled is not None:
        on_transpiled(size)
    if backend.startswith(("fake:", "fake-aer:")):
        check_capacity(size.num_qubits, "aer")  # Aer keeps only the active device qubits
    result = sampler.run([transpiled], shots=shots).result()[0]
    decoded = decode_counts(spec, game, outcome_counts(result))
    return RunReport(backend, decoded.shots, decoded.counts, decoded.p_win, size)

"""Prepare a game circuit for a device or simulator: measure it, transpile it with Qiskit's
preset pass manager, and size it before it runs."""

from __future__ import annotations

from dataclasses import dataclass

from qiskit.circuit import ClassicalRegister, QuantumCircuit
from qiskit.converters import circuit_to_dag
from qiskit.transpiler import generate_preset_pass_manager

from qcards.circuits.decode import OUTCOME_REGISTER
from qcards.circuits.game import GameCircuit
from qcards.skat.position.stages import Stage


@dataclass(frozen=True)
class TranspiledSize:
    """Size of the transpiled circuit, reported before it runs."""

    two_qubit_gates: int
    depth: int
    num_qubits: int


def transpiled_size(circuit: QuantumCircuit) -> TranspiledSize:
    """Two-qubit gates (the DAG's ``two_qubit_ops``: a simulator target may keep wider gates,
    which are not counted), depth, and the qubits that some instruction other than a barrier
    touches (the wires the DAG does not report idle)."""
    dag = circuit_to_dag(circuit)
    qubits = set(circuit.qubits)
    idle = [wire for wire in dag.idle_wires(ignore=["barrier"]) if wire in qubits]
    return TranspiledSize(len(dag.two_qubit_ops()), dag.depth(), circuit.num_qubits - len(idle))


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
        if best_key is None or key < best_key:  # set together with best
            best, best_key = candidate, key
    return best


def outcome_counts(pub_result) -> dict[int, int]:
    """Integer counts of the ``outcome`` register of one sampler pub result."""
    counts = getattr(pub_result.data, OUTCOME_REGISTER).get_int_counts()
    return {int(k): int(v) for k, v in counts.items()}

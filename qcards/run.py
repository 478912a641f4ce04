"""Run a spec's game circuit on a named backend: transpile, report its size, sample, decode.

The execution path a hardware run will take (issue 5): the circuit is transpiled to the
backend's target with Qiskit's preset pass manager, its two-qubit gate count and depth are
reported *before* it runs, and the measured outcomes are decoded into game states.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from qiskit.circuit import ClassicalRegister
from qiskit.transpiler import generate_preset_pass_manager

from qcards.analysis import regroup
from qcards.backends import check_capacity, named_backend
from qcards.cards import Card
from qcards.encoding import readable_label
from qcards.game import build_game
from qcards.spec import Endgame


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

    Args:
        on_transpiled: called with the :class:`TranspiledSize` before the circuit runs.
    """
    game = build_game(spec, first, construction=construction)
    if backend in ("statevector", "aer"):
        check_capacity(game.num_qubits, "aer")
    target, sampler = named_backend(backend, seed)
    qc = game.circuit.copy_empty_like("run")
    qc.compose(game.circuit, inplace=True)
    qc.add_register(ClassicalRegister(len(game.layout.measured), "outcome"))
    qc.measure(game.layout.measured, qc.clbits)
    manager = generate_preset_pass_manager(
        optimization_level=1, backend=target, seed_transpiler=0 if seed is None else seed
    )
    transpiled = manager.run(qc)
    size = transpiled_size(transpiled)
    if on_transpiled is not None:
        on_transpiled(size)
    result = sampler.run([transpiled], shots=shots).result()[0]
    raw = result.data.outcome.get_int_counts()
    last = game.stages[-1]
    snapshots = regroup(raw, lambda outcome: game.layout.decode(outcome, last))
    wins = sum(n for snap, n in snapshots.items() if snap.declarer_points(spec) >= spec.target)
    counts = regroup(snapshots, lambda snap: readable_label(snap, spec))
    return RunReport(backend, shots, dict(sorted(counts.items())), wins / shots, size)

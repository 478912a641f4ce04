"""Export the paper examples' game circuits as OpenQASM 3 and QPY (``qcards export``).

Each example is exported in both constructions, lowered to the basis {cx, u} (so any OpenQASM 3
consumer can read it without qcards' gate definitions) and with every history register measured
into a classical register ``outcome`` (bit i = :attr:`GameLayout.measured` qubit i, decoded by
:meth:`GameLayout.decode`). The repository keeps the files in ``circuits/``; a test rebuilds them
and fails if they drift from what the code builds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from qiskit import qasm3, qpy, transpile
from qiskit.circuit import ClassicalRegister, QuantumCircuit

from qcards.circuits.construction import CONSTRUCTIONS
from qcards.circuits.game import build_game
from qcards.files import atomic_path, write_text
from qcards.paper.examples import EXAMPLES

DEFAULT_DIR = Path("circuits")
BASIS = ["cx", "u"]


@dataclass(frozen=True)
class ExportedCircuit:
    """One exported circuit: its file stem and the circuit written."""

    name: str
    circuit: QuantumCircuit


def exported_circuits() -> list[ExportedCircuit]:
    """The circuits ``qcards export`` writes, built fresh."""
    out = []
    for key, example in EXAMPLES.items():
        for construction in CONSTRUCTIONS:
            game = build_game(example.spec(), construction=construction)
            qc = game.circuit.copy_empty_like(f"{key}_{construction}")
            qc.compose(game.circuit, inplace=True)
            qc.add_register(ClassicalRegister(len(game.layout.measured), "outcome"))
            qc.measure(game.layout.measured, qc.clbits)
            lowered = transpile(qc, basis_gates=BASIS, optimization_level=0, seed_transpiler=0)
            lowered.name = f"{key}_{construction}"
            out.append(ExportedCircuit(f"{key}-{construction}", lowered))
    return out


def export_circuits(out_dir: str | Path = DEFAULT_DIR) -> list[Path]:
    """Write ``<example>-<construction>.qasm`` and ``.qpy`` for every exported circuit."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for item in exported_circuits():
        qasm_path = out_dir / f"{item.name}.qasm"
        write_text(qasm_path, qasm3.dumps(item.circuit) + "\n")
        qpy_path = out_dir / f"{item.name}.qpy"
        with atomic_path(qpy_path) as temporary, temporary.open("wb") as handle:
            qpy.dump(item.circuit, handle)
        written += [qasm_path, qpy_path]
    return written

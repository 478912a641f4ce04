"""Export game circuits as OpenQASM 3 and QPY (``qcards export``): the paper's examples, or any
spec with a fixed first card and a construction of choice.

Each example is exported in every registered construction, lowered to the basis {cx, u} (so any
OpenQASM 3 consumer can read it without qcards' gate definitions) and with every history
register measured into a classical register ``outcome`` (bit i = :attr:`GameLayout.measured`
qubit i, decoded by :meth:`GameLayout.decode`). The repository keeps the files in ``circuits/``;
a test rebuilds them and fails if they drift from what the code builds.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from qiskit import qasm3, qpy, transpile
from qiskit.circuit import ClassicalRegister, QuantumCircuit

from qcards.circuits.construction import (
    DEFAULT_CONSTRUCTION,
    Construction,
    construction_names,
    get_construction,
)
from qcards.circuits.game import build_game
from qcards.errors import ParameterError, ResourceError
from qcards.files import atomic_path, write_text
from qcards.paper.examples import EXAMPLES
from qcards.skat.position.spec import Endgame
from qcards.skat.rules.cards import Card

DEFAULT_DIR = Path("circuits")
BASIS = ["cx", "u"]


@dataclass(frozen=True)
class ExportedCircuit:
    """One exported circuit: its file stem and the circuit written."""

    name: str
    circuit: QuantumCircuit


FORMATS = ("qasm3", "qpy")
"""The file formats written: OpenQASM 3 text (``.qasm``) and Qiskit's binary QPY (``.qpy``)."""

MAX_LOWERED_CX = 5_000_000
"""The most CX a circuit may have to be lowered and written (about a minute and a gigabyte of
QASM text; the full game's efficient circuit has 423,558)."""


def exported_circuit(
    spec: Endgame,
    first: Card | None,
    construction: Construction | str,
    name: str,
    paper_codes: bool = False,
) -> ExportedCircuit:
    """``spec``'s game circuit, measured into ``outcome`` and lowered to {cx, u}."""
    game = build_game(spec, first, paper_codes, construction)
    qc = game.circuit.copy_empty_like(name.replace("-", "_"))
    qc.compose(game.circuit, inplace=True)
    qc.add_register(ClassicalRegister(len(game.layout.measured), "outcome"))
    qc.measure(game.layout.measured, qc.clbits)
    lowered = transpile(qc, basis_gates=BASIS, optimization_level=0, seed_transpiler=0)
    lowered.name = name.replace("-", "_")
    return ExportedCircuit(name, lowered)


def exported_circuits(constructions: tuple[str, ...] | None = None) -> list[ExportedCircuit]:
    """The circuits ``qcards export`` writes, built fresh: the paper's examples in
    ``constructions`` (every registered one when None)."""
    chosen = construction_names() if constructions is None else constructions
    return [
        exported_circuit(example.spec(), None, construction, f"{key}-{construction}")
        for key, example in EXAMPLES.items()
        for construction in chosen
    ]


def check_export_size(spec: Endgame, construction: Construction) -> None:
    """Refuse, before building anything, a circuit too large to lower and write: a construction
    that grows exponentially is counted by its formula first (the paper's:
    :mod:`qcards.circuits.syntheses.paper_counts`)."""
    if construction.formula_counts is None:
        return
    counts = construction.formula_counts(spec)[1]
    cx = sum(count.cx for kind, count in counts.items() if kind != "game")
    if cx > MAX_LOWERED_CX:
        raise ResourceError(
            f"the {construction} construction of this spec has about {cx:.3g} CX gates "
            f"lowered; qcards writes circuits of at most {MAX_LOWERED_CX:,} (use "
            "{construction} efficient, which builds the same game polynomially)",
            parameters=("construction",),
        )


def spec_name(spec: Endgame, first: Card | None, construction: Construction) -> str:
    """The file stem of a spec's export: ``<spec file stem>[-<first>]-<construction>``."""
    stem = Path(spec.source).stem if spec.source else "spec"
    return "-".join([stem, *([str(first)] if first else []), str(construction)])


def export_spec(
    spec: Endgame,
    out_dir: str | Path = DEFAULT_DIR,
    first: Card | None = None,
    construction: Construction | str = DEFAULT_CONSTRUCTION,
    formats: tuple[str, ...] = FORMATS,
) -> list[Path]:
    """Write one spec's game circuit (``first`` card fixed or not) in ``formats``."""
    construction = get_construction(construction)
    check_formats(formats)
    check_export_size(spec, construction)
    item = exported_circuit(spec, first, construction, spec_name(spec, first, construction))
    return write_circuits([item], out_dir, formats)


def export_circuits(
    out_dir: str | Path = DEFAULT_DIR,
    formats: tuple[str, ...] = FORMATS,
    constructions: tuple[str, ...] | None = None,
) -> list[Path]:
    """Write ``<example>-<construction>.qasm`` and ``.qpy`` for every exported circuit (the
    paper's examples in ``constructions``, every registered one when None)."""
    check_formats(formats)
    # every circuit is built (an unknown construction refused) before any file is written
    return write_circuits(exported_circuits(constructions), out_dir, formats)


def check_formats(formats: tuple[str, ...]) -> None:
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise ParameterError(
            "formats", f"unknown format {unknown or formats!r} (expected {' | '.join(FORMATS)})"
        )


def write_circuits(
    items: list[ExportedCircuit], out_dir: str | Path, formats: tuple[str, ...]
) -> list[Path]:
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for item in items:
        if "qasm3" in formats:
            qasm_path = out_dir / f"{item.name}.qasm"
            write_text(qasm_path, qasm3.dumps(item.circuit) + "\n")
            written.append(qasm_path)
        if "qpy" in formats:
            qpy_path = out_dir / f"{item.name}.qpy"
            with atomic_path(qpy_path) as temporary, temporary.open("wb") as handle:
                qpy.dump(item.circuit, handle)
            written.append(qpy_path)
    return written

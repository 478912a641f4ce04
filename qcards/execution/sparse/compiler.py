"""The sparse engine's circuit compiler: instructions into steps.

A step is a small frozen dataclass with ``apply(state)`` (one kernel call,
:mod:`qcards.execution.sparse.kernels`, or a gate's own ``sparse_apply``) and
``relocate(qubits)``: the same step with its local qubit ``i`` moved to ``qubits[i]``. A gate is
compiled once on its local qubits 0..n-1 (:meth:`Compiler.op_steps`, cached per gate object)
and relocated wherever the circuit places it, so every field that names qubits is listed in the
step's ``QUBITS`` and nothing else changes.

The choice (:meth:`Compiler._compile_op`): a gate with a ``sparse_apply`` method runs it (the
game gates' classical actions); X is a pending flip; a controlled single-qubit gate or SWAP
keeps its controls whole (never decomposed); UCRY/UCRZ/UCGate run as multiplexed single-qubit
gates; any other gate with a matrix of at most :data:`MAX_LOCAL_QUBITS` qubits runs through its
matrix; everything else through ``op.definition``, recursively. This module imports no state:
steps call the state's methods and the kernels on whatever state they are given.
"""

from __future__ import annotations

import abc
import cmath
import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from qiskit.circuit import ControlledGate, Instruction, QuantumCircuit
from qiskit.circuit.library import GlobalPhaseGate, SwapGate, UCGate, UCPauliRotGate, UnitaryGate

from qcards.execution.sparse import kernels

MAX_LOCAL_QUBITS = 10
"""Gates with a matrix (``__array__``) up to this width are applied through the matrix."""

SKIP = frozenset({"barrier", "delay"})
REFUSE = frozenset({"measure", "reset", "initialize"})


@dataclass(frozen=True, eq=False, slots=True)
class Step(abc.ABC):
    """One compiled instruction; subclasses name their qubit fields in ``QUBITS`` (each an
    index or a tuple of indices into the circuit's qubits)."""

    QUBITS: ClassVar[tuple[str, ...]] = ()

    @abc.abstractmethod
    def apply(self, state: Any) -> None:
        """Apply the instruction to every row of ``state`` (a sparse state) in place."""

    def relocate(self, qubits: Sequence[int]) -> Step:
        """The step with local qubit ``i`` moved to ``qubits[i]``."""
        if not self.QUBITS:
            return self
        moved = {}
        for name in self.QUBITS:
            value = getattr(self, name)
            moved[name] = (
                tuple(qubits[i] for i in value) if isinstance(value, tuple) else qubits[value]
            )
        return dataclasses.replace(self, **moved)


@dataclass(frozen=True, eq=False, slots=True)
class GlobalPhase(Step):
    phi: float

    def apply(self, state: Any) -> None:
        state.global_phase(self.phi)


@dataclass(frozen=True, eq=False, slots=True)
class X(Step):
    QUBITS: ClassVar[tuple[str, ...]] = ("target",)
    target: int

    def apply(self, state: Any) -> None:
        state.x(self.target)


@dataclass(frozen=True, eq=False, slots=True)
class MCX(Step):
    QUBITS: ClassVar[tuple[str, ...]] = ("controls", "target")
    controls: tuple[int, ...]
    target: int
    ctrl_state: int | None

    def apply(self, state: Any) -> None:
        kernels.mcx(state, self.controls, self.target, self.ctrl_state)


@dataclass(frozen=True, eq=False, slots=True)
class Swap(Step):
    QUBITS: ClassVar[tuple[str, ...]] = ("a", "b", "controls")
    a: int
    b: int
    controls: tuple[int, ...] = ()
    ctrl_state: int | None = None

    def apply(self, state: Any) -> None:
        kernels.swap(state, self.a, self.b, self.controls, self.ctrl_state)


@dataclass(frozen=True, eq=False, slots=True)
class Unitary1Q(Step):
    QUBITS: ClassVar[tuple[str, ...]] = ("target", "controls")
    target: int
    matrix: np.ndarray
    controls: tuple[int, ...] = ()
    ctrl_state: int | None = None

    def apply(self, state: Any) -> None:
        kernels.unitary_1q(state, self.target, self.matrix, self.controls, self.ctrl_state)


@dataclass(frozen=True, eq=False, slots=True)
class Multiplexed1Q(Step):
    QUBITS: ClassVar[tuple[str, ...]] = ("target", "controls")
    target: int
    controls: tuple[int, ...]
    matrices: tuple[np.ndarray, ...]

    def apply(self, state: Any) -> None:
        kernels.multiplexed_1q(state, self.target, self.controls, self.matrices)


@dataclass(frozen=True, eq=False, slots=True)
class Unitary(Step):
    QUBITS: ClassVar[tuple[str, ...]] = ("qubits",)
    qubits: tuple[int, ...]
    matrix: np.ndarray

    def apply(self, state: Any) -> None:
        kernels.unitary(state, self.qubits, self.matrix)


@dataclass(frozen=True, eq=False, slots=True)
class ClassicalAction(Step):
    """A gate's own ``sparse_apply(state, qubits)``, called on plain rows (pending flips and
    phase folded first)."""

    QUBITS: ClassVar[tuple[str, ...]] = ("qubits",)
    op: Instruction
    qubits: tuple[int, ...]

    def apply(self, state: Any) -> None:
        state.fold()
        self.op.sparse_apply(state, self.qubits)


_MATRIX_CACHE: dict[tuple, np.ndarray] = {}


def _matrix_key(op: Instruction) -> tuple | None:
    try:
        params = tuple(
            float(p) if not isinstance(p, np.ndarray) else p.tobytes() for p in op.params
        )
    except (TypeError, ValueError):
        return None
    return (type(op), op.name, op.num_qubits, params, getattr(op, "ctrl_state", None))


def _matrix(op: Instruction) -> np.ndarray:
    if (type(op).__module__ or "qiskit").startswith("qiskit") and not isinstance(op, UnitaryGate):
        key = _matrix_key(op)
        if key is not None:
            m = _MATRIX_CACHE.get(key)
            if m is None:
                m = _MATRIX_CACHE[key] = np.asarray(op.to_matrix(), dtype=complex)
            return m
    return np.asarray(op.to_matrix(), dtype=complex)


def _has_matrix(op: Instruction) -> bool:
    return hasattr(op, "__array__")


def _params_unbound(op: Instruction) -> bool:
    return any(hasattr(p, "parameters") and p.parameters for p in op.params)


def _ucpauli_matrices(op: UCPauliRotGate) -> tuple[np.ndarray, ...]:
    axis = op.rot_axes
    out = []
    for theta in op.params:
        c, s = math.cos(theta / 2), math.sin(theta / 2)
        if axis == "Y":
            out.append(np.array([[c, -s], [s, c]], dtype=complex))
        elif axis == "Z":
            out.append(np.diag([cmath.exp(-0.5j * theta), cmath.exp(0.5j * theta)]))
        else:  # X
            out.append(np.array([[c, -1j * s], [-1j * s, c]], dtype=complex))
    return tuple(out)


def _relocated(steps: list[Step], qubits: tuple[int, ...]) -> list[Step]:
    if qubits == tuple(range(len(qubits))):
        return steps
    return [step.relocate(qubits) for step in steps]


class Compiler:
    """Compiles instructions into engine steps, caching each gate object's local program
    (public for engines that run a circuit instruction by instruction, such as the shot
    sampler :mod:`qcards.execution.shots`)."""

    # (game circuit, the steps of each of its instructions), set by the shards' runs
    # (qcards.execution.sparse.shards) on the compilers they keep
    instruction_steps: tuple[Any, list[list[Step]]]

    def __init__(self, classical_actions: bool = True) -> None:
        # compiled local programs of gate objects (kept alive, so ids stay unique)
        self.cache: dict[int, tuple[Instruction, list[Step]]] = {}
        self.classical_actions = classical_actions

    def op_steps(self, op: Instruction) -> list[Step]:
        """The steps of ``op`` on local qubits 0..n-1."""
        hit = self.cache.get(id(op))
        if hit is not None and hit[0] is op:
            return hit[1]
        steps = self._compile_op(op, tuple(range(op.num_qubits)))
        self.cache[id(op)] = (op, steps)
        return steps

    def circuit_steps(self, qc: QuantumCircuit) -> list[Step]:
        """The steps of the whole circuit ``qc`` (its global phase first)."""
        steps: list[Step] = []
        if qc.global_phase:
            steps.append(GlobalPhase(float(qc.global_phase)))
        index = {q: i for i, q in enumerate(qc.qubits)}
        for inst in qc.data:
            qubits = tuple(index[q] for q in inst.qubits)
            op = inst.operation
            if op.name in SKIP:
                continue
            if op.name in REFUSE or inst.clbits:
                raise ValueError(
                    f"the sparse engine simulates unitary circuits only; found {op.name!r}"
                )
            steps.extend(self.placed(op, qubits))
        return steps

    def placed(self, op: Instruction, qubits: tuple[int, ...]) -> list[Step]:
        """The steps of ``op`` acting on the circuit's qubits ``qubits``."""
        return _relocated(self.op_steps(op), qubits)

    def _compile_op(self, op: Instruction, q: tuple[int, ...]) -> list[Step]:
        name = op.name
        if name in SKIP:
            return []
        if name in REFUSE:
            raise ValueError(f"the sparse engine simulates unitary circuits only; found {name!r}")
        if self.classical_actions and callable(getattr(op, "sparse_apply", None)):
            return [ClassicalAction(op, q)]
        if isinstance(op, GlobalPhaseGate):
            return [GlobalPhase(float(op.params[0]))]
        if name == "x":
            return [X(q[0])]
        if isinstance(op, ControlledGate) and not _params_unbound(op):
            base = op.base_gate
            nc = op.num_ctrl_qubits
            ctrls, rest = q[:nc], q[nc:]
            if base.num_qubits == 1 and len(rest) == 1:
                if base.name == "x":
                    return [MCX(ctrls, rest[0], op.ctrl_state)]
                if _has_matrix(base):
                    return [Unitary1Q(rest[0], _matrix(base), ctrls, op.ctrl_state)]
            if isinstance(base, SwapGate) and len(rest) == 2:
                return [Swap(rest[0], rest[1], ctrls, op.ctrl_state)]
        if isinstance(op, SwapGate):
            return [Swap(q[0], q[1])]
        if isinstance(op, UCPauliRotGate):
            return [Multiplexed1Q(q[0], q[1:], _ucpauli_matrices(op))]
        if isinstance(op, UCGate) and not op.up_to_diagonal:
            mats = tuple(np.asarray(m, dtype=complex) for m in op.params)
            return [Multiplexed1Q(q[0], q[1:], mats)]
        if op.num_qubits <= MAX_LOCAL_QUBITS and _has_matrix(op) and not _params_unbound(op):
            m = _matrix(op)
            if op.num_qubits == 1:
                return [Unitary1Q(q[0], m)]
            return [Unitary(q, m)]
        definition = op.definition
        if definition is None:
            raise ValueError(f"the sparse engine cannot simulate {name!r}: no definition")
        return _relocated(self.circuit_steps(definition), q)


def compile_circuit(circuit: QuantumCircuit, classical_actions: bool = True) -> list[Step]:
    """The flat list of engine steps of ``circuit`` (decompositions resolved, cached per gate
    object). ``classical_actions=False`` ignores the gates' ``sparse_apply`` and runs their
    definitions (for comparisons)."""
    return Compiler(classical_actions).circuit_steps(circuit)

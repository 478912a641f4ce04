"""Logical (fault-tolerant) counts of a circuit: qubits, Toffoli-class gates, T gates,
arbitrary rotations, rotation depth and measurements: the input of a surface-code resource
estimate (the paper's Sec. IX asks what the full game costs; this is the quantum side of
``qcards resources --fault-tolerant``).

How a gate is counted (the usual Clifford+T accounting of the fault-tolerance literature):

* Clifford gates (X, H, S, CX, CZ, SWAP, ...) are free: a surface code does them by lattice
  surgery or in software, and the estimator's runtime is set by the non-Clifford gates.
* T and T-dagger count as T gates; CCX, CCZ and CSWAP as one Toffoli (CCZ) each.
* An X with k >= 3 controls is Gidney's chain of temporary logical-ANDs ("Halving the cost of
  quantum addition", Quantum 2, 74, 2018): k - 2 ANDs (the estimator's ``ccix``) into k - 2
  clean ancillas, one Toffoli onto the target, and k - 2 uncomputations by measurement
  (measurements, no T cost).
* A phase :math:`P(\\theta)` with k controls (QFT phases, the win oracle's adder) is the AND of
  all k + 1 qubits computed into an ancilla, one single-qubit phase on it, and the chain
  uncomputed: k ANDs, k measurements, one rotation.
* A rotation R(theta) about X, Y or Z with k controls: the AND of the controls (k - 1 ANDs for
  k >= 2), then a singly controlled rotation, two rotations by theta/2 around a CX pair.
* A single-qubit rotation is Clifford at multiples of pi/2, a T gate at odd multiples of
  pi/4, and an arbitrary rotation otherwise (synthesised by the estimator); ``u`` is
  Rz Ry Rz and counts each of its angles.
* Anything else is counted from its definition, once per distinct gate (a cache keyed by the
  gate's class, name, size and parameters; qcards' own gates are keyed by the gate itself, so
  a gate is never mistaken for another of the same name).

Qiskit's call-graph tools count gates by flattening; here each distinct gate is counted once
and its count reused, as Qualtran's call graphs do, so the full game (some 10^5 gates of the
efficient construction inside 41 concept gates) counts in seconds. ``tests/test_logical_counts``
checks every count against the same rules applied to the fully flattened circuit.

Rotation depth is the flattened circuit's: every gate counted by rule is a block whose
rotation layers are laid after the latest layer on any of its qubits (a controlled rotation's
two half-angle rotations are two layers), reached by walking down the definitions without
building the flat circuit. Sequences of circuits (:meth:`LogicalCounts.then`) add their depths,
an upper bound.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, fields, replace

from qiskit.circuit import ControlledGate, Instruction, QuantumCircuit

from qcards.errors import ResourceError
from qcards.files import json_fields

CLIFFORD_GATES = frozenset(
    {
        "id", "x", "y", "z", "h", "s", "sdg", "sx", "sxdg", "cx", "cy", "cz", "ch", "swap",
        "iswap", "ecr", "dcx", "barrier", "delay", "global_phase", "reset",
    }
)  # fmt: skip
"""Gates counted as free (Clifford, or not a gate)."""

T_GATES = frozenset({"t", "tdg"})
TOFFOLI_GATES = frozenset({"ccx", "ccz", "cswap"})
PHASE_GATES = frozenset({"p", "u1", "cp", "cu1", "mcphase", "mcu1"})
"""Phases, with or without controls: one rotation on the AND of all their qubits."""
AXIS_ROTATIONS = frozenset({"rx", "ry", "rz", "crx", "cry", "crz", "mcrx", "mcry", "mcrz"})

_EPS = 1e-9
_LIBRARY = "qiskit.circuit.library"


@dataclass(frozen=True)
class LogicalCounts:
    """The logical resources of one circuit (or of a sequence of circuits on one register).

    Attributes:
        num_qubits: the circuit's qubits plus the most ancillas its ANDs hold at once.
        toffolis: CCX/CCZ (and CSWAP, one Toffoli each).
        ands: temporary logical-ANDs (the estimator's ``ccix``, 4 T gates or one CCZ-state
            each); uncomputed by measurement.
        t_gates: T and T-dagger gates, and rotations at odd multiples of pi/4.
        rotations: single-qubit rotations by angles that are not multiples of pi/4.
        rotation_depth: layers of rotations (an upper bound; see the module's docstring).
        measurements: measurements, including the ANDs' uncomputations.
        ancillas: the most ancillas held at once (included in ``num_qubits``).
    """

    num_qubits: int = 0
    toffolis: int = 0
    ands: int = 0
    t_gates: int = 0
    rotations: int = 0
    rotation_depth: int = 0
    measurements: int = 0
    ancillas: int = 0

    @property
    def toffoli_class(self) -> int:
        """Toffolis and ANDs together: the gates that each consume one CCZ state."""
        return self.toffolis + self.ands

    def then(self, other: LogicalCounts) -> LogicalCounts:
        """The circuit followed by ``other`` on the same register (depths add)."""
        return LogicalCounts(
            num_qubits=max(self.num_qubits, other.num_qubits),
            toffolis=self.toffolis + other.toffolis,
            ands=self.ands + other.ands,
            t_gates=self.t_gates + other.t_gates,
            rotations=self.rotations + other.rotations,
            rotation_depth=self.rotation_depth + other.rotation_depth,
            measurements=self.measurements + other.measurements,
            ancillas=max(self.ancillas, other.ancillas),
        )

    def times(self, repeats: int) -> LogicalCounts:
        """The circuit ``repeats`` times in a row."""
        total = LogicalCounts(num_qubits=self.num_qubits, ancillas=self.ancillas)
        scaled = {
            f.name: getattr(self, f.name) * repeats
            for f in fields(self)
            if f.name not in ("num_qubits", "ancillas")
        }
        return LogicalCounts(**{**total.__dict__, **scaled})

    def widened(self, extra_qubits: int) -> LogicalCounts:
        """The same gates on a register ``extra_qubits`` wider (an evaluation register)."""
        return LogicalCounts(**{**self.__dict__, "num_qubits": self.num_qubits + extra_qubits})

    def to_json(self) -> dict:
        return json_fields(
            self,
            "num_qubits toffoli_class toffolis ands t_gates rotations rotation_depth measurements",
            keys={"num_qubits": "logical_qubits", "toffoli_class": "toffoli_ccz", "t_gates": "t"},
        )

    def estimator_input(self) -> dict:
        """The Microsoft resource estimator's logical counts (``qdk.estimator.LogicalCounts``)."""
        return {key: getattr(self, name) for name, key in ESTIMATOR_KEYS.items()}


ESTIMATOR_KEYS = {
    "num_qubits": "numQubits",
    "t_gates": "tCount",
    "rotations": "rotationCount",
    "rotation_depth": "rotationDepth",
    "toffolis": "cczCount",
    "ands": "ccixCount",
    "measurements": "measurementCount",
}
"""The Microsoft resource estimator's names of :class:`LogicalCounts`' fields."""


FREE = LogicalCounts()
"""A gate's count when it is free; a gate's own count leaves ``num_qubits`` at 0 (the cache
holds counts on a gate's own qubits; only a gate counted by rule has a rotation depth there, a
composite gate's is laid from its definition)."""


def _angle_cost(theta: float, times: int = 1) -> LogicalCounts:
    """``times`` single-qubit rotations by ``theta`` (radians), in sequence on one qubit."""
    quarter = theta / (math.pi / 4)
    if abs(quarter - round(quarter)) < _EPS:
        if round(quarter) % 2 == 0:
            return FREE  # a multiple of pi/2: Clifford
        return LogicalCounts(t_gates=times)
    return LogicalCounts(rotations=times, rotation_depth=times)


def _and_chain(width: int) -> LogicalCounts:
    """The AND of ``width`` qubits into an ancilla and back: width - 1 ANDs and measurements."""
    ands = max(0, width - 1)
    return LogicalCounts(ands=ands, measurements=ands, ancillas=ands)


def _plus(*counts: LogicalCounts) -> LogicalCounts:
    return functools.reduce(LogicalCounts.then, counts, FREE)


def _float_params(op: Instruction) -> list[float]:
    try:
        return [float(p) for p in op.params]
    except TypeError:
        raise ResourceError(
            f"gate {op.name!r} has unbound parameters {op.params}: bind them before counting"
        ) from None


def _leaf_cost(op: Instruction) -> LogicalCounts | None:
    """The cost of a gate the rules of the module's docstring count directly; None when it is
    counted from its definition."""
    name = op.name
    if name in CLIFFORD_GATES:
        return FREE
    if name == "measure":
        return LogicalCounts(measurements=1)
    if name in T_GATES:
        return LogicalCounts(t_gates=1)
    if name in TOFFOLI_GATES:
        return LogicalCounts(toffolis=1)
    controls = op.num_ctrl_qubits if isinstance(op, ControlledGate) else 0
    if name == "mcx" or (name.startswith("c") and name.endswith("x") and name[1:-1].isdigit()):
        if controls <= 1:
            return FREE
        if controls == 2:
            return LogicalCounts(toffolis=1)
        chain = _and_chain(controls - 1)
        return _plus(chain, LogicalCounts(toffolis=1))
    if name in PHASE_GATES:
        (theta,) = _float_params(op)[:1]
        return _plus(_and_chain(controls + 1), _angle_cost(theta))
    if name in AXIS_ROTATIONS:
        (theta,) = _float_params(op)[:1]
        if controls == 0:
            return _angle_cost(theta)
        return _plus(_and_chain(controls), _angle_cost(theta / 2, times=2))
    if name in ("u", "u3"):
        theta, phi, lam = _float_params(op)
        return _plus(_angle_cost(phi), _angle_cost(theta), _angle_cost(lam))
    return None


def _cache_key(op: Instruction) -> tuple:
    """Qiskit's library gates are determined by class, name, size, parameters and control
    state; any other gate (qcards' own, circuits turned into instructions) by itself."""
    module = getattr(getattr(op, "base_class", type(op)), "__module__", None) or ""
    if module.startswith(_LIBRARY):
        ctrl = getattr(op, "ctrl_state", None)
        return (type(op), op.name, op.num_qubits, tuple(map(str, op.params)), ctrl)
    return ("object", id(op))


class LogicalCounter:
    """Counts circuits by the module's rules, each distinct gate once (a call graph with a
    cache); reuse one counter to share the cache across circuits built from the same gates."""

    def __init__(self) -> None:
        self._cache: dict[tuple, LogicalCounts] = {}
        self._indices: dict[int, dict] = {}  # qubit positions of each definition
        self._alive: list = []  # what is keyed by identity stays alive

    def count(self, circuit: QuantumCircuit) -> LogicalCounts:
        """The logical counts of ``circuit`` (its qubits plus the ancillas its ANDs hold)."""
        cost = self._circuit_cost(circuit)
        layer = [0] * circuit.num_qubits
        self._lay_rotations(circuit, range(circuit.num_qubits), layer)
        depth = max(layer, default=0)
        return replace(cost, num_qubits=circuit.num_qubits + cost.ancillas, rotation_depth=depth)

    def gate_cost(self, op: Instruction) -> LogicalCounts:
        leaf = _leaf_cost(op)
        if leaf is not None:
            return leaf
        key = _cache_key(op)
        found = self._cache.get(key)
        if found is None:
            definition = op.definition
            if definition is None:
                raise ResourceError(
                    f"gate {op.name!r} on {op.num_qubits} qubits has no definition and no "
                    "counting rule (qcards.circuits.logical_counts)"
                )
            found = self._circuit_cost(definition)
            self._cache[key] = found
            if key[0] == "object":
                self._alive.append(op)
        return found

    def _lay_rotations(self, circuit: QuantumCircuit, positions, layer: list[int]) -> None:
        """Lay ``circuit``'s rotations, placed on the outer circuit's qubits ``positions``,
        into ``layer`` (each qubit's latest rotation layer), going down every definition to
        the gates counted by rule: the exact rotation depth of the flattened circuit."""
        index = self._indices.get(id(circuit))
        if index is None:
            index = self._indices[id(circuit)] = {q: i for i, q in enumerate(circuit.qubits)}
            self._alive.append(circuit)
        for instruction in circuit.data:
            op = instruction.operation
            cost = self.gate_cost(op)
            if len(instruction.qubits) < 2 and not cost.rotations:
                continue
            where = [positions[index[q]] for q in instruction.qubits]
            if _leaf_cost(op) is None:
                self._lay_rotations(op.definition, where, layer)
                continue
            top = max(layer[q] for q in where) + cost.rotation_depth
            for q in where:
                layer[q] = top

    def _circuit_cost(self, circuit: QuantumCircuit) -> LogicalCounts:
        """The summed count of ``circuit``'s gates (its depth is laid by
        :meth:`_lay_rotations`)."""
        total = [0, 0, 0, 0, 0]  # toffolis, ands, t, rotations, measurements
        ancillas = 0
        for instruction in circuit.data:
            cost = self.gate_cost(instruction.operation)
            if cost is FREE:
                continue
            total[0] += cost.toffolis
            total[1] += cost.ands
            total[2] += cost.t_gates
            total[3] += cost.rotations
            total[4] += cost.measurements
            ancillas = max(ancillas, cost.ancillas)
        return LogicalCounts(
            toffolis=total[0],
            ands=total[1],
            t_gates=total[2],
            rotations=total[3],
            measurements=total[4],
            ancillas=ancillas,
        )


def logical_counts(circuit: QuantumCircuit) -> LogicalCounts:
    """The logical counts of ``circuit`` (:class:`LogicalCounter` with a fresh cache)."""
    return LogicalCounter().count(circuit)


def leaf_names() -> frozenset[str]:
    """The gate names counted by rule, for flattening a circuit down to them (the tests)."""
    return CLIFFORD_GATES | T_GATES | TOFFOLI_GATES | PHASE_GATES | AXIS_ROTATIONS | {
        "mcx", "u", "u3", "measure",
    }  # fmt: skip


def flattened(circuit: QuantumCircuit) -> QuantumCircuit:
    """``circuit`` decomposed until only gates counted by rule are left: the reference the
    cached count is checked against (tests, ``benchmarks/bench_logical_counts.py``)."""
    leaves = leaf_names()
    while True:
        names = {i.operation.name for i in circuit.data if i.operation.name not in leaves}
        if not names:
            return circuit
        circuit = circuit.decompose(gates_to_decompose=sorted(names))

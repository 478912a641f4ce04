"""Exact nonzero amplitudes from MQT DDSIM's decision diagrams (the ``ddsim`` backend).

A decision diagram's size follows the number of game paths rather than the width, so DDSIM holds
wide game circuits that a dense statevector cannot.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from qiskit import transpile
from qiskit.circuit import QuantumCircuit, Qubit

from qcards.errors import ResourceError
from qcards.execution.extras import require

CERTIFIED_MASS = 1 - 1e-10
""":func:`dd_probabilities` stops once the outcomes found carry this much probability."""


def dd_probabilities(
    circuit: QuantumCircuit, qubits: Sequence[Qubit], **options
) -> dict[int, float]:
    """Exact outcome probabilities of ``qubits`` (see :func:`dd_amplitudes`)."""
    return {k: abs(a) ** 2 for k, a in dd_amplitudes(circuit, qubits, **options).items()}


def dd_amplitudes(
    circuit: QuantumCircuit,
    qubits: Sequence[Qubit],
    seed: int = 1,
    shots: int = 4096,
    max_shots: int = 2**24,
) -> dict[int, complex]:
    """Exact nonzero amplitudes of a sparse state, from MQT DDSIM's decision diagram.

    DDSIM keeps the state as a decision diagram, whose size follows the number of game paths
    rather than the width. Its Python API gives the amplitude of one basis state
    (``VectorDD.get_amplitude``) but no walk over the nonzero ones, so the support is read from
    the diagram's Graphviz export (every path from the root to the terminal is one basis state
    with a nonzero amplitude; :func:`_dd_support`) and each amplitude is then taken exactly from
    the diagram. Should the export not parse (a format change), the support is found by
    sampling the diagram instead, with 8x the shots until enough is found. Either way the
    outcomes must carry :data:`CERTIFIED_MASS` of the probability: the result is exact (to
    rounding) and certified complete, not an estimate.

    Args:
        circuit: a circuit without measurements; the qubits outside ``qubits`` must end in
            ``|0>`` (clean ancillas; checked).
        qubits: the qubits reported; outcome bit i is ``qubits[i]``.
        seed, shots, max_shots: the sampling fallback.
    """
    require("ddsim", "the ddsim method")
    from mqt.core.plugins.qiskit import qiskit_to_mqt
    from mqt.ddsim import CircuitSimulator, DDSIMProvider

    target = DDSIMProvider().get_backend("qasm_simulator")
    lowered = qiskit_to_mqt(transpile(circuit, target, optimization_level=0))
    n = circuit.num_qubits
    simulator = CircuitSimulator(lowered, seed=seed)
    simulator.simulate(shots=1)
    diagram = simulator.get_constructed_dd()
    found: dict[str, complex] = {}

    def add(decisions) -> float:
        for d in decisions:
            if d not in found:
                found[d] = complex(diagram.get_amplitude(n, d))
        return sum(abs(a) ** 2 for a in found.values())

    total = add(_dd_support(diagram, n) or ())
    while total < CERTIFIED_MASS:
        if shots > max_shots:
            raise ResourceError(
                f"decision-diagram sampling found only {total:.12f} of the probability in "
                f"{max_shots} shots; the state has too many small-probability outcomes"
            )
        simulator = CircuitSimulator(lowered, seed=seed)
        # keys print qubit n-1 first; decisions start at qubit 0
        total = add(key[::-1] for key in simulator.simulate(shots=shots))
        diagram = simulator.get_constructed_dd()
        shots *= 8
        seed += 1
    position = [circuit.find_bit(q).index for q in qubits]
    others = sorted(set(range(n)) - set(position))
    out: dict[int, complex] = {}
    for bits, amplitude in found.items():
        if any(bits[i] == "1" for i in others):
            if abs(amplitude) ** 2 > 1e-12:
                raise ResourceError("an ancilla does not return to |0>: the circuit is not clean")
            continue
        out[sum(1 << k for k, i in enumerate(position) if bits[i] == "1")] = amplitude
    return out


_DOT_NODE = re.compile(r"^(\d+)\[.*?q<sub><font[^>]*>(\d+)</font></sub>", re.MULTILINE)
_DOT_EDGE = re.compile(r"^(\w+)(?::(\d):\w+)?->(\w+)\[", re.MULTILINE)


def _dd_support(diagram, num_qubits: int) -> list[str] | None:
    """Every basis state with a nonzero amplitude, as decision strings (qubit 0 first).

    Read from ``VectorDD.to_dot()``: nodes name their qubit, and an edge is drawn for every
    nonzero successor. Returns ``None`` if the export does not have the expected shape.
    """
    dot = diagram.to_dot(colored=False, edge_labels=False, classic=True, memory=False)
    level = {node: int(q) for node, q in _DOT_NODE.findall(dot)}
    children: dict[str, list[tuple[int, str]]] = {}
    root = None
    for parent, port, child in _DOT_EDGE.findall(dot):
        if parent == "root":
            root = child
        elif parent in level and port:
            children.setdefault(parent, []).append((int(port), child))
    if root is None or (root != "t" and root not in level):
        return None
    out = []
    stack = [(root, ["0"] * num_qubits, num_qubits)]
    while stack:
        node, bits, above = stack.pop()
        if node == "t":
            if above != 0:
                return None  # a skipped level: the walk would be ambiguous
            out.append("".join(bits))
            continue
        q = level.get(node)
        if q is None or q != above - 1:
            return None
        for port, child in children.get(node, ()):
            branch = bits.copy()
            branch[q] = str(port)
            stack.append((child, branch, q))
    return out

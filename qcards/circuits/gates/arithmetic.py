"""Counter arithmetic on qubit registers, controlled on a cube (the polynomial card play counts
its legal cards with these).

Qiskit's adders add whole registers; a controlled +1 on a counter of a few qubits is a short
cascade of multi-controlled X gates, written here.
"""

from __future__ import annotations

from collections.abc import Sequence

from qiskit.circuit import QuantumCircuit, Qubit

from qcards.circuits.gates.cubes import cube_x


def increment(qc: QuantumCircuit, controls: dict[Qubit, int], register: Sequence[Qubit]) -> None:
    """Add 1 (mod 2^len) to ``register`` on the cube ``controls``; inverse: :func:`decrement`.

    Qiskit's adders add registers; a controlled +1 on a 4-qubit counter is a short MCX cascade.
    """
    for j in range(len(register) - 1, -1, -1):
        cube_x(qc, {**controls, **{q: 1 for q in register[:j]}}, register[j])


def decrement(qc: QuantumCircuit, controls: dict[Qubit, int], register: Sequence[Qubit]) -> None:
    """Subtract 1 on the cube ``controls`` (the gates of :func:`increment` in reverse order)."""
    for j in range(len(register)):
        cube_x(qc, {**controls, **{q: 1 for q in register[:j]}}, register[j])

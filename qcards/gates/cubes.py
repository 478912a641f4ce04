"""Operations conditioned on a *cube*: a fixed value of some qubits ("card c is in A's hand").

The paper's constructions (Eqs. 12-15) are products of operations each conditioned on one
configuration of the card registers; a configuration is a cube over the qubits it constrains.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from qiskit.circuit import Gate, QuantumCircuit, Qubit
from qiskit.circuit.library import MCXGate


def _flip_zeros(circuit: QuantumCircuit, cube: Mapping[Qubit, int]) -> None:
    zeros = [q for q, v in cube.items() if v == 0]
    if zeros:
        circuit.x(zeros)


def cube_x(circuit: QuantumCircuit, cube: Mapping[Qubit, int], target: Qubit) -> None:
    """Flip ``target`` on the basis states where every qubit of ``cube`` has its value."""
    if not cube:
        circuit.x(target)
        return
    # Open controls are written as X conjugation so every simulator sees a plain ``mcx``.
    _flip_zeros(circuit, cube)
    circuit.append(MCXGate(len(cube)), [*cube, target])
    _flip_zeros(circuit, cube)


def cube_controlled(
    circuit: QuantumCircuit,
    cube: Mapping[Qubit, int],
    gate: Gate,
    targets: Sequence[Qubit],
    flag: Qubit,
) -> None:
    """Apply ``gate`` to ``targets`` on the basis states that satisfy ``cube``.

    The cube is computed into the clean ancilla ``flag`` and uncomputed afterwards, so ``gate``
    needs a single control however many qubits the cube constrains. ``targets`` must be disjoint
    from the cube's qubits (then the cube is unchanged by ``gate`` and uncomputing is exact).
    """
    if set(targets) & set(cube):
        raise ValueError("the targets of a cube-controlled gate must not be in its cube")
    if not cube:
        circuit.append(gate, list(targets))
        return
    cube_x(circuit, cube, flag)
    circuit.append(gate.control(1), [flag, *targets])
    cube_x(circuit, cube, flag)

"""Operations conditioned on a *cube*: a fixed value of some qubits ("card c is in A's hand").

The paper's constructions (Eqs. 12-15) are products of operations each conditioned on one
configuration of the card registers; a configuration is a cube over the qubits it constrains.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager

from qiskit.circuit import QuantumCircuit, Qubit
from qiskit.circuit.library import MCXGate


@contextmanager
def open_controls(circuit: QuantumCircuit, cube: Mapping[Qubit, int]) -> Iterator[None]:
    """Inside the block, the cube's qubits read 1 exactly where the cube holds.

    Open (0-valued) controls are written as X conjugation so every simulator sees plain
    all-ones multi-controlled gates.
    """
    zeros = [q for q, v in cube.items() if v == 0]
    if zeros:
        circuit.x(zeros)
    yield
    if zeros:
        circuit.x(zeros)


def cube_x(circuit: QuantumCircuit, cube: Mapping[Qubit, int], target: Qubit) -> None:
    """Flip ``target`` on the basis states where every qubit of ``cube`` has its value."""
    if not cube:
        circuit.x(target)
        return
    with open_controls(circuit, cube):
        circuit.append(MCXGate(len(cube)), [*cube, target])


@contextmanager
def on_cube(
    circuit: QuantumCircuit, cube: Mapping[Qubit, int], flag: Qubit
) -> Iterator[Qubit | None]:
    """Compute the cube into the clean ancilla ``flag`` for the block, then uncompute it.

    Yields the qubit to control on, or ``None`` when the cube is empty (always satisfied). The
    operations inside must leave the cube's qubits unchanged, so that uncomputing is exact;
    then they need a single control however many qubits the cube constrains.
    """
    if not cube:
        yield None
        return
    cube_x(circuit, cube, flag)
    yield flag
    cube_x(circuit, cube, flag)


def cube_xor(
    circuit: QuantumCircuit, cube: Mapping[Qubit, int], flips: Sequence[Qubit], flag: Qubit
) -> None:
    """Flip every qubit of ``flips`` on the basis states that satisfy ``cube``."""
    if set(flips) & set(cube):
        raise ValueError("the qubits flipped on a cube must not be in the cube")
    if len(flips) == 1:
        cube_x(circuit, cube, flips[0])
        return
    if not flips:
        return
    with on_cube(circuit, cube, flag) as control:
        if control is None:
            circuit.x(flips)
        else:
            circuit.cx(control, flips)

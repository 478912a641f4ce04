"""State-preparation gates: the uniform one-hot superposition (Eq. 9) and the deal U_ini (Eq. 1)."""

from __future__ import annotations

import itertools
import math

import numpy as np
from qiskit import transpile
from qiskit.circuit import Gate, QuantumCircuit
from qiskit.circuit.library import StatePreparation


class WStateGate(Gate):
    """Uniform superposition of the one-hot states, the uncontrolled CP gate of Eq. (9).

    Maps :math:`|0\\dots0\\rangle` to :math:`\\frac{1}{\\sqrt{k}}(|10\\dots0\\rangle + \\dots +
    |0\\dots01\\rangle)`: "play one of k cards", each with the same weight.

    Args:
        num_qubits: k >= 1, the number of playable cards.
    """

    def __init__(self, num_qubits: int, label: str | None = None) -> None:
        if not isinstance(num_qubits, int) or num_qubits < 1:
            raise ValueError(f"WStateGate needs at least one qubit, got {num_qubits!r}")
        super().__init__("w_state", num_qubits, [], label=label)

    def _define(self) -> None:
        self.definition = _synth_w_state(self.num_qubits)


def _synth_w_state(k: int) -> QuantumCircuit:
    # Qiskit has no W-state gate; the cascade below is the textbook linear construction:
    # move amplitude 1/sqrt(k - i) of the remaining weight one qubit to the right at each step.
    # (The paper builds the same state with the Boolean method of Mozafari et al. [33].)
    qc = QuantumCircuit(k, name="w_state")
    qc.x(0)
    for i in range(k - 1):
        theta = 2 * math.acos(math.sqrt(1 / (k - i)))
        qc.cry(theta, i, i + 1)
        qc.cx(i + 1, i)
    return qc


class DealGate(Gate):
    """U_ini for the unknown cards: the uniform superposition over all deals (Eqs. 1 and 25).

    Acts on one ``width``-qubit register per unknown card (card j on qubits
    ``j*width .. (j+1)*width-1``, little-endian); the register holds the index of the player
    that receives the card. Every assignment in which receiver r gets exactly ``sizes[r]`` cards
    has amplitude :math:`1/\\sqrt{N}`, N the multinomial number of deals.

    This is the reference construction (Qiskit's :class:`StatePreparation`, exponential in the
    number of unknown cards, like the paper's Boolean method, Fig. 15).

    Args:
        sizes: cards received by each receiver, in receiver order.
        width: qubits per card register (at least ceil(log2(len(sizes)))).
    """

    def __init__(self, sizes: tuple[int, ...], width: int, label: str | None = None) -> None:
        sizes = tuple(sizes)
        if not sizes or any(not isinstance(s, int) or s < 0 for s in sizes):
            raise ValueError(f"DealGate sizes must be whole numbers >= 0, got {sizes!r}")
        if len(sizes) > 1 and (1 << width) < len(sizes):
            raise ValueError(f"width {width} cannot index {len(sizes)} receivers")
        self.sizes = sizes
        self.width = width
        super().__init__("u_ini", sum(sizes) * width, [], label=label)

    @property
    def num_deals(self) -> int:
        total = math.factorial(sum(self.sizes))
        for s in self.sizes:
            total //= math.factorial(s)
        return total

    def deals(self) -> list[tuple[int, ...]]:
        """Every deal as the tuple of receiver indices of the cards."""
        n = sum(self.sizes)
        out = []
        for assignment in itertools.product(range(len(self.sizes)), repeat=n):
            if all(assignment.count(r) == s for r, s in enumerate(self.sizes)):
                out.append(assignment)
        return out

    def reference_state(self) -> np.ndarray:
        vec = np.zeros(2**self.num_qubits)
        for deal in self.deals():
            vec[sum(r << (j * self.width) for j, r in enumerate(deal))] = 1
        return vec / np.linalg.norm(vec)

    def _define(self) -> None:
        self.definition = _synth_deal(self)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealGate) and (self.sizes, self.width) == (
            other.sizes,
            other.width,
        )

    def __hash__(self) -> int:
        return hash((self.name, self.sizes, self.width))


def _synth_deal(gate: DealGate) -> QuantumCircuit:
    qc = QuantumCircuit(gate.num_qubits, name="u_ini")
    if gate.num_qubits:
        qc.append(StatePreparation(gate.reference_state()), range(gate.num_qubits))
        # Lower to {u, cx} here: the isometry's uniformly-controlled gates reach Aer as
        # "multiplexer" instructions, and Aer 0.18 crashes on their inverses (seen in the
        # Grover operator A S_0 A^dagger of amplitude estimation).
        qc = transpile(qc, basis_gates=["u", "cx"], optimization_level=1)
        qc.name = "u_ini"
    return qc

"""State-preparation gates: the uniform one-hot superposition (Eq. 9) and the deal U_ini (Eq. 1)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from qiskit import transpile
from qiskit.circuit import Gate, QuantumCircuit
from qiskit.circuit.library import StatePreparation

from qcards.circuits.gates.classical import classical_domain


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
        return [tuple(row) for row in enumerate_deals(self.sizes).tolist()]

    def reference_state(self) -> np.ndarray:
        vec = np.zeros(2**self.num_qubits)
        for deal in self.deals():
            vec[sum(r << (j * self.width) for j, r in enumerate(deal))] = 1
        return vec / np.linalg.norm(vec)

    def _define(self) -> None:
        self.definition = _synth_deal(self)

    def sparse_apply(self, state, qubits: tuple[int, ...]) -> None:
        """The classical action: see :func:`deal_action`."""
        deal_action(self, state, qubits)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DealGate) and (self.sizes, self.width) == (
            other.sizes,
            other.width,
        )

    def __hash__(self) -> int:
        return hash((self.name, self.sizes, self.width))


def enumerate_deals(sizes: Sequence[int]) -> np.ndarray:
    """Every deal, one row each in lexicographic order: column j holds the index of the
    receiver of card j, and receiver r gets ``sizes[r]`` cards. Built card by card with numpy
    (work in proportion to the deals, not to ``len(sizes) ** cards``)."""
    sizes = tuple(sizes)
    deals = np.zeros((1, 0), dtype=np.int8)
    left = np.array([sizes], dtype=np.int64)
    for _card in range(sum(sizes)):
        grown, remaining = [], []
        for r in range(len(sizes)):
            ok = left[:, r] > 0
            column = np.full((int(ok.sum()), 1), r, dtype=np.int8)
            grown.append(np.concatenate([deals[ok], column], axis=1))
            rest = left[ok].copy()
            rest[:, r] -= 1
            remaining.append(rest)
        deals, left = np.concatenate(grown), np.concatenate(remaining)
    if deals.shape[1]:
        deals = deals[np.lexsort(deals.T[::-1])]
    return deals


def deal_action(gate: Gate, state, qubits: Sequence[int]) -> None:
    """Classical action of a deal gate (:mod:`~qcards.circuits.gates.classical`): a row whose
    owner registers and ancillas are all 0 becomes one row per deal, each with amplitude
    :math:`1/\\sqrt{N}` (Eq. 1); any other row takes the gate's definition.

    ``gate`` has ``sizes`` and ``width``; card j's register is ``qubits[j*width:(j+1)*width]``.
    """
    fresh = state.match(qubits, [0] * len(qubits))
    with classical_domain(state, gate, qubits, fresh):
        deals = enumerate_deals(gate.sizes)
        count = state.num_rows
        state.expand(np.repeat(np.arange(count), len(deals)), 1 / math.sqrt(len(deals)))
        w = gate.width
        for j in range(deals.shape[1] if w else 0):
            state.write(qubits[j * w : (j + 1) * w], np.tile(deals[:, j], count))


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

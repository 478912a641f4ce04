"""Polynomial deal preparation: Dicke states and their multinomial generalisation.

The paper prepares the uniform superposition over deals (U_ini, Eq. 1) with a Boolean-function
method whose CX count grows exponentially (about 1e12 for 20 unknown cards, Fig. 15) and names
better state preparation as open work. A deal is a multinomial generalisation of a Dicke state,
so it can be built from Dicke states with polynomially many gates:

* :class:`DickeGate` prepares :math:`|D^n_k\\rangle` (all n-bit strings of weight k, equal
  weight) with the split-and-cyclic-shift circuit of Baertschi and Eidenbenz (2019), about
  :math:`6nk` CX. Qiskit has no Dicke-state gate, so it is written here; its controlled
  rotations are Qiskit's :class:`~qiskit.circuit.library.UCRYGate`.
* :class:`SubsetDickeGate` sets a target bit on exactly k of the m *marked* positions, uniformly:
  a Dicke state prepared on m clean ancillas is routed to the marked positions by controlled
  swaps (the i-th ancilla goes to the i-th marked position, O(nm) Fredkin gates), which leaves
  the ancillas clean again.
* :class:`MultinomialDealGate` deals the unknown cards: one owner register per card holds the
  receiver's index. The owner code is decided bit by bit from the top: a Dicke state chooses
  which cards get the top bit, then within each group of cards sharing the higher bits a
  subset-Dicke state chooses the next bit. The receivers' codes are picked to make the routed
  groups small, then mapped to the layout's receiver indices card by card.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property

import numpy as np
from qiskit.circuit import Gate, QuantumCircuit, QuantumRegister
from qiskit.circuit.library import UCRYGate, UnitaryGate

from qcards.circuits.deal_plan import (
    DealPlan,
    plan_deal,
    routing_swaps,
)
from qcards.circuits.gates.cubes import cube_x, open_controls
from qcards.circuits.gates.states import DealActions, check_deal_shape, enumerate_deals


class DickeGate(Gate):
    """:math:`|0^n\\rangle \\mapsto |D^n_k\\rangle`, the uniform superposition of weight-k strings.

    Baertschi and Eidenbenz, "Deterministic preparation of Dicke states" (FCT 2019): start from
    :math:`|0^{n-k}1^k\\rangle` and apply the split-and-cyclic-shift unitaries
    :math:`SCS_{m,k}` for m = n .. 2. For k > n/2 the complement :math:`X^{\\otimes n}
    |D^n_{n-k}\\rangle` is cheaper and is used instead.

    Args:
        num_qubits: n >= 1.
        weight: k in 0..n.
    """

    def __init__(self, num_qubits: int, weight: int, label: str | None = None) -> None:
        if not isinstance(num_qubits, int) or num_qubits < 1:
            raise ValueError(f"DickeGate needs at least one qubit, got {num_qubits!r}")
        if not isinstance(weight, int) or not 0 <= weight <= num_qubits:
            raise ValueError(f"DickeGate weight must lie in 0..{num_qubits}, got {weight!r}")
        self.weight = weight
        super().__init__("dicke", num_qubits, [weight], label=label)

    def reference_state(self) -> np.ndarray:
        n, k = self.num_qubits, self.weight
        vec = np.array([1.0 if i.bit_count() == k else 0.0 for i in range(2**n)])
        return vec / np.linalg.norm(vec)

    def _define(self) -> None:
        self.definition = _synth_dicke(self.num_qubits, self.weight)


def _synth_dicke(n: int, k: int) -> QuantumCircuit:
    qc = QuantumCircuit(n, name="dicke")
    complement = k > n - k
    w = n - k if complement else k
    q = list(qc.qubits)
    if w:
        qc.x(q[n - w :])
        for m in range(n, w, -1):
            _split_cyclic_shift(qc, q[:m], w)
        for m in range(w, 1, -1):
            _split_cyclic_shift(qc, q[:m], m - 1)
    if complement:
        qc.x(q)
    return qc


def _split_cyclic_shift(qc: QuantumCircuit, q: Sequence, k: int) -> None:
    """SCS_{m,k} on the first m = len(q) qubits (Baertschi-Eidenbenz, Definition 3)."""
    m = len(q)
    qc.cx(q[m - 2], q[m - 1])
    qc.append(UCRYGate([0.0, 2 * math.acos(math.sqrt(1 / m))]), [q[m - 2], q[m - 1]])
    qc.cx(q[m - 2], q[m - 1])
    for length in range(2, k + 1):
        angle = 2 * math.acos(math.sqrt(length / m))
        qc.cx(q[m - 1 - length], q[m - 1])
        # A doubly controlled RY as a 2-control UCRY (4 CX instead of Qiskit's generic 8).
        qc.append(UCRYGate([0.0, 0.0, 0.0, angle]), [q[m - 1 - length], q[m - 1], q[m - length]])
        qc.cx(q[m - 1 - length], q[m - 1])


# ----------------------------------------------------------------------------- subset Dicke


class SubsetDickeGate(Gate):
    """Set the target bit on k of the m marked positions, every choice with equal amplitude.

    Qubits: ``n`` markers, then ``n`` targets (0 on the marked positions), then ``m`` clean
    ancillas (returned clean) when 0 < k < m; for k = 0 or k = m there are none. On inputs
    with exactly m markers set, the targets become the Dicke state :math:`|D^m_k\\rangle`
    spread over the marked positions; other inputs are outside the gate's contract.

    Args:
        num_positions: n.
        num_marked: m, the number of markers set (m <= n).
        weight: k in 0..m.
    """

    def __init__(self, num_positions: int, num_marked: int, weight: int) -> None:
        if not 0 <= weight <= num_marked <= num_positions:
            raise ValueError(
                f"SubsetDickeGate needs 0 <= weight <= marked <= positions, got "
                f"{weight}, {num_marked}, {num_positions}"
            )
        self.num_positions = num_positions
        self.num_marked = num_marked
        self.weight = weight
        # ancillas only when a Dicke state is routed (0 < k < m): k = m copies the markers
        self.num_ancillas = num_marked if 0 < weight < num_marked else 0
        super().__init__(
            "subset_dicke",
            2 * num_positions + self.num_ancillas,
            [num_positions, num_marked, weight],
        )

    def _define(self) -> None:
        n, m, k = self.num_positions, self.num_marked, self.weight
        qc = QuantumCircuit(self.num_qubits, name="subset_dicke")
        marker = qc.qubits[:n]
        target = qc.qubits[n : 2 * n]
        ancilla = qc.qubits[2 * n :]
        if k == m:
            for x, y in zip(marker, target, strict=True):
                qc.cx(x, y)
        elif k:
            qc.append(DickeGate(m, k), ancilla)
            for j, shifts in enumerate(routing_swaps(n, m)):
                qc.cswap(marker[j], ancilla[0], target[j])
                for i in range(shifts):
                    qc.cswap(marker[j], ancilla[i], ancilla[i + 1])
        self.definition = qc


# ----------------------------------------------------------------------------- deals


class MultinomialDealGate(DealActions, Gate):
    """U_ini in polynomial size: every deal of the unknown cards with the same amplitude (Eq. 1).

    Same contract as the reference :class:`~qcards.circuits.gates.states.DealGate` on its first
    ``len(cards) * width`` qubits (card j's owner register on qubits ``j*width ..``, holding the
    receiver's index), followed by :attr:`num_ancillas` clean ancillas that end clean.

    Args:
        sizes: cards received by each receiver, in receiver order.
        width: qubits per owner register (at least ceil(log2(len(sizes)))).
    """

    def __init__(self, sizes: Sequence[int], width: int, label: str | None = None) -> None:
        sizes = check_deal_shape(sizes, width)
        self.sizes = sizes
        self.width = width
        self.num_cards = sum(sizes)
        self.num_routed = self.plan.routed_ancillas(width)
        self.num_ancillas = self.plan.ancillas(self.num_cards, width)
        super().__init__("u_ini_poly", self.num_cards * width + self.num_ancillas, [], label=label)

    @cached_property
    def plan(self) -> DealPlan:
        return plan_deal(self.sizes, self.width) if self.width else DealPlan((0,), ())

    def _define(self) -> None:
        self.definition = _synth_multinomial_deal(self)

    def deal_table(self) -> tuple[np.ndarray, np.ndarray]:
        """Every deal (rows as in :func:`~qcards.circuits.gates.states.enumerate_deals`) and
        its amplitude, :math:`1/\\sqrt{N}` for all."""
        deals = enumerate_deals(self.sizes)
        return deals, np.full(len(deals), 1 / math.sqrt(len(deals)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MultinomialDealGate) and (self.sizes, self.width) == (
            other.sizes,
            other.width,
        )

    def __hash__(self) -> int:
        return hash((self.name, self.sizes, self.width))


def _synth_multinomial_deal(gate: MultinomialDealGate) -> QuantumCircuit:
    n, w = gate.num_cards, gate.width
    owner = QuantumRegister(n * w, "owner")
    ancilla = QuantumRegister(gate.num_ancillas, "ancilla")
    qc = QuantumCircuit(owner, ancilla, name="u_ini_poly")
    if not w or not n:
        return qc
    bits = [[owner[j * w + b] for j in range(n)] for b in range(w)]
    routed = ancilla[: gate.num_routed]
    for bit, prefix, m, k in gate.plan.steps:
        if k == 0:
            continue
        if bit == w - 1:
            qc.append(DickeGate(n, k), bits[bit])
            continue
        # the cards of this group: their bits above ``bit`` spell ``prefix``
        cubes = [
            {bits[h][j]: (prefix >> (h - bit - 1)) & 1 for h in range(bit + 1, w)} for j in range(n)
        ]
        subset = SubsetDickeGate(n, m, k)
        if bit == w - 2:  # one higher bit: it marks the group itself (X where it must be 0)
            marker = bits[bit + 1]
            with open_controls(qc, {q: v for cube in cubes for q, v in cube.items()}):
                qc.append(subset, [*marker, *bits[bit], *routed[: subset.num_ancillas]])
            continue
        marker = ancilla[gate.num_routed :]
        for cube, target in zip(cubes, marker, strict=True):  # mark the group ...
            cube_x(qc, cube, target)
        qc.append(subset, [*marker, *bits[bit], *routed[: subset.num_ancillas]])
        for cube, target in zip(cubes, marker, strict=True):  # ... and unmark it
            cube_x(qc, cube, target)
    _relabel(qc, gate.plan.codes, [owner[j * w : (j + 1) * w] for j in range(n)], w)
    return qc


def _relabel(qc: QuantumCircuit, codes: Sequence[int], registers, width: int) -> None:
    """Map each owner register from the prepared code to the receiver's index."""
    if list(codes) == list(range(len(codes))):
        return
    image = dict(enumerate(codes))
    inverse = {c: r for r, c in image.items()}
    free = iter(sorted(set(range(2**width)) - set(inverse.values())))
    perm = [inverse[c] if c in inverse else next(free) for c in range(2**width)]
    matrix = np.zeros((2**width, 2**width))
    for code, index in enumerate(perm):
        matrix[index, code] = 1
    relabel = UnitaryGate(matrix, label="relabel")
    for register in registers:
        qc.append(relabel, list(register))

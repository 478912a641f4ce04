"""The polynomial deal preparation: Dicke, subset-Dicke and multinomial deal gates."""

from __future__ import annotations

import math

import numpy as np
import pytest
from qiskit import QuantumCircuit, transpile
from qiskit.quantum_info import Statevector

from qcards.circuits.deal_plan import dicke_cx, subset_dicke_cx
from qcards.circuits.gates import DealGate, DickeGate, MultinomialDealGate, SubsetDickeGate


def cx_count(gate) -> int:
    qc = QuantumCircuit(gate.num_qubits)
    qc.append(gate, range(gate.num_qubits))
    return transpile(qc, basis_gates=["cx", "u"], optimization_level=0).count_ops().get("cx", 0)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 6])
def test_dicke_gate_prepares_every_weight(n):
    for k in range(n + 1):
        gate = DickeGate(n, k)
        state = Statevector(gate.definition)
        assert np.allclose(state.data, gate.reference_state(), atol=1e-9), (n, k)
        assert cx_count(gate) == dicke_cx(n, k)


@pytest.mark.parametrize("bad", [(0, 0), (3, 4), (3, -1)])
def test_dicke_gate_rejects_bad_sizes(bad):
    with pytest.raises(ValueError):
        DickeGate(*bad)


@pytest.mark.parametrize("n,marked,k", [(4, 2, 1), (5, 3, 2), (5, 3, 3), (4, 4, 2), (5, 2, 0)])
def test_subset_dicke_spreads_over_marked_positions(n, marked, k):
    gate = SubsetDickeGate(n, marked, k)
    rng = np.random.default_rng(n + marked + k)
    for _ in range(3):
        positions = sorted(rng.choice(n, marked, replace=False))
        qc = QuantumCircuit(gate.num_qubits)
        for j in positions:
            qc.x(j)
        qc.append(gate, range(gate.num_qubits))
        state = Statevector(qc).data
        # expected: markers as set, targets a weight-k subset of the marked positions
        support = {i for i, a in enumerate(state) if abs(a) > 1e-9}
        markers = sum(1 << j for j in positions)
        for index in support:
            assert index & ((1 << n) - 1) == markers
            targets = (index >> n) & ((1 << n) - 1)
            assert targets & ~markers == 0 and targets.bit_count() == k
            assert index >> (2 * n) == 0, "ancillas not clean"
        assert len(support) == math.comb(marked, k)
        assert np.allclose([abs(state[i]) for i in support], 1 / np.sqrt(len(support)))
    assert cx_count(gate) == subset_dicke_cx(n, marked, k)


@pytest.mark.parametrize(
    "sizes,width",
    [((2, 2), 1), ((3, 1), 1), ((1, 2, 1), 2), ((2, 1, 2), 2), ((1, 1, 1, 1), 2), ((2, 2, 2), 2)],
)
def test_multinomial_deal_equals_reference_deal(sizes, width):
    gate = MultinomialDealGate(sizes, width)
    reference = DealGate(sizes, width).reference_state()
    state = Statevector(gate.definition).data
    owner_qubits = sum(sizes) * width
    clean = state.reshape(2**gate.num_ancillas, 2**owner_qubits)
    assert np.allclose(clean[0], reference, atol=1e-9)
    assert np.isclose(np.linalg.norm(clean[0]), 1)
    assert cx_count(gate) == gate.plan.cost(sum(sizes), width)


def test_full_game_deal_plan():
    """22 unknown cards into 10 + 10 + 2 (the skat): the plan the full game builds."""
    gate = MultinomialDealGate((10, 10, 2), 2)
    assert gate.plan.cost(22, 2) <= 3000
    # the two groups of ten are split first, the skat is routed among twelve cards
    assert (0, 0, 12, 2) in gate.plan.steps


@pytest.mark.parametrize("sizes", [(1, 1, 1, 1, 1), (1, 2, 1, 1)])
def test_multinomial_deal_with_three_bit_owner_codes(sizes):
    """Five receivers need 3-bit codes: groups below the top two bits are marked by ancillas."""
    from qcards.execution.ddsim import dd_probabilities

    gate = MultinomialDealGate(sizes, 3)
    qc = QuantumCircuit(gate.num_qubits)
    qc.append(gate, range(gate.num_qubits))
    probs = dd_probabilities(qc, qc.qubits[: sum(sizes) * 3])  # also checks ancillas end clean
    reference = DealGate(sizes, 3).reference_state() ** 2
    assert set(probs) == {i for i, p in enumerate(reference) if p > 0}
    for i, p in probs.items():
        assert abs(p - reference[i]) < 1e-9


@pytest.mark.parametrize(
    "sizes,width",
    [
        ((0, 1, 1), 2),
        ((0, 2, 2), 2),
        ((2, 0, 1), 2),
        ((1, 2, 0), 2),
        ((0, 3), 1),
        ((0, 2, 2, 3), 2),
    ],
)
def test_multinomial_deal_with_an_empty_receiver(sizes, width):
    """A receiver that gets no card (a full hand in Quantum Go Fish): every card of a group can
    take the same bit, which needs no routed Dicke state and so no ancillas."""
    from qcards.execution.ddsim import dd_probabilities

    gate = MultinomialDealGate(sizes, width)
    qc = QuantumCircuit(gate.num_qubits)
    qc.append(gate, range(gate.num_qubits))
    probs = dd_probabilities(qc, qc.qubits[: sum(sizes) * width])  # also checks ancillas end clean
    reference = DealGate(sizes, width).reference_state() ** 2
    assert set(probs) == {i for i, p in enumerate(reference) if p > 0}
    for i, p in probs.items():
        assert abs(p - reference[i]) < 1e-9

"""The weighted deal: exact distribution, reference gate, polynomial gate and classical action."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.quantum_info import Statevector

from qcards.circuits.gates import (
    DealGate,
    DickeGate,
    MultinomialDealGate,
    Tally,
    WeightedDealGate,
)
from qcards.circuits.gates.states import deal_distribution, enumerate_deals
from qcards.execution.sparse.engine import simulate

GRID = [Fraction(0), Fraction(1, 3), Fraction(1, 2), Fraction(1), Fraction(2), Fraction(7, 3)]


def brute_force(sizes, weights, tallies) -> dict[tuple[int, ...], Fraction]:
    """P(d) for every deal of positive weight, from all assignments of cards to receivers."""
    n = sum(sizes)
    weight = {}
    for deal in itertools.product(range(len(sizes)), repeat=n):
        if [deal.count(r) for r in range(len(sizes))] != list(sizes):
            continue
        w = Fraction(1)
        for j, r in enumerate(deal):
            w *= Fraction(weights[j][r]) if weights is not None else 1
        for t in tallies:
            w *= t.factors[sum(1 for c in t.cards if deal[c] == t.receiver)]
        if w:
            weight[deal] = w
    total = sum(weight.values())
    return {d: w / total for d, w in weight.items()}


def random_case(seed: int):
    """Sizes, width, weights (some zero) and tallies (an at-least indicator, a likelihood)
    with at least one deal of positive weight."""
    rng = random.Random(seed)
    while True:
        receivers = rng.choice([2, 3])
        n = rng.randint(4, 7 if receivers == 2 else 6)
        cuts = sorted(rng.randint(0, n) for _ in range(receivers - 1))
        sizes = tuple(b - a for a, b in zip([0, *cuts], [*cuts, n], strict=True))
        width = max(1, (receivers - 1).bit_length()) + (1 if rng.random() < 0.2 else 0)
        weights = [
            [rng.choice(GRID[1:]) if rng.random() > 0.2 else Fraction(0) for _ in sizes]
            for _ in range(n)
        ]
        tallies = []
        if rng.random() < 0.8:
            r = rng.randrange(receivers)
            cards = frozenset(rng.sample(range(n), rng.randint(1, n)))
            top = min(len(cards), sizes[r])
            tallies.append(Tally(r, cards, (0,) + (1,) * top))  # r holds at least one of them
        if rng.random() < 0.8:
            r = rng.randrange(receivers)
            cards = frozenset(rng.sample(range(n), rng.randint(1, n)))
            top = min(len(cards), sizes[r])
            tallies.append(Tally(r, cards, tuple(Fraction(1, k + 2) for k in range(top + 1))))
        if brute_force(sizes, weights, tallies):
            return sizes, width, weights, tallies


CASES = [random_case(seed) for seed in range(12)]
IDS = [f"{c[0]}w{c[1]}t{len(c[3])}" for c in CASES]


def owner_vector(sizes, width, probs) -> np.ndarray:
    vec = np.zeros(2 ** (sum(sizes) * width))
    for deal, p in probs.items():
        vec[sum(r << (j * width) for j, r in enumerate(deal))] = math.sqrt(p)
    return vec


def test_random_cases_cover_zero_weights_and_both_tallies():
    assert any(any(x == 0 for row in c[2] for x in row) for c in CASES)
    assert any(any(t.factors[0] == 0 for t in c[3]) for c in CASES)
    assert any(any(t.factors[0] == Fraction(1, 2) for t in c[3]) for c in CASES)
    assert any(len(c[0]) == 3 for c in CASES) and any(len(c[0]) == 2 for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_deal_distribution_is_exact(case):
    sizes, _width, weights, tallies = case
    deals, probs = deal_distribution(sizes, weights, tallies)
    expected = brute_force(sizes, weights, tallies)
    assert {tuple(d): p for d, p in zip(deals.tolist(), probs, strict=True)} == expected
    assert all(isinstance(p, Fraction) for p in probs) and sum(probs) == 1
    rows = [tuple(d) for d in deals.tolist()]
    assert rows == sorted(rows)  # the order of enumerate_deals


def test_deal_distribution_defaults_to_the_uniform_deal():
    deals, probs = deal_distribution((2, 1, 2))
    assert np.array_equal(deals, enumerate_deals((2, 1, 2)))
    assert probs == [Fraction(1, 30)] * 30


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_weighted_gate_prepares_the_weighted_deal(case):
    sizes, width, weights, tallies = case
    gate = WeightedDealGate(sizes, width, weights, tallies)
    owners = sum(sizes) * width
    assert gate.num_qubits == owners + gate.num_ancillas
    state = Statevector(gate.definition).data
    expected = owner_vector(sizes, width, brute_force(sizes, weights, tallies))
    # ancillas are the high qubits: clean ancillas = the first 2**owners amplitudes
    assert np.linalg.norm(state[2**owners :]) < 1e-9, "ancillas not clean"
    assert np.allclose(state[: 2**owners], expected, atol=1e-9)
    assert np.allclose(gate.reference_state(), expected, atol=1e-12)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_weighted_reference_deal_gate(case):
    sizes, width, weights, tallies = case
    gate = DealGate(sizes, width, weights=weights, tallies=tallies)
    expected = owner_vector(sizes, width, brute_force(sizes, weights, tallies))
    assert np.allclose(gate.reference_state(), expected, atol=1e-12)
    assert gate.num_deals == math.factorial(sum(sizes)) // math.prod(
        math.factorial(s) for s in sizes
    )
    deals, amps = gate.deal_table()
    assert len(deals) == np.count_nonzero(expected)
    assert np.allclose(np.sum(amps**2), 1)
    if gate.num_qubits <= 10:
        assert np.allclose(Statevector(gate.definition).data, expected, atol=1e-8)


@pytest.mark.parametrize("case", CASES[:8], ids=IDS[:8])
def test_sparse_engine_gives_the_weighted_deal(case):
    sizes, width, weights, tallies = case
    expected = brute_force(sizes, weights, tallies)
    for gate in (
        WeightedDealGate(sizes, width, weights, tallies),
        DealGate(sizes, width, weights=weights, tallies=tallies),
    ):
        qc = QuantumCircuit(gate.num_qubits + 1)
        qc.append(gate, range(1, gate.num_qubits + 1))  # not on the first qubit
        owners = list(range(1, sum(sizes) * width + 1))
        ancillas = list(range(owners[-1] + 1 if owners else 1, qc.num_qubits))
        # the reference gate's definition (a StatePreparation) is slow to build on many qubits
        slow = isinstance(gate, DealGate) and gate.num_qubits > 12
        for actions in (True,) if slow else (True, False):
            state = simulate(qc, classical_actions=actions)
            probs = state.probabilities(owners)
            got = {
                tuple((k >> (j * width)) & ((1 << width) - 1) for j in range(sum(sizes))): p
                for k, p in probs.items()
                if p > 1e-12
            }
            assert got.keys() == expected.keys(), (gate.name, actions)
            assert all(abs(got[d] - float(p)) < 1e-9 for d, p in expected.items())
            assert state.ancilla_probability([0, *ancillas]) < 1e-12


@pytest.mark.parametrize("case", CASES[:6], ids=IDS[:6])
def test_classical_action_matches_the_definition_off_the_fresh_rows(case):
    sizes, width, weights, tallies = case
    gate = WeightedDealGate(sizes, width, weights, tallies)
    qc = QuantumCircuit(gate.num_qubits)
    rng = np.random.default_rng(7)
    for q in rng.choice(gate.num_qubits, min(3, gate.num_qubits), replace=False):
        qc.ry(float(rng.uniform(0.3, 2.5)), int(q))  # some rows with dirty registers
    qc.append(gate, range(gate.num_qubits))
    a = simulate(qc).to_statevector()
    b = simulate(qc, classical_actions=False).to_statevector()
    assert np.allclose(a, b, atol=1e-9)


@pytest.mark.parametrize(
    "sizes,width", [((2, 2), 1), ((2, 1, 2), 2), ((3, 0, 2), 2), ((1, 2, 1), 3)]
)
def test_unit_weights_give_the_uniform_deal(sizes, width):
    gate = WeightedDealGate(sizes, width, [[1] * len(sizes)] * sum(sizes))
    assert gate == WeightedDealGate(sizes, width)
    owners = sum(sizes) * width
    state = Statevector(gate.definition).data
    poly = MultinomialDealGate(sizes, width)
    uniform = Statevector(poly.definition).data[: 2**owners]
    assert np.allclose(uniform, DealGate(sizes, width).reference_state(), atol=1e-9)
    assert np.allclose(state[: 2**owners], uniform, atol=1e-9)
    assert np.linalg.norm(state[2**owners :]) < 1e-9


def test_single_receiver_and_no_cards():
    gate = WeightedDealGate((3,), 0)
    assert gate.num_qubits == 0
    gate = WeightedDealGate((0, 0), 1)
    assert gate.num_qubits == 0 and np.allclose(gate.reference_state(), [1])


def test_dicke_state_with_weights():
    # two receivers, width 1: the weighted Dicke state, checked against DickeGate for unit weights
    gate = WeightedDealGate((3, 2), 1)
    assert np.allclose(Statevector(gate.definition).data[:32], DickeGate(5, 2).reference_state())


def test_equality_and_hash_include_weights_and_tallies():
    t = Tally(0, frozenset({0, 1}), (0, 1, 1))
    a = WeightedDealGate((2, 2), 1, [[1, 2]] * 4, [t])
    b = WeightedDealGate((2, 2), 1, [[1, 2]] * 4, [Tally(0, {1, 0}, (0, 1, 1))])
    assert a == b and hash(a) == hash(b)
    assert a != WeightedDealGate((2, 2), 1, [[1, 2]] * 4)
    assert a != WeightedDealGate((2, 2), 1, [[1, 3]] * 4, [t])
    assert DealGate((2, 2), 1, weights=[[1, 2]] * 4) != DealGate((2, 2), 1)
    assert DealGate((2, 2), 1, tallies=[t]) == DealGate((2, 2), 1, tallies=[t])
    assert hash(DealGate((2, 2), 1, tallies=[t])) == hash(DealGate((2, 2), 1, tallies=[t]))


@pytest.mark.parametrize(
    "args",
    [
        ((2, 2), 1, [[1, 1]] * 3, ()),  # a row short
        ((2, 2), 1, [[1, 1, 1]] * 4, ()),  # a receiver too many
        ((2, 2), 1, [[1, -1]] * 4, ()),  # negative
        ((2, 2), 1, [[1, 0]] * 4, ()),  # receiver 1 can get no card: Z = 0
        ((2, 2), 1, None, [Tally(0, frozenset({0, 1, 2}), (0, 0, 0))]),  # 2 of 3 cards: Z = 0
        ((2, 2), 1, None, [Tally(1, frozenset({0, 1}), (1, 1))]),  # factors too short
        ((2, 2), 1, None, [Tally(2, frozenset({0}), (1, 1))]),  # no receiver 2
        ((2, 2), 1, None, [Tally(0, frozenset({4}), (1, 1))]),  # no card 4
        ((1, 1, 1), 1, None, ()),  # width too small
        ((2, -1), 1, None, ()),
    ],
)
def test_invalid_input_is_refused(args):
    sizes, width, weights, tallies = args
    with pytest.raises(ValueError):
        WeightedDealGate(sizes, width, weights, tallies)
    with pytest.raises(ValueError):
        DealGate(sizes, width, weights=weights, tallies=tallies).reference_state()
    if width and len(sizes) <= 1 << width and min(sizes) >= 0:
        with pytest.raises(ValueError):
            deal_distribution(sizes, weights, tallies)


def test_tally_refuses_negative_factors():
    with pytest.raises(ValueError):
        Tally(0, frozenset({0}), (1, -1))
    with pytest.raises(ValueError):
        Tally(-1, frozenset({0}), (1, 1))

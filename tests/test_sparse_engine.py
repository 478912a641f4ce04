"""The sparse engine against Qiskit's statevector, the referee, the hook and the memory guard."""

from __future__ import annotations

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.circuit import Gate
from qiskit.circuit.library import MCXGate, PermutationGate, RYGate, UCRYGate, UnitaryGate
from qiskit.quantum_info import Statevector, random_unitary

from qcards.circuits.game import build_game
from qcards.execution.sparse.engine import (
    SparseMemoryError,
    SparseState,
    estimate_bytes,
    simulate,
)
from qcards.execution.sparse.state import AncillaError
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.skat.solvers.plain_referee import evaluate


def random_circuit(num_qubits: int, num_gates: int, seed: int) -> QuantumCircuit:
    rng = np.random.default_rng(seed)
    qc = QuantumCircuit(num_qubits, global_phase=float(rng.uniform(0, 2 * np.pi)))
    for _ in range(num_gates):
        kind = int(rng.integers(0, 14))
        q = [int(x) for x in rng.permutation(num_qubits)]
        theta = float(rng.uniform(-4, 4))
        if kind == 0:
            qc.h(q[0])
        elif kind == 1:
            qc.ry(theta, q[0])
        elif kind == 2:
            qc.rz(theta, q[0])
        elif kind == 3:
            qc.cx(q[0], q[1])
        elif kind == 4:
            qc.ccx(q[0], q[1], q[2])
        elif kind == 5:
            nc = int(rng.integers(1, min(6, num_qubits - 1) + 1))
            qc.append(MCXGate(nc, ctrl_state=int(rng.integers(0, 2**nc))), q[: nc + 1])
        elif kind == 6:
            qc.cry(theta, q[0], q[1])
        elif kind == 7:
            qc.ch(q[0], q[1])
        elif kind == 8:
            qc.swap(q[0], q[1])
        elif kind == 9:
            qc.p(theta, q[0])
        elif kind == 10:
            qc.x(q[0])
            qc.append(RYGate(theta).control(2, ctrl_state=1, annotated=False), q[:3])
        elif kind == 11:
            qc.append(UCRYGate([float(a) for a in rng.uniform(-4, 4, 4)]), q[:3])
        elif kind == 12:
            qc.cswap(q[0], q[1], q[2])
            qc.cp(theta, q[1], q[2])
        else:
            qc.append(UnitaryGate(random_unitary(4, seed=int(rng.integers(2**31)))), q[:2])
            qc.append(PermutationGate([2, 0, 1]), q[:3])
            qc.u(theta, 0.4, -1.1, q[3])
            qc.sx(q[4])
            qc.t(q[0])
    return qc


@pytest.mark.parametrize("seed", range(14))
def test_random_circuits_match_statevector(seed):
    # 5 to 16 qubits, and the two last seeds at 20 (the width the issue names)
    n = 20 if seed >= 12 else int(np.random.default_rng(seed).integers(5, 17))
    qc = random_circuit(n, 80, seed)
    state = simulate(qc)
    np.testing.assert_allclose(state.to_statevector(), Statevector(qc).data, atol=1e-9, rtol=0)


def test_custom_gate_recurses_into_definition():
    inner = QuantumCircuit(3, name="inner")
    inner.h(0)
    inner.ccx(0, 1, 2)
    inner.ry(0.3, 1)
    outer = QuantumCircuit(4)
    outer.x(1)
    outer.append(inner.to_gate(), [3, 1, 0])
    outer.append(inner.to_gate().control(1, annotated=False), [2, 0, 1, 3])
    np.testing.assert_allclose(
        simulate(outer).to_statevector(), Statevector(outer).data, atol=1e-12, rtol=0
    )


def test_readout_and_ancilla_check():
    qc = QuantumCircuit(70)
    qc.h(0)
    qc.cx(0, 69)
    qc.x(65)
    state = simulate(qc)
    amps = state.amplitudes()
    assert set(amps) == {1 << 65, 1 | 1 << 65 | 1 << 69}
    assert state.num_nonzero == 2
    probs = state.probabilities([69, 3, 65])
    assert probs.keys() == {0b100, 0b101}
    assert probs[0b101] == pytest.approx(0.5)
    state.check_clean([1, 2, 64])
    with pytest.raises(AncillaError):
        state.check_clean([3, 69])


def test_measurement_is_refused():
    qc = QuantumCircuit(1, 1)
    qc.h(0)
    qc.measure(0, 0)
    with pytest.raises(ValueError, match="measure"):
        simulate(qc)


def spec_p_win(spec, construction: str) -> float:
    game = build_game(spec, construction=construction)
    state = simulate(game.circuit)
    measured = [game.circuit.find_bit(q).index for q in game.layout.measured]
    state.check_clean(sorted(set(range(game.num_qubits)) - set(measured)))
    last = game.stages[-1]
    p_win = 0.0
    for outcome, p in state.probabilities(measured).items():
        snapshot = game.layout.decode(outcome, last)
        if snapshot.declarer_won(spec):
            p_win += p
    return p_win


@pytest.mark.parametrize("example", [FOUR_CARD, SIX_CARD], ids=["four", "six"])
@pytest.mark.parametrize("construction", ["paper", "efficient"])
def test_paper_examples_match_referee(example, construction):
    spec = example.spec()
    assert spec_p_win(spec, construction) == pytest.approx(float(evaluate(spec).p_win), abs=1e-9)


class ToyFlip(Gate):
    """Flips its qubit; the engine must call :meth:`sparse_apply`, not the definition."""

    calls = 0

    def __init__(self):
        super().__init__("toy_flip", 1, [])

    def _define(self):  # a wrong definition: using it would fail the test
        qc = QuantumCircuit(1)
        qc.h(0)
        self.definition = qc

    def sparse_apply(self, state: SparseState, qubits):
        ToyFlip.calls += 1
        bits = state.bits.copy()
        w, b = divmod(qubits[0], 64)
        bits[:, w] ^= np.uint64(1 << b)
        state.set_rows(bits, state.amps * -1)


def test_sparse_apply_hook_is_honoured():
    qc = QuantumCircuit(66)
    qc.x(1)
    qc.append(ToyFlip(), [65])
    qc.append(ToyFlip(), [0])
    qc.h(2)
    ToyFlip.calls = 0
    amps = simulate(qc).amplitudes()
    assert ToyFlip.calls == 2
    r = 2**-0.5
    expected = {0b11 | 1 << 65: r, 0b111 | 1 << 65: r}
    assert amps.keys() == expected.keys()
    for k, a in expected.items():
        assert amps[k] == pytest.approx(a)


def test_memory_guard_raises_before_allocating():
    qc = QuantumCircuit(20)
    for q in range(20):
        qc.h(q)
    with pytest.raises(SparseMemoryError) as info:
        simulate(qc, max_rows=1000)
    assert info.value.limit == 1000
    assert info.value.rows_needed > 1000
    assert estimate_bytes(1000, 20) < estimate_bytes(1000, 130)
    # a budget that fits runs
    assert simulate(qc, max_rows=2**20).num_nonzero == 2**20


def test_memory_guard_merges_before_refusing():
    qc = QuantumCircuit(2)
    for _ in range(8):  # H H = identity: duplicates cancel on merge
        qc.h(0)
    # a branching H on 2 rows holds 4 before its merge; the guard merges rather than refuse
    assert simulate(qc, max_rows=4).num_nonzero == 1
    with pytest.raises(SparseMemoryError):
        simulate(qc, max_rows=3)


def test_weighted_bit_sums_equal_reading_bit_by_bit():
    """The readout kernel (registers and trick points in one compiled pass) equals summing the
    bits one at a time, on every row and on a block of rows."""
    from qcards.execution.sparse.kernels import weighted_bit_sums

    rng = np.random.default_rng(7)
    w = rng.integers(0, 2**63, size=(3, 5000), dtype=np.uint64)
    w[2] |= np.uint64(1) << np.uint64(63)  # the top bit of a word counts too
    groups = [[(q, int(rng.integers(-3, 12))) for q in rng.choice(192, 9)] for _ in range(6)]
    groups.append([])  # an empty group sums to 0

    def by_bits(columns):
        out = np.zeros((len(groups), columns.shape[1]), dtype=np.int64)
        for g, pairs in enumerate(groups):
            for q, weight in pairs:
                word, shift = divmod(int(q), 64)
                out[g] += ((columns[word] >> np.uint64(shift)) & np.uint64(1)).astype(
                    np.int64
                ) * weight
        return out

    assert (weighted_bit_sums(w, groups) == by_bits(w)).all()
    block = weighted_bit_sums(w, groups, slice(1234, 4321))
    assert (block == by_bits(w[:, 1234:4321])).all() and block.shape == (7, 3087)

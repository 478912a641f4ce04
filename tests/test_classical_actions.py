"""Gates that state their classical action (``sparse_apply``) act exactly as their decomposition.

For every such gate on small instances: random basis states (and superpositions of a few) are
prepared, the gate is applied once through its ``sparse_apply`` and once through its Qiskit
definition (the engine's generic path), and the two sparse states must be equal amplitude for
amplitude. So the exact engine still simulates the circuit, not the referee.
"""

from __future__ import annotations

import random

import pytest
from qiskit import QuantumCircuit
from qiskit.circuit import Gate

from qcards.circuits.construction import Construction
from qcards.circuits.game import build_game
from qcards.circuits.oracle import WinOracleGate
from qcards.execution.sparse import simulate
from qcards.paper.examples import FOUR_CARD, SIX_CARD

from conftest import generated_specs, random_spec


class Decomposed(Gate):
    """The same operation with no hook: the engine falls back to the definition."""

    def __init__(self, gate: Gate) -> None:
        self.wrapped = gate
        super().__init__(f"plain_{gate.name}", gate.num_qubits, [])

    def _define(self) -> None:
        self.definition = self.wrapped.definition


def gate_examples() -> list[tuple[str, Gate]]:
    specs = [FOUR_CARD.spec(), SIX_CARD.spec()]
    specs += [random_spec(*p) for p in generated_specs(skat=True)[:4]]
    out = []
    for k, spec in enumerate(specs):
        for construction in Construction:
            layout = build_game(spec, construction=construction).layout
            for subtract in (False, True):
                out.append(
                    (f"win_oracle-{k}-{construction}-{subtract}", WinOracleGate(layout, subtract))
                )
    return out


EXAMPLES = gate_examples()


def states(gate: Gate, seed: int) -> list[QuantumCircuit]:
    """Preparations: random basis states, and superpositions over a few random qubits."""
    rng = random.Random(seed)
    out = []
    for branching in (0, 0, 3, 5):
        qc = QuantumCircuit(gate.num_qubits)
        for q in range(gate.num_qubits):
            if rng.random() < 0.5:
                qc.x(q)
        for q in rng.sample(range(gate.num_qubits), branching):
            qc.ry(rng.uniform(0.3, 2.8), q)
        out.append(qc)
    return out


@pytest.mark.parametrize("name,gate", EXAMPLES, ids=[n for n, _ in EXAMPLES])
def test_classical_action_equals_decomposition(name, gate):
    for k, prep in enumerate(states(gate, seed=len(name) + 7)):
        hooked, plain = prep.copy(), prep.copy()
        hooked.append(gate, hooked.qubits)
        plain.append(Decomposed(gate), plain.qubits)
        a, b = simulate(hooked).amplitudes(), simulate(plain).amplitudes()
        assert set(a) == set(b), (name, k)
        for key, amp in a.items():
            assert abs(amp - b[key]) < 1e-9, (name, k, key)


@pytest.mark.parametrize("name,gate", EXAMPLES[:4], ids=[n for n, _ in EXAMPLES[:4]])
def test_inverse_undoes_the_gate(name, gate):
    prep = states(gate, seed=3)[2]
    qc = prep.copy()
    qc.append(gate, qc.qubits)
    qc.append(gate.inverse(), qc.qubits)
    a, b = simulate(qc).amplitudes(), simulate(prep).amplitudes()
    assert set(a) == set(b) and all(abs(a[k] - b[k]) < 1e-9 for k in a)

"""The polynomial gates equal the paper's gates on the valid subspace, amplitude by amplitude.

For every stage, every basis state the game can be in before the stage (the referee's support)
is fed to the paper's gate and to the polynomial gate (workspace ancillas at 0); the output
states must agree in every amplitude up to one global phase per gate (the same for all inputs,
so the gates are equal as maps on the valid subspace), and the ancillas must come back clean.
"""

from __future__ import annotations

import pytest
from qiskit.circuit import QuantumCircuit

from qcards.circuits.game import build_game
from qcards.execution.ddsim import dd_amplitudes
from qcards.skat.rules.cards import Trump
from qcards.skat.solvers.plain_referee import stage_distributions

from conftest import random_spec, spec_id

TOL = 1e-9


def _gate_output(game, index: int, outcome: int) -> dict[int, complex]:
    layout = game.layout
    qc: QuantumCircuit = layout.circuit("probe")
    ones = [q for i, q in enumerate(layout.measured) if (outcome >> i) & 1]
    if ones:
        qc.x(ones)
    qc.append(game.circuit.data[index])
    return dd_amplitudes(qc, layout.measured)


def assert_equivalent_on_valid_states(spec):
    paper = build_game(spec, construction="paper")
    efficient = build_game(spec, construction="efficient")
    assert len(paper.layout.measured) == len(efficient.layout.measured)
    before = None
    checked = 0
    for stage, dist in stage_distributions(spec):
        i = paper.stages.index(stage)
        if before is None:  # the deal: one input, all zeros
            inputs, p_index, e_index = [0], 0, 0
        else:
            inputs = [paper.layout.encode(snap) for snap in before]
            p_index, e_index = paper.prefix_lengths[i] - 1, efficient.prefix_lengths[i] - 1
        phase = None
        for outcome in inputs:
            want = _gate_output(paper, p_index, outcome)
            got = _gate_output(efficient, e_index, outcome)
            if phase is None:
                key = max(want, key=lambda k: abs(want[k]))
                phase = want[key] / got[key]
                assert abs(abs(phase) - 1) < TOL
            for key in set(want) | set(got):
                diff = want.get(key, 0) - phase * got.get(key, 0)
                assert abs(diff) < TOL, (stage.name, outcome, key)
            checked += 1
        before = dist
    return checked


def test_four_card_gates_equal_on_valid_states(four_card):
    assert assert_equivalent_on_valid_states(four_card) > 10


@pytest.mark.parametrize(
    "params",
    [
        (3, 3, 1, Trump.GRAND, True, False),
        (4, 2, 2, Trump.HEARTS, True, True),
        (5, 3, 2, Trump.CLUBS, True, True),
        (6, 2, 2, Trump.NONE, False, False),
    ],
    ids=spec_id,
)
def test_generated_gates_equal_on_valid_states(params):
    assert assert_equivalent_on_valid_states(random_spec(*params)) > 5

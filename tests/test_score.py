"""S_A (Eq. 18) and the win oracle against the referee, exactly."""

from __future__ import annotations

import pytest
from qiskit import transpile
from qiskit_aer import AerSimulator
from qiskit_aer.primitives import EstimatorV2

from qcards.circuits.game import build_game
from qcards.circuits.oracle import build_win_circuit, score_operator, score_register_size
from qcards.skat.rules.cards import Card
from qcards.skat.solvers.plain_referee import evaluate

from conftest import generated_specs, over_specs_within_16_qubits, random_spec, sampled, spec_id

TOL = 1e-9


def expected_score(spec, first=None):
    game = build_game(spec, first, construction="paper")
    op = score_operator(game.layout)
    sim = AerSimulator()
    circuit = transpile(game.circuit, sim)
    result = EstimatorV2().run([(circuit, op.apply_layout(circuit.layout))]).result()
    return float(result[0].data.evs)


def win_probability(spec, first=None, method="statevector"):
    win = build_win_circuit(spec, first, construction="paper")
    qc = win.circuit.copy()
    qc.save_probabilities_dict([win.objective], label="p")
    sim = AerSimulator(method=method, max_memory_mb=2**40)
    return sim.run(transpile(qc, sim), shots=1).result().data(0)["p"].get(1, 0.0)


def assert_matches_referee(spec, method="statevector"):
    """S_A gives the referee's expected points and the win oracle its p_win (``method``: Aer's)."""
    referee = evaluate(spec)
    assert abs(expected_score(spec) - float(referee.expected_points)) < TOL
    assert abs(win_probability(spec, method=method) - float(referee.p_win)) < TOL


def test_score_operator_four_card(four_card):
    assert abs(expected_score(four_card) - 14) < TOL


@pytest.mark.parametrize("first", ["CA", "CK"])
def test_score_operator_six_card(six_card, first):
    card = Card.parse(first)
    assert (
        abs(expected_score(six_card, card) - float(evaluate(six_card, first=card).expected_points))
        < TOL
    )


def test_win_oracle_four_card(four_card):
    assert abs(win_probability(four_card) - 5 / 12) < TOL


def test_win_oracle_six_card_mps(six_card):
    p = win_probability(six_card, Card.parse("CA"), "matrix_product_state")
    assert abs(p - 2 / 3) < TOL


@over_specs_within_16_qubits(3)
def test_score_and_oracle_generated(params):
    spec = random_spec(*params, max_qubits=16)
    assert_matches_referee(spec)


def test_score_register_covers_extremes(six_card):
    from dataclasses import replace

    for target in (0, 40, 41, 75, 76, 120):
        spec = replace(six_card, target=target)
        n = score_register_size(spec)
        gap = target - spec.declarer_points
        m = n - 1
        assert 2**m >= gap and spec.points_in_play() - gap < 2**m


# ----------------------------------------------------------------------------- the Skat


@pytest.mark.parametrize(
    "fixture,method",
    [
        ("skat_one_trick", "statevector"),
        ("skat_two_tricks", "matrix_product_state"),  # 25 qubits with the score register
        ("skat_only", "statevector"),
    ],
)
def test_score_and_oracle_with_skat(fixture, method, request):
    """Counting the Skat matters: without it skat_one_trick's p_win would be 1/3, not 2/3."""
    spec = request.getfixturevalue(fixture)
    assert_matches_referee(spec, method)


@pytest.mark.parametrize(
    "params",
    sampled([p for p in generated_specs(skat=True) if (p[2], p[6]) != (2, 2)][::4]),
    ids=spec_id,
)
def test_score_and_oracle_generated_with_skat(params):
    spec = random_spec(*params, max_qubits=16)
    assert_matches_referee(spec)

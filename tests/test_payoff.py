"""The payoff oracle (issue 38 item 4): the payoff qubit's probability equals the referee's
normalised expected score to 1e-9 on the sparse engine and on Aer, the outcome gate's classical
action equals its decomposition, amplitude estimation lands in its interval, and the payoff is
counted in resources and the fault-tolerant estimate."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from qiskit import transpile
from qiskit_aer import AerSimulator

from qcards.analysis.fault_tolerant import fault_tolerant_cost
from qcards.analysis.resources import payoff_resources
from qcards.circuits.payoff import build_payoff_circuit, outcome_layout
from qcards.cli import main
from qcards.errors import ModelError
from qcards.estimation.counting import count_payoff
from qcards.estimation.options import EstimationOptions
from qcards.execution.sparse.engine import simulate
from qcards.skat.position.spec import parse_spec
from qcards.skat.solvers.objectives import OBJECTIVES, expectation
from qcards.skat.solvers.outcome_distributions import outcome_distribution
from qcards.skat.solvers.plain_referee import evaluate as referee_evaluate

from conftest import TEST_SPECS, spec_text

TOL = 1e-9

SIX = """
players = ["A", "B", "C"]
trump = "spades"
leader = "A"
declarer_points = 40
declarer_tricks = 4
[hands]
A = ["CA", "CK"]
[unknown]
cards = ["C10", "C9", "C8", "H10"]
sizes = { B = 2, C = 2 }
[declaration]
bid = 18
matadors = -1
"""
"""The paper's six-card example declared: spades without one, after the pick-up."""


def specs():
    return {
        "tiny": parse_spec(spec_text("declared-tiny")),
        "six": parse_spec(SIX),
        "declared-hand": parse_spec(spec_text("declared-hand")),
        "declared-pickup": parse_spec(spec_text("declared-pickup")),
    }


def normalised_exact(payoff, spec, objective) -> float:
    exact = expectation(spec, OBJECTIVES[objective], outcome_distribution(spec))
    return float((Fraction(exact) - Fraction(payoff.low)) / Fraction(payoff.high - payoff.low))


@pytest.mark.parametrize("name", ["tiny", "six", "declared-hand", "declared-pickup"])
@pytest.mark.parametrize("objective", ["score", "seeger-fabian"])
def test_sparse_engine_equals_the_referee(name, objective):
    spec = specs()[name]
    payoff = build_payoff_circuit(spec, objective)
    probability = simulate(payoff.circuit).probabilities([payoff.objective]).get(1, 0.0)
    assert abs(probability - normalised_exact(payoff, spec, objective)) < TOL


def test_win_objective_is_the_win_probability():
    spec = specs()["six"]
    payoff = build_payoff_circuit(spec, "win")
    probability = simulate(payoff.circuit).probabilities([payoff.objective]).get(1, 0.0)
    assert (payoff.low, payoff.high) == (0, 1)
    assert abs(probability - float(referee_evaluate(spec).p_win)) < TOL


@pytest.mark.parametrize(
    ("name", "construction"), [("tiny", "efficient"), ("six", "paper"), ("six", "efficient")]
)
def test_aer_equals_the_referee(name, construction):
    spec = specs()[name]
    payoff = build_payoff_circuit(spec, "seeger-fabian", construction=construction)
    qc = payoff.circuit.copy()
    qc.save_probabilities_dict([payoff.objective], label="p")
    sim = AerSimulator(method="matrix_product_state", max_memory_mb=2**40)
    probability = sim.run(transpile(qc, sim), shots=1).result().data(0)["p"].get(1, 0.0)
    assert abs(probability - normalised_exact(payoff, spec, "seeger-fabian")) < TOL


def test_outcome_gate_definition_equals_its_classical_action():
    payoff = build_payoff_circuit(specs()["tiny"], "score")
    assert outcome_layout(payoff.game.layout).code_bits == 1  # the Skat's jack is read
    qubits = list(range(payoff.num_qubits))
    fast = simulate(payoff.circuit).probabilities(qubits)
    slow = simulate(payoff.circuit, classical_actions=False).probabilities(qubits)
    assert fast.keys() == slow.keys()
    assert all(abs(fast[k] - slow[k]) < TOL for k in fast)
    # the inverse (uncomputing the registers) returns to |0>
    round_trip = payoff.circuit.copy()
    round_trip.compose(payoff.circuit.inverse(), inplace=True)
    assert simulate(round_trip).probabilities(qubits).keys() == {0}


def test_matador_codes_follow_the_skat():
    layout = outcome_layout(build_payoff_circuit(specs()["declared-hand"], "score").game.layout)
    assert sorted(layout.matadors) == [1, 3]  # with 1, or with 3 with the spades jack
    assert all("SJ" in {str(c) for c in cards} for cards, _code in layout.skats)


def test_amplitude_estimation_lands_in_its_interval():
    spec = specs()["declared-hand"]
    result = count_payoff(spec, "score", EstimationOptions("iae", epsilon=0.01, seed=3))
    low, high = result.ci
    assert result.exact == Fraction(321, 10)
    assert low <= float(result.exact) <= high


def test_payoff_needs_a_declaration():
    with pytest.raises(ModelError, match="scores a declared game"):
        build_payoff_circuit(parse_spec(spec_text("skat-two-tricks")), "score")


def test_cli_count_objective(capsys):
    path = str(TEST_SPECS / "declared-hand.toml")
    argv = ["count", path, "--objective", "seeger-fabian", "--seed", "3", "--json"]
    assert main([*argv, "--construction", "efficient"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["objective"] == "seeger-fabian" and data["exact_fraction"] == "671/10"
    assert data["ci"][0] <= data["exact"] <= data["ci"][1]


def test_payoff_counted_in_resources_and_fault_tolerant_cost():
    count = payoff_resources(3, "score")
    assert count.cx > 0 and count.source == "built"
    report = fault_tolerant_cost(
        cards_per_player=3, physical=False, algorithms=["iae"], objective="score"
    )
    win = fault_tolerant_cost(cards_per_player=3, physical=False, algorithms=["iae"])
    assert report.objective == "score" and report.to_json()["objective"] == "score"
    assert report.a.rotations > win.a.rotations  # the payoff rotation

"""Counting and amplitude estimation: seeded intervals contain the referee's exact p_win."""

from __future__ import annotations

import numpy as np
import pytest
from qiskit import QuantumCircuit
from qiskit.quantum_info import Operator
from qiskit_algorithms import EstimationProblem

from qcards.circuits.oracle import build_win_circuit
from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.errors import ModelError
from qcards.estimation.counting import count as count_task
from qcards.estimation.grover import controlled_grover_power
from qcards.estimation.options import EstimationOptions
from qcards.execution.sampling import TranspilingSampler, default_sampler
from qcards.skat.position.spec import parse_spec
from qcards.skat.rules.cards import Card

from conftest import REPO, over_specs_within_16_qubits, random_spec

FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")


def count(spec, first=None, construction="paper", method="iae", **options):
    """:func:`count_task` of ``spec`` (the paper construction unless given)."""
    return count_task(
        GameTask(spec, first, construction), EstimationOptions(algorithm=method, **options)
    )


SETTINGS = {
    "iae": {"epsilon": 0.02},
    "mlae": {"epsilon": 0.05},
    "canonical": {"eval_qubits": 3},
}


def check(result):
    low, high = result.ci
    assert low - 1e-9 <= float(result.exact) <= high + 1e-9, result.to_json()
    assert result.confidence_level == pytest.approx(0.95)
    assert result.oracle_calls > 0


@pytest.mark.parametrize("method", list(SETTINGS))
def test_four_card_interval_contains_exact(four_card, method):
    result = count(four_card, method=method, seed=7, shots=100, **SETTINGS[method])
    check(result)
    assert result.equal_weights and result.num_paths == 24 and result.winning_paths_exact == 10


def test_four_card_iae_reaches_one_percent(four_card):
    result = count(four_card, method="iae", epsilon=0.01, seed=2, shots=100)
    assert result.error <= 0.01
    assert abs(result.winning_paths - 10) <= 24 * 0.01


@pytest.mark.parametrize("method", ["iae", "mlae"])
def test_efficient_construction_counts_the_same(four_card, method):
    """A built on the polynomial game circuit: a different, wider A, the same p_win."""
    paper = build_win_circuit(four_card, construction="paper")
    efficient = build_win_circuit(four_card, construction="efficient")
    assert efficient.num_qubits > paper.num_qubits
    result = count(
        four_card, method=method, seed=5, shots=100, construction="efficient", **SETTINGS[method]
    )
    check(result)
    assert result.num_qubits == efficient.num_qubits


@pytest.mark.slow
@pytest.mark.parametrize("method", list(SETTINGS))
def test_six_card_interval_contains_exact(six_card, method):
    result = count(six_card, Card.parse("CA"), method=method, seed=3, shots=100, **SETTINGS[method])
    check(result)
    assert float(result.exact) == pytest.approx(2 / 3)


@over_specs_within_16_qubits(6)
def test_generated_specs_iae(params):
    spec = random_spec(*params, max_qubits=16)
    check(count(spec, method="iae", epsilon=0.05, seed=params[0], shots=100))


def test_unequal_path_weights_do_not_claim_a_path_count():
    # A holding CA CK leaves B two free choices, A holding CA D7 forces B to follow suit:
    # paths weigh 1/24 or 1/12, so p_win is not a count of paths.
    spec = parse_spec(
        'players = ["A", "B"]\ntrump = "none"\ntarget = 15\n'
        '[unknown]\ncards = ["CA", "CK", "D7", "D8"]\nsizes = { A = 2, B = 2 }\n'
    )
    result = count(spec, method="iae", epsilon=0.05, seed=1, shots=100)
    assert not result.equal_weights and result.winning_paths is None
    check(result)


def test_controlled_grover_power_equals_qiskit():
    a = QuantumCircuit(3)
    a.ry(0.7, 0)
    a.cx(0, 1)
    a.h(2)
    a.cry(0.4, 2, 1)
    problem = EstimationProblem(state_preparation=a, objective_qubits=[1])
    for k in (1, 2, 3):
        reference = Operator(problem.grover_operator.power(k).control())
        assert np.allclose(Operator(controlled_grover_power(problem, k)).data, reference.data)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({"method": "qpe"}, "unknown estimation algorithm"),
        ({"epsilon": 0.7}, "^epsilon must"),
        ({"alpha": 1.5}, "^alpha must"),
        ({"eval_qubits": 0}, "^eval_qubits must"),
        ({"backend": "gpu"}, "unknown backend"),
        ({"backend": "ibm:ibm_torino"}, "chain of dependent circuits"),
    ],
)
def test_bad_options(four_card, kwargs, message):
    """The library names its parameters (the CLI's flags: test_bad_options_name_the_flags)."""
    with pytest.raises(ModelError, match=message):
        count(four_card, **kwargs)


@pytest.mark.parametrize(
    "flags,message",
    [
        (["--algorithm", "qpe"], "invalid choice"),
        (["--epsilon", "0.7"], "--epsilon must lie in (0, 0.5), got 0.7"),
        (["--alpha", "1.5"], "--alpha must lie in (0, 1), got 1.5"),
        (["--eval-qubits", "0"], "--eval-qubits must lie in 1..12, got 0"),
        (["--backend", "gpu"], "unknown backend 'gpu'"),
        (["--backend", "ibm:ibm_torino"], "chain of dependent circuits"),
    ],
)
def test_bad_options_name_the_flags(capsys, flags, message):
    assert main(["count", FOUR, *flags]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_method_is_a_deprecated_alias_of_algorithm(capsys):
    argv = ["count", FOUR, "--method", "iae", "--epsilon", "0.05", "--seed", "1", "--json"]
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert '"method": "iae"' in captured.out
    assert "--method is deprecated" in captured.err


@pytest.mark.parametrize("backend", ["aer-mps", "mps", "statevector", "fake:FakeManilaV2"])
def test_count_takes_the_run_backend_names(backend):
    assert isinstance(default_sampler(backend, shots=10, seed=1), TranspilingSampler)

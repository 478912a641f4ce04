"""The sparse engine inside qcards: exact stages, vectorised points, counting, the memory guard.

Every number is compared with the referee's Fractions to 1e-9 (sampled ones with a seed and
the interval of the estimator); the engine simulates the circuit gate by gate, so agreement
here is the circuit agreeing with the referee.
"""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from qcards.circuits.construction import construction_names
from qcards.circuits.decode import decode_distribution
from qcards.circuits.game import build_game
from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.errors import ResourceError
from qcards.estimation.counting import count
from qcards.estimation.options import EstimationOptions
from qcards.execution.exact import (
    exact_stage_probabilities,
    sparse_final_outcomes,
    sparse_final_points,
)
from qcards.execution.sparse import engine as sparse
from qcards.plan import limits
from qcards.skat.solvers.plain_referee import evaluate, paths, stage_distributions

from conftest import REPO, generated_specs, random_spec, sampled_indices

TOL = 1e-9
FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")
CASES = generated_specs() + generated_specs(skat=True)
SPECS = [random_spec(*p) for p in CASES]


@pytest.mark.parametrize("construction", construction_names())
@pytest.mark.parametrize("index", sampled_indices(CASES))
def test_every_stage_equals_the_referee(index, construction):
    spec = SPECS[index]
    game = build_game(spec, construction=construction)
    exact = exact_stage_probabilities(game, method="sparse")
    referee = dict(stage_distributions(spec))
    assert set(exact) == set(referee)
    for stage, probs in exact.items():
        circuit = decode_distribution(game, stage, probs)
        expected = referee[stage]
        assert set(circuit) <= set(expected) | {s for s, p in circuit.items() if p < TOL}
        for snapshot, p in expected.items():
            assert abs(circuit.get(snapshot, 0.0) - float(p)) < TOL, (stage.name, snapshot)


@pytest.mark.parametrize("index", sampled_indices(CASES))
def test_vectorised_points_equal_decoding(index):
    """``final_declarer_points`` equals decode + declarer_points on every final outcome."""
    spec = SPECS[index]
    game = build_game(spec)
    state = sparse.simulate(game.circuit)
    position = {q: i for i, q in enumerate(game.circuit.qubits)}
    measured = [position[q] for q in game.layout.measured]
    bits = state.bits

    def bit(q):
        word, offset = divmod(position[q], 64)
        return ((bits[:, word] >> np.uint64(offset)) & np.uint64(1)).astype(np.int64)

    vectorised = np.broadcast_to(game.layout.final_declarer_points(bit), (state.num_rows,))
    tricks = np.broadcast_to(game.layout.final_declarer_tricks(bit), (state.num_rows,))
    last = game.stages[-1]
    for row in range(state.num_rows):
        outcome = sum(int(bit(game.circuit.qubits[i])[row]) << k for k, i in enumerate(measured))
        snapshot = game.layout.decode(outcome, last)
        assert snapshot.declarer_points(spec) == vectorised[row]
        assert snapshot.declarer_tricks(spec) == tricks[row]


@pytest.mark.parametrize("index", sampled_indices(CASES))
def test_final_points_give_the_referees_p_win(index):
    spec = SPECS[index]
    outcomes = sparse_final_outcomes(build_game(spec))
    p_win = sum(p for (v, t), p in outcomes.items() if spec.declarer_wins(v, t))
    exact = sum((p.probability for p in paths(spec) if p.declarer_won(spec)), Fraction(0))
    assert abs(p_win - float(exact)) < TOL
    expected = sum(p * v for (v, _t), p in outcomes.items())
    assert abs(expected - float(evaluate(spec).expected_points)) < 1e-7


@pytest.mark.parametrize("algorithm", ["iae", "mlae", "canonical"])
@pytest.mark.parametrize("construction", construction_names())
def test_counting_on_the_sparse_engine(four_card, algorithm, construction):
    # the settings of test_counting (MLAE's Fisher interval undercovers at finer epsilons)
    settings = {"iae": {"epsilon": 0.02}, "mlae": {"epsilon": 0.05}, "canonical": {}}[algorithm]
    options = EstimationOptions(algorithm, seed=3, shots=100, backend="sparse", **settings)
    result = count(GameTask(four_card, None, construction), options)
    low, high = result.ci
    assert low - TOL <= float(result.exact) <= high + TOL, result.to_json()
    assert result.exact == Fraction(5, 12)


def test_memory_guard_refuses_up_front(capsys):
    # the game's engine runs the deals in shards and their rows in blocks: it refuses when the
    # deal rows and the blocks in flight cannot fit
    with limits(memory=100), pytest.raises(ResourceError, match="deal state"):  # not one row
        sparse_final_points(build_game(random_spec(*generated_specs()[-1])))
    with limits(memory=100):
        assert main(["evaluate", FOUR, "--method", "sparse"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "would need about" in err and "--method classical" in err


def test_evaluate_reports_the_engine(capsys):
    assert main(["evaluate", FOUR, "--method", "sparse", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["method"] == "sparse" and data["p_win_exact"] == "5/12"
    assert abs(data["p_win"] - 5 / 12) < TOL


@pytest.mark.slow
def test_twelve_card_endgame_exact():
    """The scale benchmark's twelve-card endgame (87 qubits, 60,512 paths), exact."""
    import sys

    sys.path.insert(0, str(REPO / "benchmarks"))
    from bench_scale import scale_spec

    spec = scale_spec(4)
    game = build_game(spec)
    assert game.num_qubits == 87
    points = sparse_final_points(game)
    p_win = sum(p for v, p in points.items() if v >= spec.target)
    assert abs(p_win - float(evaluate(spec).p_win)) < TOL


def _problem(spec, construction="paper"):
    from qcards.estimation.counting import estimation_problem

    return estimation_problem(GameTask(spec, None, construction).win_circuit())


@pytest.mark.parametrize("construction", construction_names())
def test_grover_powers_on_a_kept_state_equal_the_circuits(four_card, construction):
    """Q^k A|0> from the kept state equals the circuit qiskit-algorithms builds for it."""
    from qiskit_algorithms import IterativeAmplitudeEstimation

    from qcards.execution.sparse.sampler import SparseSampler

    problem = _problem(four_card, construction)
    grover = SparseSampler(seed=1).for_problem(problem)
    builder = IterativeAmplitudeEstimation(0.1, 0.05)
    for k in (0, 1, 2, 5, 3):  # 3 after 5: the kept state is rebuilt from A
        circuit = builder.construct_circuit(problem, k)
        expected = sparse.simulate(circuit).probabilities(problem.objective_qubits)
        found = grover._distribution(k)
        for o in set(found) | set(expected):
            assert abs(found.get(o, 0.0) - expected.get(o, 0.0)) < TOL, (k, o)


def test_phase_estimation_by_fourier_transform_equals_the_circuit(four_card):
    """The marker's distribution equals the full phase-estimation circuit's (m = 3)."""
    from qcards.estimation.grover import phase_estimation_circuit
    from qcards.execution.sparse.sampler import SparseSampler

    problem = _problem(four_card)
    m = 3
    pec = phase_estimation_circuit(problem, m)
    full = pec.copy_empty_like()
    full.compose(problem.state_preparation, list(range(m, full.num_qubits)), inplace=True)
    full.compose(pec, inplace=True)
    expected = sparse.simulate(full).probabilities(list(range(m)))
    found = SparseSampler(seed=1).for_problem(problem)._phase_distribution(m)
    for y in set(expected) | set(found):
        assert abs(found.get(y, 0.0) - expected.get(y, 0.0)) < TOL, y


def test_auto_runs_the_circuit_when_the_referee_cannot_answer(monkeypatch):
    """``--method auto`` picks by the estimates (issue 31): the exact referee when it can answer
    (the cheapest), else the sparse engine, with no fraction beside it; the JSON says why."""
    from qcards.analysis import evaluate as evaluation
    from qcards.analysis.methods import runs
    from qcards.errors import ResourceError
    from qcards.skat.position.spec import load_spec

    spec = load_spec(FOUR)
    assert evaluation.evaluate(spec).method == "classical"

    def refused(*args, **kwargs):
        raise ResourceError("the exact referee would take about 3 hours")

    monkeypatch.setattr(runs, "referee_seconds", refused)
    report = evaluation.evaluate(spec)
    assert report.method == "sparse" and report.p_win_exact is None
    assert abs(report.p_win - 5 / 12) < TOL
    assert report.method_reason.startswith("auto: the sparse circuit engine, about ")
    assert report.method_reason.endswith(
        "is the cheapest exact method (the exact referee cannot: the exact referee would take "
        "about 3 hours)"
    )

    def refused_with_advice(*args, **kwargs):
        raise ResourceError("the referee would take long", advice="give {force}")

    monkeypatch.setattr(runs, "referee_seconds", refused_with_advice)
    reason = evaluation.evaluate(spec).method_reason
    assert reason.endswith(": the referee would take long)")  # it answered: no advice quoted

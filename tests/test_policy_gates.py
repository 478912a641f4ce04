"""Policy-weighted card-play gates (issue 39 item 2, the paper's Sec. X.1): the circuits prepare
a play model's policy, and every engine gives the referee's numbers under that model."""

from __future__ import annotations

import math
import pickle

import pytest

import qcards
from qcards.analysis.methods.runs import final_distribution
from qcards.analysis.sampled import circuit_samples
from qcards.circuits.decode import regroup
from qcards.circuits.game import build_game
from qcards.circuits.task import GameTask
from qcards.errors import ModelError, ParameterError
from qcards.execution.exact import exact_stage_probabilities, sparse_final_outcomes
from qcards.execution.sparse.engine import simulate_prefixes
from qcards.skat.players.play_models import get_model
from qcards.skat.rules.cards import Card, Trump
from qcards.skat.solvers.outcome_distributions import outcome_distribution

from conftest import breadth, generated_specs_within_16_qubits, random_spec, sampled, spec_id

TOL = 1e-9
MODELS = ("heuristic", "softmax")


def referee_pairs(spec, model, first=None) -> dict[tuple[int, int], float]:
    """The referee's exact distribution of (declarer's points, tricks) under the model."""
    dist = outcome_distribution(spec, first, get_model(model).policy)
    return {k: float(q) for k, q in regroup(dist, lambda o: o[:2]).items()}


def circuit_pairs(spec, game, method) -> dict[tuple[int, int], float]:
    dist = final_distribution(game, method)
    return regroup(dist, lambda s: (s.declarer_points(spec), s.declarer_tricks(spec)))


def sparse_pairs(game) -> dict[tuple[int, int], float]:
    return regroup(sparse_final_outcomes(game), lambda o: tuple(o[:2]))


def assert_same(got: dict, want: dict) -> None:
    support = {k for k, p in got.items() if p > TOL}
    assert support == {k for k, p in want.items() if p > TOL}
    for key, p in want.items():
        assert abs(got.get(key, 0.0) - p) < TOL, key


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize(
    "construction", breadth(["paper", "hardware", "efficient"], ["paper", "efficient"])
)
def test_paper_examples_statevector_equals_referee(four_card, six_card, model, construction):
    """Aer's exact final state of the weighted circuit gives the referee's distribution under
    the model, at the paper's sizes, in every construction (the efficient one's six-card
    circuit is too wide for a dense statevector: the sparse engine without the classical
    actions simulates its decomposed gates instead)."""
    for spec, first in ((four_card, None), (six_card, None), (six_card, Card.parse("CA"))):
        game = build_game(spec, first, construction=construction, model=model)
        want = referee_pairs(spec, model, first)
        assert_same(sparse_pairs(game), want)
        if game.num_qubits <= 26:
            assert_same(circuit_pairs(spec, game, "statevector"), want)
        else:
            assert_same(decomposed_pairs(spec, game), want)


def decomposed_pairs(spec, game) -> dict[tuple[int, int], float]:
    """The final distribution from the gates' definitions (no classical action)."""
    last = game.stages[-1]
    state = None
    for state in simulate_prefixes(game.circuit, [len(game.circuit.data)], classical_actions=False):
        probs = state.probabilities(list(range(len(game.layout.measured))))
    assert state is not None
    snaps = {game.layout.decode(o, last): p for o, p in probs.items()}
    return regroup(snaps, lambda s: (s.declarer_points(spec), s.declarer_tricks(spec)))


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("params", sampled(generated_specs_within_16_qubits()[::2]), ids=spec_id)
def test_generated_specs_every_stage_aer_equals_sparse(params, model):
    """Stage by stage, Aer's statevector of the weighted circuit (its definitions) equals the
    sparse engine's classical actions; at the end both equal the referee under the model."""
    spec = random_spec(*params, max_qubits=16)
    game = build_game(spec, construction="paper", model=model)
    aer = exact_stage_probabilities(game, method="statevector")
    sparse = exact_stage_probabilities(game, method="sparse")
    for stage in game.stages:
        keys = {k for k, p in aer[stage].items() if p > TOL}
        assert keys == {k for k, p in sparse[stage].items() if p > TOL}, stage.name
        for k in keys:
            assert abs(aer[stage][k] - sparse[stage][k]) < TOL, stage.name
    assert_same(circuit_pairs(spec, game, "statevector"), referee_pairs(spec, model))


@pytest.mark.parametrize("model", MODELS)
def test_nine_card_sparse_engine_equals_referee(model):
    """Beyond the paper's sizes the sparse engine follows the weighted branches exactly."""
    spec = random_spec(2, 3, 3, Trump.CLUBS, True, True, max_qubits=10_000)
    game = build_game(spec, model=model)
    assert_same(sparse_pairs(game), referee_pairs(spec, model))


def test_weights_differ_from_random_play(six_card):
    """The weighted circuit is not the uniform one: its distribution differs from random play's
    (the test above would pass for a policy that were ignored only if the models agreed)."""
    uniform = sparse_pairs(build_game(six_card))
    weighted = sparse_pairs(build_game(six_card, model="heuristic"))
    assert any(abs(uniform.get(k, 0) - weighted.get(k, 0)) > 0.01 for k in {*uniform, *weighted})


def test_zero_weight_cards_get_no_branch(four_card):
    """The heuristic gives most cards weight 0: the weighted circuit's final state has fewer
    basis states than random play's, each a game the referee's model plays."""
    uniform = build_game(four_card)
    weighted = build_game(four_card, model="heuristic")
    last = weighted.stages[-1]
    n_uniform = len(exact_stage_probabilities(uniform, [last], method="sparse")[last])
    n_weighted = len(exact_stage_probabilities(weighted, [last], method="sparse")[last])
    assert n_weighted < n_uniform


def test_gate_names_show_the_model(four_card):
    game = build_game(four_card, construction="hardware", model="heuristic")
    names = [inst.operation.name for inst in game.circuit.data]
    assert "cp_hw_t1_p0_heuristic" in names
    assert game.model == "heuristic"
    defined = next(i.operation for i in game.circuit.data if i.operation.name.startswith("cp"))
    assert defined.definition.name.startswith("cp_w_t1_p0")


def test_weighted_circuit_pickles(four_card):
    """Aer runs in a child process: the weighted gates and their policies pickle, and the
    copy's exact state is the same."""
    for model in MODELS:
        game = build_game(four_card, construction="paper", model=model)
        copy = pickle.loads(pickle.dumps(game))
        assert_same(circuit_pairs(four_card, copy, "statevector"), referee_pairs(four_card, model))


@pytest.mark.parametrize("model", ["adversarial", "best-response"])
def test_models_without_a_policy_are_refused(four_card, model):
    with pytest.raises(ModelError, match=f"the {model} model has no policy"):
        build_game(four_card, model=model)


def test_unknown_model_is_refused(four_card):
    with pytest.raises(ModelError, match="unknown"):
        build_game(four_card, model="nope")
    with pytest.raises(ModelError, match="unknown"):
        GameTask(four_card, model="nope")


def test_paper_codes_are_refused_with_a_policy(four_card):
    game = build_game(four_card, paper_codes=True, construction="paper")  # random play keeps them
    assert game.layout.code is not None
    with pytest.raises(ParameterError, match="paper's card codes"):
        build_game(four_card, paper_codes=True, construction="paper", model="heuristic")


def test_task_keeps_the_model(four_card):
    task = GameTask(four_card, None, "paper", "heuristic")
    again = GameTask.from_json(task.to_json())
    assert again.model == "heuristic"
    assert again.build().model == "heuristic"
    old = {k: v for k, v in task.to_json().items() if k != "model"}  # a record from before
    assert GameTask.from_json(old).model == "random"


@pytest.mark.parametrize("method", ["sparse", "statevector"])
def test_evaluate_runs_the_weighted_circuit(four_card, method):
    report = qcards.evaluate(four_card, model="heuristic", method=method)
    want = outcome_distribution(four_card, None, get_model("heuristic").policy)
    p_win = sum(q for (p, t, _m), q in want.items() if four_card.declarer_wins(p, t))
    assert report.method == method
    assert report.p_win_exact == p_win
    assert abs(report.p_win - float(p_win)) < TOL


def test_evaluate_auto_still_uses_the_referee(four_card):
    report = qcards.evaluate(four_card, model="heuristic")
    assert report.method == "classical"


def test_shots_follow_the_weighted_branches(six_card):
    """Ideal-device shots of the weighted circuit (seed 5, 20,000 shots): p_win within four
    standard errors of the referee's under the model."""
    shots = 20_000
    samples = circuit_samples(six_card, None, shots, 5, "efficient", model="softmax")
    want = sum(p for (points, tricks), p in referee_pairs(six_card, "softmax").items()
               if six_card.declarer_wins(points, tricks))  # fmt: skip
    error = math.sqrt(want * (1 - want) / shots)
    assert abs(samples.p_win - want) < 4 * error


@pytest.mark.parametrize(
    "method, shots, message",
    [("double-dummy", None, "answers model adversarial, not model heuristic"),
     ("classical", 100, "is exact for the heuristic model"), ("shots", None, "needs")],
)  # fmt: skip
def test_evaluate_refuses_what_cannot_answer(four_card, method, shots, message):
    with pytest.raises(ModelError, match=message):
        qcards.evaluate(four_card, model="heuristic", method=method, shots=shots)


def test_resources_count_the_weighted_gates():
    """Gate counts of the weighted circuit: built (never by formula), and the heuristic's
    zero-weight cards make its card plays cheaper than random play's."""
    from qcards.analysis.resources import count_resources

    # the efficient construction at two cards a player (the hardware one builds the same
    # weighted plays, WeightedPlays, but took 167 s here: one card a player checks it)
    weighted = count_resources(2, "efficient", model="heuristic")
    uniform = count_resources(2, "efficient")
    assert weighted.model == "heuristic" and weighted.to_json()["model"] == "heuristic"
    assert weighted.stages["play"].source == "built"
    assert 0 < weighted.stages["play"].cx < uniform.stages["play"].cx
    assert weighted.stages["deal"] == uniform.stages["deal"]
    hardware = count_resources(1, "hardware", model="heuristic")
    assert hardware.model == "heuristic" and hardware.stages["play"].source == "built"


def test_fault_tolerant_counts_take_the_model(four_card):
    from qcards.analysis.fault_tolerant import fault_tolerant_cost

    report = fault_tolerant_cost(four_card, model="softmax", physical=False, algorithms=["iae"])
    assert report.model == "softmax" and report.a.toffoli_class > 0
    with pytest.raises(ParameterError, match="give a SPEC"):
        fault_tolerant_cost(cards_per_player=3, model="softmax", physical=False)


@pytest.mark.parametrize(
    "argv",
    [["resources", "--cards-per-player", "10", "--model", "heuristic"],
     ["resources", "--cards-per-player", "10", "--construction", "hardware", "--json"],
     ["evaluate", "qcards/specs/full-game.toml", "--shots", "100", "--construction", "hardware",
      "--seed", "1", "--json"]],
)  # fmt: skip
def test_synthesis_from_reached_states_refuses_large_games_up_front(argv, capsys):
    """Issue 41's hangs: refused from the number of deals before any table is built."""
    from qcards.cli import main

    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "deals, more than 20000" in err


def test_run_samples_the_weighted_circuit_on_aer(capsys):
    """``qcards run --model heuristic``: Aer's shots of the weighted circuit (seed 1, 4,000
    shots) fall within four standard errors of the referee's 1/3; the record says the model."""
    import json

    from qcards.cli import main

    argv = ["run", "qcards/specs/four-card.toml", "--model", "heuristic", "--shots", "4000",
            "--seed", "1", "--json"]  # fmt: skip
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["model"] == "heuristic"
    assert abs(data["p_win"] - 1 / 3) < 4 * math.sqrt(2 / 9 / 4000)

"""Circuits against the classical referee, exactly (to 1e-9), stage by stage."""

from __future__ import annotations

from dataclasses import replace

import pytest

import qcards
from qcards.circuits.card_codes import paper_label
from qcards.circuits.decode import decode_distribution
from qcards.circuits.game import build_game
from qcards.execution.exact import exact_stage_probabilities
from qcards.execution.sparse.engine import simulate_prefixes
from qcards.skat.rules.cards import Card, Trump
from qcards.skat.solvers.plain_referee import evaluate, stage_distributions

from conftest import generated_specs, random_spec, sampled, spec_id

TOL = 1e-9


def assert_matches_referee(spec, first=None, construction="paper"):
    game = build_game(spec, first, construction=construction)
    method = "ddsim" if construction == "efficient" else "statevector"
    exact = exact_stage_probabilities(game, method=method)
    referee = dict(stage_distributions(spec, first))
    assert set(exact) == set(referee)
    for stage, probs in exact.items():
        circuit = decode_distribution(game, stage, probs)
        expected = referee[stage]
        support = {s for s, p in circuit.items() if p > TOL}
        assert support == set(expected), f"{stage.name}: different outcomes"
        for snap, p in expected.items():
            assert abs(circuit[snap] - float(p)) < TOL, f"{stage.name}: {snap}"
    return game


def assert_evaluation_matches_referee(spec):
    """p_win and expected points from the paper circuit's statevector equal the referee's."""
    report = qcards.evaluate(spec, method="statevector", construction="paper")
    referee = evaluate(spec)
    assert abs(report.p_win - float(referee.p_win)) < TOL
    assert abs(report.expected_points - float(referee.expected_points)) < TOL


def test_four_card_every_stage_matches_referee(four_card):
    assert_matches_referee(four_card)


@pytest.mark.parametrize("first", ["CA", "CK"])
def test_six_card_every_stage_matches_referee(six_card, first):
    assert_matches_referee(six_card, Card.parse(first))


def test_six_card_without_fixed_first_card(six_card):
    assert_matches_referee(six_card)


@pytest.mark.parametrize("params", sampled(generated_specs()), ids=spec_id)
def test_generated_spec_matches_referee(params):
    spec = random_spec(*params)
    assert_matches_referee(spec)
    assert_evaluation_matches_referee(spec)


@pytest.mark.parametrize("params", sampled(generated_specs()), ids=spec_id)
def test_efficient_construction_matches_referee(params):
    """The polynomial gates give the referee's distribution after every stage."""
    assert_matches_referee(random_spec(*params), construction="efficient")


def test_efficient_construction_paper_examples(four_card, six_card):
    assert_matches_referee(four_card, construction="efficient")
    assert_matches_referee(six_card, construction="efficient")
    assert_matches_referee(six_card, Card.parse("CA"), construction="efficient")


def test_fixed_first_card_on_generated_spec():
    spec = replace(random_spec(7, 3, 2, Trump.CLUBS, True, True), leader="A")
    for card in spec.hands[spec.declarer]:
        assert_matches_referee(spec, card)


def test_aer_sampling_within_statistical_tolerance(four_card):
    shots = 4000
    report = qcards.evaluate(four_card, method="aer", shots=shots, seed=11, construction="paper")
    p = 5 / 12
    sigma = (p * (1 - p) / shots) ** 0.5
    assert abs(report.p_win - p) < 5 * sigma
    assert report.method == "aer" and report.shots == shots


def decomposed_stage_probabilities(game, qubits) -> dict:
    """Exact probabilities of ``qubits`` after each stage from the sparse engine running every
    gate's decomposition (no classical action): like the MPS run, a check of the synthesised
    gates, in about a second where MPS takes 20-50 s on 39 qubits."""
    index = {q: i for i, q in enumerate(game.circuit.qubits)}
    positions = [index[q] for q in qubits]
    states = simulate_prefixes(game.circuit, game.prefix_lengths, classical_actions=False)
    return {
        stage: state.probabilities(positions)
        for stage, state in zip(game.stages, states, strict=True)
    }


def assert_paper_registers_match_referee(spec, first=None, simulator="mps"):
    """Build with the paper's card registers and read them directly (no decoding), simulated by
    Aer's MPS or (``"decomposed"``) the sparse engine on the gates' decompositions."""
    game = build_game(spec, first, paper_codes=True, construction="paper")
    if simulator == "decomposed":
        probs = decomposed_stage_probabilities(game, game.layout.card_qubits)
    else:
        probs = exact_stage_probabilities(game, qubits=game.layout.card_qubits, method=simulator)
    for stage, expected in stage_distributions(spec, first):
        want: dict[str, float] = {}
        for snap, p in expected.items():
            label = paper_label(snap, spec)
            want[label] = want.get(label, 0.0) + float(p)
        got: dict[str, float] = {}
        for outcome, p in probs[stage].items():
            label = game.layout.code_label(outcome)
            got[label] = got.get(label, 0.0) + p
        for label in set(want) | set(got):
            assert abs(got.get(label, 0.0) - want.get(label, 0.0)) < TOL, (stage.name, label)


def test_paper_registers_four_card(four_card):
    assert_paper_registers_match_referee(four_card)


@pytest.mark.parametrize("params", [p for p in generated_specs() if p[0] % 5 == 0], ids=spec_id)
def test_paper_registers_generated(params):
    # three players over two tricks are 39 qubits: MPS took 20-50 s each, the sparse engine
    # on the same decompositions about a second
    simulator = "decomposed" if params[1:3] == (3, 2) else "mps"
    assert_paper_registers_match_referee(random_spec(*params), simulator=simulator)


def test_mps_method_equals_referee(six_card):
    report = qcards.evaluate(six_card, Card.parse("CK"), method="mps", construction="paper")
    assert report.method == "mps"
    assert abs(report.p_win - 2 / 3) < TOL


# ----------------------------------------------------------------------------- the Skat


@pytest.mark.parametrize("fixture", ["skat_one_trick", "skat_two_tricks", "skat_only"])
def test_skat_every_stage_matches_referee(fixture, request):
    spec = request.getfixturevalue(fixture)
    game = assert_matches_referee(spec)
    if fixture == "skat_only":
        assert not game.layout.owner  # the only receiver is the Skat: nothing to superpose


@pytest.mark.parametrize("fixture", ["skat_one_trick", "skat_two_tricks", "skat_only"])
def test_skat_efficient_construction_matches_referee(fixture, request):
    assert_matches_referee(request.getfixturevalue(fixture), construction="efficient")


@pytest.mark.parametrize("params", sampled(generated_specs(skat=True)[1::2]), ids=spec_id)
def test_generated_skat_spec_efficient_construction(params):
    spec = random_spec(*params)
    assert_matches_referee(spec, construction="efficient")
    report = qcards.evaluate(spec, method="sparse")  # the efficient circuit on the sparse engine
    assert report.method == "sparse" and report.construction == "efficient"
    assert report.method_reason is None  # only auto says why
    assert abs(report.p_win - float(evaluate(spec).p_win)) < TOL


def test_skat_fixed_first_card_matches_referee(skat_two_tricks):
    for card in skat_two_tricks.hands["A"]:
        assert_matches_referee(skat_two_tricks, card)


@pytest.mark.parametrize("params", sampled(generated_specs(skat=True)[::2]), ids=spec_id)
def test_generated_skat_spec_matches_referee(params):
    spec = random_spec(*params)
    assert_matches_referee(spec)
    assert_evaluation_matches_referee(spec)


# -- the hardware construction (issue 17): same registers, equal to the referee everywhere --


def test_hardware_construction_paper_examples(four_card, six_card):
    assert_matches_referee(four_card, construction="hardware")
    assert_matches_referee(six_card, construction="hardware")
    for first in ("CA", "CK"):
        assert_matches_referee(six_card, Card.parse(first), construction="hardware")


@pytest.mark.parametrize("params", sampled(generated_specs()), ids=spec_id)
def test_hardware_construction_matches_referee(params):
    assert_matches_referee(random_spec(*params), construction="hardware")


@pytest.mark.parametrize("params", sampled(generated_specs(skat=True)), ids=spec_id)
def test_hardware_construction_with_a_skat_matches_referee(params):
    assert_matches_referee(random_spec(*params), construction="hardware")


@pytest.mark.parametrize("fixture", ["skat_one_trick", "skat_two_tricks", "skat_only"])
def test_hardware_construction_skat_fixtures(fixture, request):
    assert_matches_referee(request.getfixturevalue(fixture), construction="hardware")


def test_hardware_construction_refuses_large_endgames(monkeypatch, six_card):
    from qcards.circuits.syntheses import hardware
    from qcards.errors import ParameterError

    monkeypatch.setattr(hardware, "HARDWARE_MAX_STATES", 10)
    with pytest.raises(ParameterError, match="small endgames"):
        build_game(six_card, construction="hardware")

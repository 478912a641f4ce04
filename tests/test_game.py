"""Circuits against the classical referee, exactly (to 1e-9), stage by stage."""

from __future__ import annotations

from dataclasses import replace

import pytest

from qcards.analysis import decode_distribution, evaluate_spec
from qcards.backends import exact_stage_probabilities
from qcards.cards import Card, Trump
from qcards.classical import evaluate, stage_distributions
from qcards.game import build_game

from conftest import generated_specs, random_spec

TOL = 1e-9


def assert_matches_referee(spec, first=None):
    game = build_game(spec, first)
    exact = exact_stage_probabilities(game)
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


def test_four_card_every_stage_matches_referee(four_card):
    assert_matches_referee(four_card)


@pytest.mark.parametrize("first", ["CA", "CK"])
def test_six_card_every_stage_matches_referee(six_card, first):
    assert_matches_referee(six_card, Card.parse(first))


def test_six_card_without_fixed_first_card(six_card):
    assert_matches_referee(six_card)


@pytest.mark.parametrize("params", generated_specs(), ids=lambda p: "-".join(map(str, p[1:])))
def test_generated_spec_matches_referee(params):
    spec = random_spec(*params)
    assert_matches_referee(spec)
    report = evaluate_spec(spec, method="statevector")
    referee = evaluate(spec)
    assert abs(report.p_win - float(referee.p_win)) < TOL
    assert abs(report.expected_points - float(referee.expected_points)) < TOL


def test_fixed_first_card_on_generated_spec():
    spec = replace(random_spec(7, 3, 2, Trump.CLUBS, True, True), leader="A")
    for card in spec.hands[spec.declarer]:
        assert_matches_referee(spec, card)


def test_aer_sampling_within_statistical_tolerance(four_card):
    shots = 4000
    report = evaluate_spec(four_card, method="aer", shots=shots, seed=11)
    p = 5 / 12
    sigma = (p * (1 - p) / shots) ** 0.5
    assert abs(report.p_win - p) < 5 * sigma
    assert report.method == "aer" and report.shots == shots

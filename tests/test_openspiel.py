"""OpenSpiel interop (issue 39 item 6): endgame specs as OpenSpiel games. OpenSpiel's exact
best response equals qcards' (random and heuristic opponents), and OpenSpiel's evaluation of
a play model for every seat equals the referee's."""

from __future__ import annotations

import pytest
from open_spiel.python.algorithms import best_response as os_best_response
from open_spiel.python.algorithms.expected_game_score import policy_value

from qcards.analysis.evaluate import evaluate
from qcards.skat.openspiel import openspiel_game, openspiel_policy
from qcards.skat.players.best_response import best_response
from qcards.skat.players.play_models import heuristic, uniform
from qcards.skat.rules.cards import Trump

from conftest import generated_specs, random_spec, sampled

CASES = [p for p in generated_specs() if p[5]][::2] + [(15, 3, 3, Trump.CLUBS, True, True)]


def spec_of(params):
    return random_spec(*params, max_qubits=400)


@pytest.mark.parametrize("params", sampled(CASES), ids=str)
@pytest.mark.parametrize("others", [uniform, heuristic], ids=["random", "heuristic"])
def test_openspiel_best_response_equals_qcards(params, others):
    spec = spec_of(params)
    game = openspiel_game(spec)
    theirs = os_best_response.BestResponsePolicy(game, 0, openspiel_policy(game, spec, others))
    value = theirs.value(game.new_initial_state())
    assert value == pytest.approx(float(best_response(spec, others=others).value), abs=1e-9)


@pytest.mark.parametrize("params", CASES[:4], ids=str)
@pytest.mark.parametrize("model", ["random", "heuristic"])
def test_openspiel_evaluation_equals_the_referee(params, model):
    spec = spec_of(params)
    game = openspiel_game(spec)
    policy = openspiel_policy(game, spec, uniform if model == "random" else heuristic)
    values = policy_value(game.new_initial_state(), [policy] * len(spec.players))
    exact = evaluate(spec, model=model, method="classical").p_win
    assert values[0] == pytest.approx(exact, abs=1e-9)


def test_the_game_is_registered_and_loads_a_spec_file():
    """``pyspiel.load_game`` by the registered name gives the module's classes, and the game a
    spec file loads is the one :func:`openspiel_game` makes of the spec."""
    from pathlib import Path

    import pyspiel
    from open_spiel.python.policy import UniformRandomPolicy

    from qcards.skat.openspiel import GAME_NAME, EndgameGame, EndgameState
    from qcards.skat.position.spec import load_spec

    path = str(Path(__file__).resolve().parents[1] / "qcards" / "specs" / "four-card.toml")
    loaded = pyspiel.load_game(GAME_NAME, {"spec": path})
    made = openspiel_game(load_spec(path))
    assert GAME_NAME in pyspiel.registered_names()
    assert isinstance(loaded, EndgameGame) and isinstance(loaded.new_initial_state(), EndgameState)
    values = [
        policy_value(g.new_initial_state(), [UniformRandomPolicy(g)] * g.num_players())[0]
        for g in (loaded, made)
    ]
    exact = evaluate(load_spec(path), model="random", method="classical").p_win
    assert values[0] == values[1] == pytest.approx(exact, abs=1e-9)
    state = loaded.new_initial_state()
    state.apply_action(0)
    assert state.clone().deal == 0 and str(state.clone()) == str(state)

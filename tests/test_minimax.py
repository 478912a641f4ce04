"""The adversarial value's one module (qcards.skat.solvers.minimax): its engines give one
answer.

The referees' minimax over every deal (:func:`minimax.value`) and the double-dummy solver on
every deal (:func:`minimax.average`) must give the same Fractions; a declared game's outcome
distribution must give them back (its wins and points), and its levels (:func:`minimax.levels`)
every score the outcomes give. Each function refuses past the time limit, naming what to give.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from test_adversarial_scores import declared_spec

from qcards import limits
from qcards.errors import ResourceError
from qcards.skat.position.spec import load_spec
from qcards.skat.solvers import minimax
from qcards.skat.solvers.objectives import expectation, scored_objectives
from qcards.skat.solvers.plain_referee import evaluate

from conftest import REPO, generated_specs, random_spec

SPECS = [
    load_spec(REPO / "qcards" / "specs" / name) for name in ("four-card.toml", "six-card.toml")
]
DECLARED = [declared_spec(seed) for seed in range(12)]


def _generated():
    for seed, players, tricks, trump, winner_leads, known, *skat in generated_specs(1, skat=True):
        yield random_spec(seed, players, tricks, trump, winner_leads, known, skat=skat[0])


@pytest.mark.parametrize("spec", [*SPECS, *_generated()], ids=lambda s: str(s.source))
def test_the_referees_and_the_solver_give_one_value(spec):
    answer = minimax.value(spec)
    oracle = evaluate(spec, "adversarial")
    average = minimax.average(spec)
    assert (answer.p_win, answer.expected_points) == (oracle.p_win, oracle.expected_points)
    assert (average.p_win, average.expected_points) == (answer.p_win, answer.expected_points)
    assert average.num_deals == answer.num_deals
    if spec.leader == spec.declarer and spec.hands[spec.declarer]:
        first = spec.hands[spec.declarer][0]
        fixed = minimax.value(spec, first)
        assert minimax.average(spec, first).p_win == fixed.p_win


@pytest.mark.parametrize("spec", DECLARED, ids=lambda s: str(s.source))
def test_a_declared_games_outcomes_and_levels_agree_with_its_value(spec):
    average = minimax.average(spec)
    assert average.outcomes is not None
    assert sum(average.outcomes.values()) == 1
    points = sum((q * p for (p, _t, _m), q in average.outcomes.items()), Fraction(0))
    wins = sum(q for (p, t, _m), q in average.outcomes.items() if spec.declarer_wins(p, t))
    assert (wins, points) == (average.p_win, average.expected_points)
    levels = minimax.levels(spec)
    assert sum(levels.values()) == 1
    for objective in scored_objectives(spec):
        by_levels = expectation(spec, objective, levels)
        assert expectation(spec, objective, average.outcomes) == by_levels, objective.name


def test_the_solver_refuses_past_the_time_limit_and_names_shots():
    spec = SPECS[1]
    with limits(seconds=1e-9), pytest.raises(ResourceError, match="double dummy") as caught:
        minimax.average(spec)
    assert "shots" in caught.value.parameters
    with limits(seconds=1e-9):
        assert minimax.average(spec, force=True).p_win == evaluate(spec, "adversarial").p_win


@pytest.mark.parametrize("spec", [SPECS[1], DECLARED[0]], ids=["undeclared", "declared"])
def test_the_time_is_planned_with_the_search_that_then_runs(spec, monkeypatch):
    """A declared game's deals are solved by ``deal_outcome`` (up to three searches a deal):
    timing the plain search instead planned too little."""
    from qcards.skat.solvers.double_dummy import outcome, solver

    calls = {"solve_deal": 0, "deal_outcome": 0}

    def counted(module, name):
        function = getattr(module, name)

        def count(*args, **kwargs):
            calls[name] += 1
            return function(*args, **kwargs)

        monkeypatch.setattr(module, name, count)

    counted(solver, "solve_deal")
    counted(outcome, "deal_outcome")
    average = minimax.average(spec)
    used = "solve_deal" if spec.declaration is None else "deal_outcome"
    unused = "deal_outcome" if used == "solve_deal" else "solve_deal"
    # the planning's first call (compiling), its timed deals, then every deal once
    assert calls[used] == 1 + minimax.TIMING_DEALS + average.num_deals
    assert calls[unused] == 0

"""One vocabulary in the public API: one word for where a circuit runs (``backend``), the same
inputs for evaluate, recommend, run and count (a task, or a spec with ``first`` and
``construction``), real names instead of aliases, and a deprecation path for the old names."""

from __future__ import annotations

import dataclasses
import inspect
import warnings

import pytest

import qcards
from qcards.circuits.task import GameTask, as_task
from qcards.errors import ParameterError
from qcards.estimation.options import EstimationOptions
from qcards.paper.examples import FOUR_CARD, SIX_CARD
from qcards.skat.rules.cards import Card


def _public_callables():
    for name in qcards.__all__:
        value = getattr(qcards, name)
        if callable(value):
            yield name, value


def test_every_public_name_is_its_definitions_own_name():
    renamed = [
        name
        for name, value in _public_callables()
        if getattr(value, "__name__", name) != name and not isinstance(value, type(qcards))
    ]
    assert renamed == []


def test_where_a_circuit_runs_is_called_backend_everywhere():
    """No public function takes a ``target`` (an endgame's ``target`` is its points to reach,
    a game concept); run and the estimation options take a ``backend``, a name the one
    registry parses."""
    functions = [(n, v) for n, v in _public_callables() if inspect.isfunction(v)]
    assert len(functions) > 10
    with_target = [n for n, v in functions if "target" in inspect.signature(v).parameters]
    assert with_target == []
    assert "backend" in inspect.signature(qcards.run).parameters
    assert "backend" in {f.name for f in dataclasses.fields(EstimationOptions)}
    assert qcards.parse_backend("sparse") == qcards.Backend(qcards.parse_backend("sparse").kind)


def test_evaluate_recommend_run_and_count_take_the_same_inputs():
    for function in (qcards.evaluate, qcards.run, qcards.count, qcards.recommend):
        parameters = inspect.signature(function).parameters
        assert next(iter(parameters)) == "game", function.__name__
        assert "construction" in parameters, function.__name__
    for function in (qcards.evaluate, qcards.run, qcards.count):
        assert "first" in inspect.signature(function).parameters, function.__name__


@pytest.mark.parametrize(
    "deprecated, new", [("Target", "Backend"), ("parse_target", "parse_backend")]
)
def test_the_old_names_still_answer_with_a_deprecation_warning(deprecated, new):
    with pytest.warns(DeprecationWarning, match=f"qcards.{deprecated} is deprecated.*{new}"):
        value = getattr(qcards, deprecated)
    assert value is getattr(qcards, new)
    assert deprecated not in qcards.__all__ and deprecated not in dir(qcards)


def test_the_old_referee_name_points_to_evaluate_classical():
    from qcards.skat.solvers import plain_referee as referee

    with pytest.warns(DeprecationWarning, match="method='classical'"):
        old = qcards.referee_evaluate
    assert old is referee.evaluate
    spec = SIX_CARD.spec()
    ace = Card.parse("CA")
    assert (
        qcards.evaluate(spec, ace, method="classical").p_win_exact == old(spec, "random", ace).p_win
    )


def test_the_current_names_do_not_warn():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        for name in qcards.__all__:
            getattr(qcards, name)


def test_as_task_takes_a_task_or_a_spec_and_refuses_both():
    spec = SIX_CARD.spec()
    ace = Card.parse("CA")
    task = GameTask(spec, ace, "paper")
    assert as_task(task) is task
    assert as_task(spec, ace, "paper") == task
    assert as_task(spec) == GameTask(spec)
    with pytest.raises(ParameterError, match="first is given twice") as caught:
        as_task(task, first=ace)
    assert caught.value.parameter == "first"
    with pytest.raises(ParameterError, match="construction is given twice"):
        as_task(task, construction="paper")
    with pytest.raises(ParameterError, match="must be an Endgame"):
        as_task("six-card.toml")


def test_a_task_and_its_spec_give_the_same_answers():
    spec = FOUR_CARD.spec()
    task = GameTask(spec, None, "paper")
    assert qcards.evaluate(task, method="sparse") == qcards.evaluate(
        spec, method="sparse", construction="paper"
    )
    by_task = qcards.run(task, "sparse", shots=200, seed=3)
    by_spec = qcards.run(spec, "sparse", shots=200, seed=3, construction="paper")
    assert by_task.counts == by_spec.counts
    options = EstimationOptions("iae", epsilon=0.05, seed=2)
    assert (
        qcards.count(task, options).estimate
        == qcards.count(spec, options, construction="paper").estimate
    )
    ranked = qcards.recommend(SIX_CARD.spec(), method="classical")
    assert ranked == qcards.recommend(GameTask(SIX_CARD.spec()), method="classical")
    with pytest.raises(ParameterError, match="without a first card"):
        qcards.recommend(GameTask(SIX_CARD.spec(), Card.parse("CA")))

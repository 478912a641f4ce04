"""The registry of estimation algorithms: built-ins, a plugin through an entry point, and no
private attribute of qiskit-algorithms read anywhere."""

from __future__ import annotations

import dataclasses
import importlib.metadata
import json
import math
import re

import pytest

from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.errors import ParameterError, PluginError
from qcards.estimation import algorithms
from qcards.estimation.algorithms import (
    EstimationAlgorithm,
    algorithm_names,
    estimate_with_interval,
    get_algorithm,
)
from qcards.estimation.counting import count
from qcards.estimation.options import EstimationOptions

from conftest import REPO

FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")


class _EntryPoint:
    def __init__(self, name: str, record) -> None:
        self.name, self.value, self._record = name, f"probe_plugin:{name.upper()}", record

    def load(self):
        if isinstance(self._record, Exception):
            raise self._record
        return self._record


@pytest.fixture
def plugins(monkeypatch):
    """Install entry points (name -> what loading gives) for the test, then forget them."""

    real = importlib.metadata.entry_points

    def install(**records):
        def entry_points(*args, **kwargs):
            if kwargs.get("group") != algorithms.ENTRY_POINT_GROUP:
                return real(*args, **kwargs)  # qiskit's plugins, for instance
            return [_EntryPoint(name, record) for name, record in records.items()]

        monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
        algorithms.registry.cache_clear()

    yield install
    algorithms.registry.cache_clear()


def test_the_built_ins_in_order():
    assert algorithm_names() == ("canonical", "iae", "mlae")
    assert all(get_algorithm(n).name == n for n in algorithm_names())


def test_an_unknown_name_lists_the_registered_ones():
    with pytest.raises(ParameterError, match=r"unknown estimation algorithm 'qae' \(expected "):
        EstimationOptions(algorithm="qae")
    with pytest.raises(ParameterError, match="canonical | iae | mlae"):
        get_algorithm(["iae"])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("options", "calls", "extra", "schedule"),
    [
        (EstimationOptions(algorithm="canonical", eval_qubits=5), 32, 5, []),
        (EstimationOptions(algorithm="iae", epsilon=0.02), 50, 0, []),
        (EstimationOptions(algorithm="mlae", epsilon=0.05), 20, 0, [0, 1, 2, 4, 8]),
        (EstimationOptions(algorithm="mlae", epsilon=0.4), 2.5, 0, [0, 1]),
    ],
)
def test_what_each_record_says_of_its_options(options, calls, extra, schedule):
    record = options.algorithm_record
    assert record.oracle_calls(options) == pytest.approx(calls)
    assert options.extra_qubits == extra and options.schedule == schedule


def test_every_built_in_sweeps_valid_options():
    for name in algorithm_names():
        record = get_algorithm(name)
        assert len(record.quick_sweep) == 2 and len(record.sweep) >= 2
        for setting in (*record.sweep, *record.quick_sweep):
            EstimationOptions(algorithm=name, **setting)


def test_a_plugin_counts_everywhere(plugins, four_card, capsys):
    plugins(probe=dataclasses.replace(get_algorithm("iae"), name="probe"))
    assert algorithm_names() == ("canonical", "iae", "mlae", "probe")
    task = GameTask(four_card, None, "paper")
    mine = count(task, EstimationOptions(algorithm="probe", epsilon=0.05, seed=4))
    theirs = count(task, EstimationOptions(algorithm="iae", epsilon=0.05, seed=4))
    assert mine.method == "probe"
    assert (mine.estimate, mine.ci, mine.oracle_calls) == (
        theirs.estimate,
        theirs.ci,
        theirs.oracle_calls,
    )
    argv = ["count", FOUR, "--algorithm", "probe", "--epsilon", "0.05", "--seed", "4", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["estimate"] == mine.estimate


def test_without_an_engine_estimator_the_built_circuits_run_on_the_sparse_engine(
    plugins, four_card
):
    plugins(built=dataclasses.replace(get_algorithm("iae"), name="built", engine_estimator=None))
    result = count(
        GameTask(four_card, None, "paper"),
        EstimationOptions(algorithm="built", epsilon=0.1, seed=2),
    )
    assert result.ci[0] - 1e-9 <= float(result.exact) <= result.ci[1] + 1e-9


def _fae_maxiter(options) -> int:
    # the largest Grover power, 2^(maxiter - 1), is about pi / (4 epsilon)
    return max(1, math.ceil(math.log2(math.pi / (4 * options.epsilon))))


def _fae(options, problem, sampler):
    from qiskit_algorithms import FasterAmplitudeEstimation

    return FasterAmplitudeEstimation(
        delta=options.alpha, maxiter=_fae_maxiter(options), sampler=sampler
    )


FAE = EstimationAlgorithm(
    name="fae",
    summary="faster amplitude estimation (Nakaji 2020)",
    estimator=_fae,
    estimate=estimate_with_interval,
    oracle_calls=lambda options: 2 ** (_fae_maxiter(options) - 1),
    sweep=tuple({"epsilon": e} for e in (0.1, 0.05, 0.02)),
    quick_sweep=({"epsilon": 0.1}, {"epsilon": 0.05}),
)
"""The worked example of docs/architecture.md: a new algorithm is one record."""


def test_the_worked_example_counts(plugins, four_card, capsys):
    plugins(fae=FAE)
    argv = ["count", FOUR, "--algorithm", "fae", "--epsilon", "0.1", "--seed", "1", "--json"]
    assert main(argv) == 0
    found = json.loads(capsys.readouterr().out)
    assert found["method"] == "fae" and found["oracle_calls"] > 0
    assert found["ci"][0] - 1e-9 <= 5 / 12 <= found["ci"][1] + 1e-9


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ("not a record", "must be a qcards EstimationAlgorithm called 'broken', not 'not a"),
        (ImportError("no module named probe_plugin"), "failed to load: no module named"),
    ],
)
def test_a_broken_plugin_is_named(plugins, record, message):
    plugins(broken=record)
    with pytest.raises(PluginError, match=f"plugin 'broken' .*{message}"):
        algorithm_names()


def test_a_plugin_cannot_take_a_built_in_name(plugins):
    plugins(iae=dataclasses.replace(get_algorithm("mlae"), name="iae"))
    taken = "'iae' .* taken twice: by qcards' own record and by probe_plugin:IAE"
    with pytest.raises(PluginError, match=taken):
        get_algorithm("iae")


def test_a_plugin_is_called_by_its_entry_point(plugins):
    """A record is registered under its entry point's name, so the two must agree."""
    plugins(probe=dataclasses.replace(get_algorithm("iae"), name="other"))
    with pytest.raises(PluginError, match="plugin 'probe' .*called 'probe', not"):
        algorithm_names()


def test_no_private_attribute_of_qiskit_algorithms_is_read():
    """Where qiskit-algorithms is used, none of its estimators' private attributes is read
    (oracle calls come from the options or the result's ``num_oracle_queries``)."""
    private = re.compile(r"\._(m|evaluation_schedule|epsilon_target|alpha|min_ratio)\b")
    users = [
        p
        for p in sorted((REPO / "qcards").rglob("*.py"))
        if "qiskit_algorithms" in p.read_text(encoding="utf-8")
    ]
    assert any(p.name == "algorithms.py" for p in users)
    offenders = [
        f"{path.relative_to(REPO)}:{number}"
        for path in users
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if private.search(line)
    ]
    assert not offenders, offenders


# ----------------------------------------------------------------------------- MLAE's search


def _mlae_cases(count: int):
    """Random counts of a few schedules, some at 0 or all shots (the boundaries)."""
    import random

    rng = random.Random(11)
    for _ in range(count):
        schedule = [0, 1, 2, 4][: rng.randint(2, 4)]
        extreme = rng.choice([0, 100, None, None])
        ones = [extreme if extreme is not None else rng.randint(0, 100) for _ in schedule]
        yield schedule, [{"1": k, "0": 100 - k} for k in ones]


def test_mlae_estimate_and_likelihood_interval_are_qiskits_own():
    """qcards' MLAE searches the likelihood on the whole grid at once; its estimate and its
    likelihood-ratio interval are bit for bit those of qiskit-algorithms' one-angle-at-a-time
    search (scipy's brute, then fmin; its likelihood-ratio interval)."""
    import numpy as np
    from qiskit import QuantumCircuit
    from qiskit_algorithms import EstimationProblem, MaximumLikelihoodAmplitudeEstimation
    from qiskit_algorithms.amplitude_estimators.mlae import (
        MaximumLikelihoodAmplitudeEstimationResult,
        _likelihood_ratio_confint,
    )

    from qcards.estimation import algorithms

    circuit = QuantumCircuit(1)
    circuit.ry(1.0, 0)
    problem = EstimationProblem(circuit, objective_qubits=[0])
    for schedule, counts in _mlae_cases(6):
        theirs = MaximumLikelihoodAmplitudeEstimation(evaluation_schedule=schedule)
        ours = algorithms._FastMLAE(evaluation_schedule=schedule, sampler=None)
        with np.errstate(divide="ignore", invalid="ignore"):
            theta, good = ours.compute_mle(counts, problem, return_counts=True)
            assert theta == theirs.compute_mle(counts, problem), (schedule, counts)
            result = MaximumLikelihoodAmplitudeEstimationResult()
            result.evaluation_schedule, result.good_counts = schedule, good
            result.shots, result.theta = 100, theta
            result.post_processing = problem.post_processing
            interval = algorithms.likelihood_ratio_interval(result, 0.05)
            assert interval == _likelihood_ratio_confint(result, 0.05), (schedule, counts)

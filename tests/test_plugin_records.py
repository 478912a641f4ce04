"""A third party's evaluation method, play model and objective are one module and one record
each (the ``probe_records`` package in ``tests/plugins_records``, registered by entry points as
``pip install`` would write them).

Each probe is a built-in record under the name ``probe`` (the referee, the heuristic player,
Seeger-Fabian points), so with the plugin on the path ``--method probe``, ``--model probe`` and
``--objective probe`` must work in the library and the CLI and give the built-in's numbers.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from qcards.analysis.decision_plays import runner_for
from qcards.analysis.evaluate import evaluate, recommend
from qcards.analysis.methods.registry import method_names, reload_methods
from qcards.errors import ModelError, ParameterError
from qcards.skat.players import play_models
from qcards.skat.position.spec import load_spec, parse_spec
from qcards.skat.solvers import objectives

from conftest import REPO, spec_text

PLUGINS = REPO / "tests" / "plugins_records"
FOUR = REPO / "qcards" / "specs" / "four-card.toml"


def _forget() -> None:
    reload_methods()
    play_models.registry.cache_clear()
    objectives.registry.cache_clear()


@pytest.fixture
def probes(monkeypatch):
    """The plugin installed for the test (and forgotten after it)."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    _forget()
    yield
    monkeypatch.undo()
    sys.modules.pop("probe_records", None)
    _forget()


@pytest.fixture
def declared():
    return parse_spec(spec_text("declared-tiny"), source="declared-tiny")


def test_the_probes_are_registered_only_with_the_plugin(probes):
    assert "probe" in method_names()
    assert "probe" in play_models.model_names()
    assert "probe" in objectives.objective_names()


def test_without_the_plugin_the_probes_are_unknown():
    _forget()
    spec = load_spec(FOUR)
    with pytest.raises(ParameterError, match="unknown method 'probe'"):
        evaluate(spec, method="probe")
    with pytest.raises(ModelError, match="unknown model 'probe'"):
        evaluate(spec, model="probe")
    with pytest.raises(ParameterError, match="unknown objective 'probe'"):
        objectives.get_objective("probe")


def test_a_probe_method_answers_as_its_record(probes):
    spec = load_spec(FOUR)
    mine, theirs = evaluate(spec, method="probe"), evaluate(spec, method="classical")
    assert mine.method == "probe" and mine.p_win_exact == theirs.p_win_exact
    assert mine.expected_points == theirs.expected_points


def test_a_probe_model_plays_as_its_record(probes, declared):
    mine, theirs = evaluate(declared, model="probe"), evaluate(declared, model="heuristic")
    assert mine.model == "probe" and mine.p_win_exact == theirs.p_win_exact
    # the policy model's kind says which methods answer it: the circuit too
    circuit = evaluate(declared, model="probe", method="sparse")
    assert abs(circuit.p_win - float(theirs.p_win_exact)) < 1e-9


def test_a_minimax_probe_is_computed_as_the_adversarial_model(probes, declared):
    """Every method and the decisions route a model by the kind its record declares: a
    minimax record under another name is answered exactly as the adversarial model."""
    for method in ("auto", "classical", "double-dummy"):
        mine = evaluate(declared, model="probe-minimax", method=method)
        theirs = evaluate(declared, model="adversarial", method=method)
        assert mine.model == "probe-minimax" and mine.method == theirs.method, method
        assert (mine.p_win_exact, mine.expected_points) == (
            theirs.p_win_exact, theirs.expected_points,
        ), method  # fmt: skip
        assert mine.scores == theirs.scores, method
    sampled = evaluate(declared, model="probe-minimax", method="pimc", shots=40, seed=3)
    assert sampled.p_win == evaluate(declared, model="adversarial", shots=40, seed=3).p_win
    mine_runner = runner_for("probe-minimax")
    assert mine_runner.adversarial and mine_runner.method == "double-dummy"
    theirs_runner = runner_for("adversarial")
    assert mine_runner.play(declared) == theirs_runner.play(declared)


def test_a_probe_objective_is_reported_and_ranks(probes, declared):
    report = evaluate(declared).to_json()
    assert report["expected_probe_exact"] == report["expected_seeger_fabian_exact"]
    mine = [card for card, _ in recommend(declared, objective="probe")]
    theirs = [card for card, _ in recommend(declared, objective="seeger-fabian")]
    assert mine == theirs


def test_the_cli_takes_all_three_probes(tmp_path, declared):
    spec = tmp_path / "declared.toml"
    spec.write_text(spec_text("declared-tiny"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(PLUGINS), str(REPO)])}
    argv = ["recommend", str(spec), "--model", "probe", "--method", "probe", "--objective",
            "probe", "--json"]  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from qcards.cli import main; sys.exit(main())", *argv],
        env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    record = json.loads(done.stdout)
    card = record["cards"][0]
    assert record["model"] == "probe" and card["method"] == "probe", record
    assert card["expected_probe_exact"] == card["expected_seeger_fabian_exact"], record

"""A third-party construction is one module and one entry point (the ``probe`` package).

``tests/plugins`` holds a package whose only content is
``PROBE = dataclasses.replace(get_construction("efficient"), name="probe")`` and the
``qcards.constructions`` entry point naming it (as ``pip install`` would write them). With that
directory on the path, ``--construction probe`` must work everywhere -- evaluate, recommend,
run, count, resources, export and plots, listed in the CLI's choices and help -- and pass the
checks the efficient construction passes: the referee's stage distributions on the test specs,
resources and export.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from qcards.analysis.resources import count_resources
from qcards.circuits.construction import (
    construction_names,
    get_construction,
    reload_constructions,
)
from qcards.circuits.decode import decode_distribution
from qcards.circuits.game import build_game
from qcards.errors import ParameterError
from qcards.execution.exact import exact_stage_probabilities
from qcards.paper.examples import CA, FOUR_CARD, SIX_CARD
from qcards.paper.export import export_spec
from qcards.skat.solvers.plain_referee import stage_distributions

from conftest import REPO, breadth, generated_specs, random_spec

PLUGINS = REPO / "tests" / "plugins"
SIX = str(REPO / "qcards" / "specs" / "six-card.toml")
TOL = 1e-9


@pytest.fixture
def probe(monkeypatch):
    """The probe plugin installed for the test (and forgotten after it)."""
    monkeypatch.syspath_prepend(str(PLUGINS))
    reload_constructions()
    yield get_construction("probe")
    monkeypatch.undo()
    sys.modules.pop("probe_construction", None)
    reload_constructions()


def test_probe_is_registered_only_with_the_plugin_installed(probe):
    assert "probe" in construction_names()
    assert probe.name == "probe" and probe.play is get_construction("efficient").play


def test_without_the_plugin_probe_is_unknown():
    reload_constructions()
    assert "probe" not in construction_names()
    with pytest.raises(ParameterError, match="unknown construction 'probe'.*efficient"):
        get_construction("probe")


def _assert_stages_match_referee(spec, first, construction) -> None:
    game = build_game(spec, first, construction=construction)
    exact = exact_stage_probabilities(game, method="ddsim")
    referee = dict(stage_distributions(spec, first))
    assert set(exact) == set(referee)
    for stage, probs in exact.items():
        circuit = decode_distribution(game, stage, probs)
        assert {s for s, p in circuit.items() if p > TOL} == set(referee[stage]), stage.name
        for snap, p in referee[stage].items():
            assert abs(circuit[snap] - float(p)) < TOL, (stage.name, snap)


SPECS = [("four", FOUR_CARD.spec(), None), ("six-CA", SIX_CARD.spec(), CA)]
SPECS += [(f"gen{k}", random_spec(*p), None) for k, p in enumerate(generated_specs()[::9])]
SPECS += [(f"skat{k}", random_spec(*p), None) for k, p in enumerate(generated_specs(skat=True)[:3])]


@pytest.mark.parametrize("name,spec,first", SPECS, ids=[s[0] for s in SPECS])
def test_probe_stage_histograms_equal_the_referee(probe, name, spec, first):
    _assert_stages_match_referee(spec, first, probe)


def test_probe_resources_are_the_efficient_counts(probe):
    assert count_resources(2, "probe").stages == count_resources(2, "efficient").stages
    assert count_resources(2, "probe").construction == "probe"


def test_probe_export_writes_the_efficient_circuit(probe, tmp_path):
    (probe_file,) = export_spec(SIX_CARD.spec(), tmp_path, CA, "probe", ("qasm3",))
    (efficient_file,) = export_spec(SIX_CARD.spec(), tmp_path, CA, "efficient", ("qasm3",))
    assert probe_file.name == "six-card-CA-probe.qasm"
    body = probe_file.read_text().replace("six_card_CA_probe", "NAME")
    assert body == efficient_file.read_text().replace("six_card_CA_efficient", "NAME")


def _cli(*argv: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(PLUGINS)}
    return subprocess.run(
        [sys.executable, "-c", "import sys; from qcards.cli import main; sys.exit(main())", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=600,
    )


@pytest.mark.parametrize(
    "argv",
    breadth(
        [
            ["evaluate", SIX, "--method", "sparse", "--json"],
            ["recommend", SIX, "--method", "sparse", "--json"],
            ["declare", SIX, "--json"],
            ["run", SIX, "--backend", "sparse", "--json", "--plot", "run.png"],
            ["count", SIX, "--json", "--seed", "1", "--epsilon", "0.2"],
            ["resources", "--cards-per-player", "1", "--json"],
            ["export", SIX, "--first", "CA", "--format", "qasm3", "--out", "out", "--json"],
        ],
        [
            ["evaluate", SIX, "--method", "sparse", "--json"],
            ["count", SIX, "--json", "--seed", "1", "--epsilon", "0.2"],
        ],
    ),
    ids=lambda a: a[0],
)
def test_probe_works_in_every_command(argv, tmp_path):
    done = _cli(*argv, "--construction", "probe", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)  # the command's JSON, not an error line
    if argv[0] == "run":
        assert (tmp_path / "run.png").stat().st_size > 0
    if argv[0] == "export":
        assert (tmp_path / "out" / "six-card-CA-probe.qasm").exists()


@pytest.mark.parametrize(
    "command", ["evaluate", "recommend", "run", "count", "resources", "export"]
)
def test_cli_choices_and_help_list_the_plugin(command, tmp_path):
    done = _cli(command, "--help", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "probe" in done.stdout

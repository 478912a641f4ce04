"""``qcards run``: sampled p_win on every local backend, within a stated tolerance."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.execution.backends import LOCAL_BACKENDS
from qcards.execution.run import run
from qcards.paper.examples import FOUR_CARD

FOUR = str(Path(__file__).resolve().parents[1] / "qcards" / "specs" / "four-card.toml")
P_WIN = 5 / 12  # the referee's exact value for the four-card example


@pytest.mark.parametrize("backend", LOCAL_BACKENDS)
def test_run_samples_the_referee(backend):
    shots = 2000
    report = run(GameTask(FOUR_CARD.spec(), construction="paper"), backend, shots=shots, seed=5)
    sigma = (P_WIN * (1 - P_WIN) / shots) ** 0.5
    assert abs(report.p_win - P_WIN) < 5 * sigma  # seed fixed; 5 sigma
    assert sum(report.counts.values()) == shots
    assert report.transpiled.num_qubits == 15 and report.transpiled.two_qubit_gates > 0


def test_run_reports_size_before_running():
    seen = []
    # the paper's 15-qubit circuit: the efficient one's 25 qubits took Aer 40-50 s to run
    task = GameTask(FOUR_CARD.spec(), None, "paper")
    run(task, "aer", shots=10, seed=1, on_transpiled=seen.append)
    assert len(seen) == 1 and seen[0].depth > 0


def test_run_json_and_plot(capsys, tmp_path):
    plot = tmp_path / "hist.png"
    argv = ["run", FOUR, "--backend", "ddsim", "--shots", "200", "--seed", "2"]
    assert main([*argv, "--plot", str(plot), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {
        "backend",
        "shots",
        "counts",
        "p_win",
        "transpiled",
        "p_win_raw",
        "ci",
        "kept_fraction",
        "mitigation",
        "extrapolation",
        "construction",
        "two_qubit_gates",
        "depth",
        "sampling",
        "points",
    }
    assert data["mitigation"] == "none" and data["p_win"] == data["p_win_raw"]
    assert data["extrapolation"] is None  # zne only
    assert data["ci"][0] <= data["p_win"] <= data["ci"][1] and data["kept_fraction"] == 1.0
    assert set(data["transpiled"]) == {"two_qubit_gates", "depth", "num_qubits"}
    assert plot.stat().st_size > 0


@pytest.mark.usefixtures("offline_ibm")  # ibm: without credentials
@pytest.mark.parametrize("backend", ["fake:FakeNowhere", "fake:torino", "ibm:ibm_torino", "magic"])
def test_run_refuses_unavailable_backends(capsys, backend):
    assert main(["run", FOUR, "--backend", backend]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")

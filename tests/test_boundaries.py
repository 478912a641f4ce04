"""Amplitude estimation at the boundaries (issue 21): p = 0 and 1, and within 1e-7 of them,
answer with an interval that holds the true value; the specs that once hung answer."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import pytest
from qiskit import QuantumCircuit
from qiskit_algorithms import EstimationProblem

from qcards.estimation.amplitude import estimate_amplitude
from qcards.estimation.options import EstimationOptions
from qcards.execution.sampling import default_sampler

from conftest import TINY, breadth, spec_text

BOUNDARIES = (0.0, 1e-7, 1 - 1e-7, 1.0)

HANG_GUARD = 300
"""Seconds after which a subprocess counts as hung (a guard against hangs, not a timing)."""


def problem(p: float) -> EstimationProblem:
    """One qubit rotated so that it reads 1 with probability ``p``."""
    qc = QuantumCircuit(1)
    qc.ry(2 * math.asin(math.sqrt(p)), 0)
    return EstimationProblem(qc, objective_qubits=[0])


def estimate(p: float, algorithm: str):
    options = EstimationOptions(algorithm, seed=1)
    return estimate_amplitude(problem(p), options, default_sampler("sparse", 100, 1))


@pytest.mark.parametrize("algorithm", ["iae", "canonical"])
@pytest.mark.parametrize("p", BOUNDARIES)
def test_interval_holds_a_boundary_value(p, algorithm):
    found = estimate(p, algorithm)
    low, high = found.ci
    assert 0 <= low <= p <= high <= 1
    assert abs(found.estimate - p) <= high - low


@pytest.mark.slow
@pytest.mark.parametrize("p", BOUNDARIES)
def test_mlae_interval_is_not_a_point_at_the_boundary(p):
    """MLAE's Fisher interval shrinks to a point where a(1-a) = 0 and missed p = 1e-7; the
    likelihood-ratio interval replaces it there."""
    found = estimate(p, "mlae")
    low, high = found.ci
    assert low <= p <= high and high - low > 0


SURE_WIN_SPECS = {
    "grand-three-players-skat.toml": spec_text("sure-win-grand-three-players-skat"),
    "four-players.toml": spec_text("sure-win-four-players"),
    "sure-loss.toml": TINY.replace("declarer_points = 40", "declarer_points = 0"),
}
"""The fuzzing finds that hung past 120 s (p_win exactly 1, a skat receiver), and p_win 0."""


def qcards(*argv: str) -> subprocess.CompletedProcess:
    code = "import sys; from qcards.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=HANG_GUARD
    )


@pytest.mark.parametrize("name", breadth(sorted(SURE_WIN_SPECS), ["sure-loss.toml"]))
def test_count_answers_on_certain_outcomes(tmp_path, name):
    path = tmp_path / name
    path.write_text(SURE_WIN_SPECS[name])
    done = qcards("count", str(path), "--algorithm", "iae", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["exact"] in (0.0, 1.0)
    low, high = data["ci"]
    assert low <= data["exact"] <= high


def test_run_on_aer_answers_for_two_players_with_a_skat(tmp_path):
    path = tmp_path / "two-skat.toml"
    path.write_text(
        'players = ["A", "B"]\ntrump = "hearts"\ndeclarer_points = 40\ntarget = 61\n'
        '[hands]\nA = ["CA", "HK"]\n[unknown]\ncards = ["C7", "HA", "D10", "S8"]\n'
        "sizes = { B = 2, skat = 2 }\n"
    )
    done = qcards("run", str(path), "--backend", "aer", "--shots", "200", "--seed", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert sum(json.loads(done.stdout)["counts"].values()) == 200

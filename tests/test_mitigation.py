"""Detection and mitigation (issue 17): each switch changes a noisy run and leaves a noiseless
one alone."""

from __future__ import annotations

import json

import numpy as np
import pytest

from qcards.circuits.task import GameTask
from qcards.cli import main
from qcards.errors import ParameterError
from qcards.execution.mitigation import (
    MITIGATIONS,
    ZNE_SCALES,
    Mitigation,
    ReadoutCorrection,
    Verdicts,
    assignment_matrices,
    win_probability,
)
from qcards.execution.run import run
from qcards.paper.examples import FOUR_CARD
from qcards.skat.solvers.plain_referee import stage_distributions

from conftest import breadth

FOUR = "qcards/specs/four-card.toml"
EXACT = 5 / 12


def test_parse_names_the_parameter():
    assert Mitigation.parse("all") == Mitigation("all", True, True, True)
    assert Mitigation.parse("detect").scales == (1.0,)
    with pytest.raises(ParameterError) as err:
        Mitigation.parse("magic")
    assert err.value.parameter == "mitigate"


def test_readout_correction_undoes_a_known_assignment_error():
    # bit 0 reads 1 with probability 0.1 when it is 0; bit 1 is perfect
    zeros = {0b00: 900, 0b01: 100}
    ones = {0b11: 1000}
    matrices = assignment_matrices(zeros, ones, 2)
    assert np.allclose(matrices[0], [[0.9, 0.0], [0.1, 1.0]])
    assert np.allclose(matrices[1], np.eye(2))
    corrected = ReadoutCorrection(matrices)({0b10: 450, 0b11: 50, 0b00: 500})
    assert abs(corrected.get(0b10, 0) - 0.5) < 1e-3 and abs(corrected.get(0b00, 0) - 0.5) < 1e-3


def test_zne_of_equal_runs_is_the_runs_value():
    spec = FOUR_CARD.spec()
    task = GameTask(spec, None, "paper")
    game = task.build()
    layout = game.layout
    final = dict(stage_distributions(spec))[game.stages[-1]]
    counts = {layout.encode(snap): int(p * 1200) for snap, p in final.items()}
    verdicts = Verdicts(spec, game)
    for name in MITIGATIONS:
        mitigation = Mitigation.parse(name)
        runs = [counts] * len(mitigation.scales)
        correct = (
            ReadoutCorrection([np.eye(2)] * len(layout.measured)) if mitigation.readout else None
        )
        found = win_probability(verdicts, runs, mitigation, correct)
        assert abs(found.p_win - EXACT) < 1e-6 and abs(found.kept_fraction - 1) < 1e-9, name
        assert (found.extrapolation is not None) == mitigation.zne


def test_zne_with_detection_fits_only_scales_that_kept_enough_shots():
    """A folded run that keeps fewer than MIN_KEPT_SHOTS consistent shots (or none) stays out
    of the fit; with one usable scale left nothing is extrapolated."""
    spec = FOUR_CARD.spec()
    game = GameTask(spec, None, "paper").build()
    verdicts = Verdicts(spec, game)
    final = dict(stage_distributions(spec))[game.stages[-1]]
    win = next(game.layout.encode(s) for s in final if s.declarer_won(spec))
    loss = next(game.layout.encode(s) for s in final if not s.declarer_won(spec))
    junk = next(o for o in range(1 << len(game.layout.measured)) if not verdicts[o][2])
    scale1 = {win: 40, loss: 60, junk: 900}
    few = {win: 10, loss: 5, junk: 985}  # 15 kept shots: below the floor
    none_kept = {junk: 1000}
    detect_zne = Mitigation("x", detect=True, readout=False, zne=True)
    found = win_probability(verdicts, [scale1, few, none_kept], detect_zne, None)
    assert found.p_win == pytest.approx(0.4) and found.kept_fraction == pytest.approx(0.1)
    assert found.extrapolation.used == (1.0,) and found.extrapolation.values[2] is None
    assert found.extrapolation.to_json()["extrapolated"] is False
    enough = {win: 60, loss: 140, junk: 800}  # 200 kept: p = 0.3 at scale 3
    found = win_probability(verdicts, [scale1, enough, none_kept], detect_zne, None)
    assert found.extrapolation.used == (1.0, 3.0)
    assert found.p_win == pytest.approx(0.45)  # the line through (1, 0.4) and (3, 0.3) at 0
    # without detection every scale has all its shots and enters the fit
    plain = win_probability(verdicts, [scale1, few, none_kept], Mitigation.parse("zne"), None)
    assert plain.extrapolation.used == ZNE_SCALES


@pytest.mark.parametrize("name", breadth(MITIGATIONS, MITIGATIONS[:2]))
def test_noiseless_run_is_unchanged_by_each_switch(name):
    """On a noiseless target: detection keeps every shot, the readout calibration is the
    identity, and zne extrapolates three samples of one distribution (seeded; the stated
    tolerance 0.06 is about four standard deviations of the extrapolated value)."""
    task = GameTask(FOUR_CARD.spec(), None, "hardware")
    plain = run(task, "aer", 2000, seed=3)
    report = run(task, "aer", 2000, seed=3, mitigate=name)
    assert report.p_win_raw == plain.p_win
    assert report.kept_fraction == 1.0
    if name in ("none", "detect", "readout"):
        assert abs(report.p_win - plain.p_win) < 1e-9
    else:
        assert abs(report.p_win - EXACT) < 0.06
    assert report.ci[0] <= report.p_win <= report.ci[1]


@pytest.mark.slow
def test_each_switch_changes_a_noisy_run():
    task = GameTask(FOUR_CARD.spec(), None, "hardware")
    reports = {
        name: run(task, "fake:FakeTorino", 200, seed=1, mitigate=name) for name in MITIGATIONS
    }
    raw = reports["none"].p_win
    assert all(r.p_win_raw == raw for r in reports.values())
    for name in ("detect", "readout", "zne", "all"):
        assert abs(reports[name].p_win - raw) > 1e-6, name
    assert reports["detect"].kept_fraction < 0.5  # noise leaves most shots inconsistent
    assert reports["readout"].kept_fraction == 1.0


@pytest.mark.slow
def test_cli_mitigate_all_on_a_fake_device(capsys):
    argv = ["run", FOUR, "--backend", "fake:FakeTorino", "--construction", "hardware"]
    argv += ["--mitigate", "all", "--shots", "200", "--seed", "1", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("p_win_raw", "p_win", "ci", "kept_fraction", "two_qubit_gates", "depth"):
        assert key in data
    assert data["mitigation"] == "all" and data["two_qubit_gates"] <= 600
    assert 0 < data["kept_fraction"] < 1 and data["ci"][0] <= data["p_win"] <= data["ci"][1]


def test_run_defaults_to_the_hardware_construction_on_devices(monkeypatch):
    from types import SimpleNamespace

    from qcards.circuits.syntheses import hardware
    from qcards.cli.run import default_construction

    spec = FOUR_CARD.spec()
    device = SimpleNamespace(backend="fake:FakeTorino", json=True)
    assert default_construction(spec, None, device) == "hardware"
    assert default_construction(spec, None, SimpleNamespace(backend="aer", json=True)) == "paper"
    monkeypatch.setattr(hardware, "HARDWARE_MAX_STATES", 5)  # too large for it: paper
    assert default_construction(spec, None, device) == "paper"


def test_kept_shots_are_shots_after_the_readout_correction():
    """The readout correction gives quasi-probabilities; the floor is still counted in shots."""
    spec = FOUR_CARD.spec()
    game = GameTask(spec, None, "paper").build()
    verdicts = Verdicts(spec, game)
    final = dict(stage_distributions(spec))[game.stages[-1]]
    outcome = game.layout.encode(next(iter(final)))
    runs = [{outcome: 500}] * len(ZNE_SCALES)
    correct = ReadoutCorrection([np.eye(2)] * len(game.layout.measured))
    found = win_probability(verdicts, runs, Mitigation.parse("all"), correct)
    assert found.extrapolation.kept_shots == pytest.approx((500.0,) * len(ZNE_SCALES))


def test_zne_is_dropped_when_its_variance_outweighs_the_bias_it_removes():
    """The rule, on bootstrap values: the fit is kept when its variance is at most the plain
    estimate's variance plus the squared bias its shift shows (the squared shift less the
    shift's own variance), dropped otherwise."""
    from qcards.execution.mitigation import zne_pays

    rng = np.random.default_rng(0)
    plain = rng.normal(0.40, 0.01, 400)
    noisy_fit = rng.normal(0.45, 0.10, 400)  # variance 1e-2 > 1e-4 + (0.05**2 - 1e-2)+
    steady_fit = rng.normal(0.45, 0.02, 400)  # variance 4e-4 < 1e-4 + 0.05**2 - 5e-4
    pays, reason, _ = zne_pays(0.45, 0.40, np.stack([noisy_fit, plain], axis=1))
    assert not pays and "exceeds" in reason
    pays, reason, numbers = zne_pays(0.45, 0.40, np.stack([steady_fit, plain], axis=1))
    assert pays and "within" in reason
    assert numbers["bias2"] == pytest.approx(0.05**2 - numbers["var_shift"])


def test_a_shift_within_its_own_noise_is_not_counted_as_bias():
    """A fit 0.05 off the plain estimate whose shift has a standard deviation of 0.04: crediting
    the whole squared shift (0.0025) as bias removed would keep it (its variance, about
    0.0017, is below 1e-4 + 0.0025); the bias the shift shows is 0.0025 - 0.0016, and the fit
    is dropped."""
    from qcards.execution.mitigation import zne_pays

    rng = np.random.default_rng(1)
    plain = rng.normal(0.40, 0.01, 2000)
    fit = plain + rng.normal(0.05, 0.04, 2000)
    pays, _, numbers = zne_pays(0.45, 0.40, np.stack([fit, plain], axis=1))
    assert numbers["var_fit"] <= numbers["var_plain"] + numbers["shift"] ** 2  # the old rule
    assert not pays


@pytest.mark.parametrize("name", ["zne", "all"])
@pytest.mark.parametrize(
    ("rates", "folded_shots", "kept"),
    [
        ((0.30, 0.35, 0.25), 30, False),
        ((0.30, 0.35, 0.25), 40, False),
        ((0.30, 0.20, 0.10), 200, True),
    ],
    ids=["noise-30", "noise-40", "trend-200"],
)
def test_the_fit_is_dropped_or_kept_by_the_bootstrap(name, rates, folded_shots, kept):
    """Synthetic runs: 200 shots at scale 1 and ``folded_shots`` at scales 3 and 5.

    - Win rates 0.30, 0.35, 0.25 (no trend, noise), 30 or 40 shots at the folded scales (with
      detection, 30 kept shots is the least a scale needs to enter the fit): the fit is
      dropped, the report says why, and p_win and its interval are the unextrapolated ones.
      With 40 shots the raw squared shift (0.0014) would have kept it: its variance 0.0019 is
      below 0.0009 + 0.0014, but the shift's own variance (0.0012) leaves 0.0002 of bias.
    - Win rates 0.30, 0.20, 0.10 with 200 shots each (a steady decay): the line's 0.35 is kept.

    ``all`` (detection and readout correction too, here with every shot a game state and a
    perfect readout calibration) decides the same way."""
    from qcards.execution.mitigation import mitigated_report

    spec = FOUR_CARD.spec()
    game = GameTask(spec, None, "paper").build()
    layout = game.layout
    final = dict(stage_distributions(spec))[game.stages[-1]]
    won = [layout.encode(s) for s in final if s.declarer_won(spec)]
    lost = [layout.encode(s) for s in final if not s.declarer_won(spec)]

    def run(p_win, shots=200):
        wins = round(p_win * shots)
        return {won[0]: wins, lost[0]: shots - wins}

    everything = name == "all"
    mitigation = Mitigation(name, everything, everything, True)
    runs = [run(rates[0]), run(rates[1], folded_shots), run(rates[2], folded_shots)]
    if everything:  # the readout calibration: all zeros, then all ones, read perfectly
        runs += [{0: 1000}, {(1 << len(layout.measured)) - 1: 1000}]
    report = mitigated_report(spec, game, "test", None, runs, mitigation, seed=1)
    zne = report.extrapolation
    assert zne["extrapolated"] and zne["used"] == [1.0, 3.0, 5.0]
    low, high = report.ci
    if kept:
        assert not zne["dropped"] and "within" in zne["reason"]
        assert report.p_win == pytest.approx(zne["p_win_extrapolated"]) == pytest.approx(0.35)
        assert low < report.p_win < high
    else:
        assert zne["dropped"] and "exceeds" in zne["reason"]
        assert report.p_win == pytest.approx(0.30)
        assert low < 0.30 < high and high - low < 0.2
    if folded_shots == 40:  # kept by the raw squared shift, dropped by the bias it shows
        assert zne["var_fit"] <= zne["var_plain"] + zne["shift"] ** 2


def test_one_kept_shot_gets_an_honest_interval_not_a_point():
    """Detection that keeps a single (losing) shot: the bootstrap alone said [0, 0] (every
    resample of one losing shot loses); the interval now covers Wilson's, [0, 0.79]."""
    from qcards.execution.mitigation import at_least_wilson, mitigated_report

    spec = FOUR_CARD.spec()
    game = GameTask(spec, None, "paper").build()
    verdicts = Verdicts(spec, game)
    final = dict(stage_distributions(spec))[game.stages[-1]]
    lost = next(game.layout.encode(s) for s in final if not s.declarer_won(spec))
    broken = next(o for o in range(1, 1 << 20) if not verdicts[o][2])
    runs = [{lost: 1, broken: 999}]
    report = mitigated_report(
        spec, game, "test", None, runs, Mitigation("detect", True, False, False), 1
    )
    assert report.p_win == 0.0 and report.kept_fraction == pytest.approx(0.001)
    low, high = report.ci
    assert low == 0.0 and high > 0.7
    assert at_least_wilson((0.4, 0.5), 0.45, 0) == (0.0, 1.0)  # nothing kept: no information
    assert at_least_wilson((0.1, 0.9), 0.5, 10_000) == (0.1, 0.9)  # never narrowed

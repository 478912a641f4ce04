"""The studies behind qcards' own figures, their plots, and the gallery's files."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from qcards.analysis.estimation_error import (
    ErrorPoint,
    ErrorStudy,
    estimation_error,
    fit_slope,
    sampling_estimate,
)
from qcards.analysis.growth import resource_growth
from qcards.analysis.hardware_fit import device_errors, hardware_fit
from qcards.analysis.resources import count_resources
from qcards.errors import ModelError
from qcards.paper import gallery
from qcards.skat.solvers.plain_referee import evaluate
from qcards.viz.plots import estimation_error_figure, resource_growth_figure

TINY_SETTINGS = {
    "canonical": ({"eval_qubits": 2},),
    "iae": ({"epsilon": 0.2},),
    "sampling": ({"shots": 50}, {"shots": 200}),
}


def test_fit_slope_recovers_power_laws_and_skips_calls_of_zero():
    calls = [10, 100, 1000]
    assert fit_slope(calls, [c**-1 for c in calls]) == pytest.approx(-1)
    assert fit_slope([0, *calls], [5.0, *(c**-0.5 for c in calls)]) == pytest.approx(-0.5)
    assert math.isnan(fit_slope([0, 10], [0.1, 0.01]))


def test_resource_growth_rows_are_the_resource_counts():
    rows = resource_growth([1, 2])
    assert [r.cards_per_player for r in rows] == [1, 2]
    assert rows[1].paper == count_resources(2, "paper")
    assert rows[1].efficient == count_resources(2, "efficient")
    assert rows[1].ratio == rows[1].paper.stages["game"].cx / rows[1].efficient.stages["game"].cx
    assert json.loads(json.dumps(rows[0].to_json()))["cards_per_player"] == 1


def test_estimation_error_measures_against_the_referee(skat_one_trick):
    study = estimation_error("one", skat_one_trick, None, TINY_SETTINGS, seeds=2)
    exact = evaluate(skat_one_trick, "random").p_win
    assert study.exact == exact
    assert [(p.method, p.setting) for p in study.points] == [
        (m, s) for m, options in TINY_SETTINGS.items() for s in options
    ]
    assert study.seeds == {"canonical": 2, "iae": 2, "sampling": 2}
    sampling = study.method_points("sampling")
    assert [p.oracle_calls for p in sampling] == [50, 200]
    # the median of two seeds is their mean; the sampler is seeded, so it can be recomputed
    errors = [abs(sampling_estimate(skat_one_trick, None, 200, s) - float(exact)) for s in (1, 2)]
    assert sampling[1].error == pytest.approx(sum(errors) / 2)
    assert set(study.slopes) == set(TINY_SETTINGS)
    assert json.loads(json.dumps(study.to_json()))["exact"] == str(exact)


def test_seeds_can_differ_per_method(skat_one_trick):
    settings = {"sampling": ({"shots": 20},)}
    study = estimation_error("one", skat_one_trick, None, settings, seeds={"sampling": 5})
    assert study.seeds == {"sampling": 5}


def test_figures_draw_one_line_per_construction_and_method():
    rows = resource_growth([1, 2])
    fig = resource_growth_figure(rows)
    cx_axis, qubit_axis = fig.axes
    assert len(qubit_axis.get_lines()) == 2
    assert cx_axis.get_yscale() == "log"
    points = (ErrorPoint("iae", {}, 100, 0.1, 0.0), ErrorPoint("iae", {}, 1000, 0.01, 0.0))
    study = ErrorStudy("x", Fraction(1, 3), points, {"iae": 1}, "ddsim")
    fig = estimation_error_figure([study, study])
    assert len(fig.axes) == 2
    assert "slope -1.00" in fig.axes[0].get_legend().get_texts()[0].get_text()


def test_new_figures_and_index_are_written(tmp_path, monkeypatch):
    monkeypatch.setattr(gallery, "MAX_CARDS_PER_PLAYER", 2)
    monkeypatch.setattr(gallery, "GALLERY_SETTINGS", {"sampling": ({"shots": 50},)})
    figures = gallery.write_new_figures(tmp_path, seeds=1)
    assert [f["file"] for f in figures] == ["resources-growth.png", "estimation-error.png"]
    for name in ("resources-growth", "estimation-error"):
        assert (tmp_path / f"{name}.png").stat().st_size > 0
        json.loads((tmp_path / f"{name}.json").read_text())
    assert "N = 2" in figures[0]["caption"]
    index = gallery.write_index(tmp_path, figures).read_text()
    assert "![](resources-growth.png)" in index and figures[1]["caption"] in index


def test_device_errors_are_medians_of_the_target():
    errors = device_errors("FakeTorino")
    assert errors.two_qubit_gate == "cz" and errors.num_qubits == 133
    assert 0 < errors.one_qubit_error < errors.two_qubit_error < errors.readout_error < 1
    share = errors.error_free_share(10, 20, 3)
    expected = (
        (1 - errors.two_qubit_error) ** 10
        * (1 - errors.one_qubit_error) ** 20
        * (1 - errors.readout_error) ** 3
    )
    assert share == pytest.approx(expected) and errors.error_free_share(0) == 1


def test_hardware_fit_transpiles_each_stage_for_the_device(four_card):
    errors, fits = hardware_fit(four_card, "FakeTorino", stages=["deal", "trick 2 taken"])
    assert [f.stage for f in fits] == ["deal", "trick 2 taken"]
    deal, end = fits
    assert 0 < deal.two_qubit_gates < end.two_qubit_gates
    assert deal.measured == end.measured == 14  # the outcome register of the four-card game
    assert end.error_free_share == errors.error_free_share(
        end.two_qubit_gates, end.one_qubit_gates, end.measured
    )
    with pytest.raises(ModelError, match="unknown stage 'river'.*deal"):
        hardware_fit(four_card, "FakeTorino", stages=["river"])

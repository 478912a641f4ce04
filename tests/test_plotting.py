"""Histograms with decoded labels: figures in memory and PNG files."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from qcards.viz.plots import comparison_figure, histogram_figure, save_comparison, save_histogram


def _bars(fig: Figure) -> list[tuple[int, float]]:
    """(label index, height) of every drawn bar; Qiskit draws no bar for a zero value."""
    return [(round(patch.get_x()), patch.get_height()) for patch in fig.axes[0].patches]


def _tick_labels(fig: Figure) -> list[str]:
    return [t.get_text() for t in fig.axes[0].get_xticklabels()]


def test_histogram_figure_one_bar_per_label_sorted():
    fig = histogram_figure({"b": 3, "a": 5}, "counts")
    assert _tick_labels(fig) == ["a", "b"]
    assert _bars(fig) == [(0, 5), (1, 3)]
    assert fig.axes[0].get_title() == "counts"
    plt.close(fig)


def test_comparison_figure_fills_missing_labels_with_zero():
    exact = {"x": 0.5, "y": 0.5}
    sampled = {"x": 0.25, "y": 0.5, "z": 0.25}
    fig = comparison_figure({"exact": exact, "sampled": sampled}, "exact vs sampled")
    assert _tick_labels(fig) == ["x", "y", "z"]
    # the distributions in the order given; "z" is 0 for "exact" (no bar drawn)
    assert _bars(fig) == [(0, 0.5), (1, 0.5), (0, 0.25), (1, 0.5), (2, 0.25)]
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["exact", "sampled"]
    assert fig.axes[0].get_ylabel() == "Probability"
    plt.close(fig)


def test_save_functions_write_png(tmp_path):
    png = save_histogram({"a": 1}, tmp_path / "sub" / "h.png", "h")
    assert png.read_bytes()[:4] == b"\x89PNG"
    png = save_comparison({"p": {"a": 1.0}, "q": {"b": 1.0}}, tmp_path / "c.png", "c")
    assert png.read_bytes()[:4] == b"\x89PNG"

"""Measurement histograms with decoded labels (the paper's Figs. 4-14)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

import matplotlib

if "ipykernel" not in sys.modules:
    # The CLI only writes files; inside Jupyter the inline backend stays so figures show.
    matplotlib.use("Agg")

from matplotlib.figure import Figure  # noqa: E402
from qiskit.visualization import plot_histogram  # noqa: E402


def histogram_figure(counts: Mapping[str, int], title: str) -> Figure:
    """Bar chart of ``counts`` keyed by decoded labels (Qiskit's histogram, sorted by label)."""
    fig = plot_histogram(dict(counts), title=title, figsize=(max(6, 0.45 * len(counts) + 3), 5))
    fig.tight_layout()
    return fig


def save_histogram(counts: Mapping[str, int], path: str | Path, title: str) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig = histogram_figure(counts, title)
    fig.savefig(path, dpi=110)
    matplotlib.pyplot.close(fig)
    return path


def comparison_figure(distributions: Mapping[str, Mapping[str, float]], title: str) -> Figure:
    """Side-by-side bars of several distributions over decoded labels (e.g. exact vs sampled).

    ``distributions`` maps a legend entry to probabilities by label; labels missing from one
    distribution count as 0 there. The labels are sorted; one bar group per label, one bar per
    distribution in the order given (Qiskit draws no bar for a 0).
    """
    labels = sorted({label for dist in distributions.values() for label in dist})
    data = [{label: float(d.get(label, 0)) for label in labels} for d in distributions.values()]
    fig = plot_histogram(
        data,
        legend=list(distributions),
        title=title,
        figsize=(max(7, 0.5 * len(labels) + 3), 5.5),
        bar_labels=False,
    )
    fig.axes[0].set_ylabel("Probability")  # Qiskit says "Quasi-probability" for floats
    fig.tight_layout()
    return fig


def save_comparison(
    distributions: Mapping[str, Mapping[str, float]], path: str | Path, title: str
) -> Path:
    """Write :func:`comparison_figure` of ``distributions`` to ``path`` (PNG)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig = comparison_figure(distributions, title)
    fig.savefig(path, dpi=110)
    matplotlib.pyplot.close(fig)
    return path

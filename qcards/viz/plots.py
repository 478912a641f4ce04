"""Figures: measurement histograms with decoded labels (the paper's Figs. 4-14), comparisons of
distributions, and qcards' own studies (resource growth, estimation error vs oracle calls)."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import matplotlib

if "ipykernel" not in sys.modules:
    # The CLI only writes files; inside Jupyter the inline backend stays so figures show.
    matplotlib.use("Agg")

import matplotlib.pyplot  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from qiskit.visualization import plot_histogram  # noqa: E402

from qcards.files import save_figure  # noqa: E402

if TYPE_CHECKING:
    from qcards.analysis.estimation_error import ErrorStudy
    from qcards.analysis.growth import GrowthRow


def show_figures_in_jupyter(shell=None) -> bool:
    """Let a Jupyter kernel show a returned :class:`~matplotlib.figure.Figure` as a PNG.

    The figures here are built outside pyplot (so scripts never pile them up), and IPython's
    inline backend registers its PNG formatter only once pyplot has drawn a figure: until then
    a notebook cell ending in one of them shows ``<Figure size 1100x450 with 2 Axes>``. Called
    on import inside a kernel; ``shell`` defaults to the running IPython shell. True when the
    formatter was registered.
    """
    try:
        from IPython import get_ipython
        from IPython.core.pylabtools import print_figure
    except ImportError:  # pragma: no cover - ipykernel brings IPython
        return False
    shell = shell if shell is not None else get_ipython()
    if shell is None or not hasattr(shell, "display_formatter"):
        return False
    png = shell.display_formatter.formatters["image/png"]
    png.for_type(Figure, lambda figure: print_figure(figure, "png", bbox_inches="tight"))
    return True


if "ipykernel" in sys.modules:
    show_figures_in_jupyter()


HEADROOM = 1.15
"""The y axis of a histogram reaches this multiple of the tallest bar, so the count printed
above each bar (at 1.05 times its height) stays inside the frame."""


def histogram_figure(counts: Mapping[str, int], title: str) -> Figure:
    """Bar chart of ``counts`` keyed by decoded labels (Qiskit's histogram, sorted by label).

    The figure grows with the number of labels (width) and with the longest label (height: the
    labels stand at 70 degrees under the axis), so readable labels such as
    ``A:CK B:C8 C:C10 | table A:CA B:C9 C:H10`` leave the bars their room.
    """
    longest = max((len(str(label)) for label in counts), default=0)
    size = (max(6, 0.45 * len(counts) + 3), max(5, 3.5 + 0.085 * longest))
    fig = plot_histogram(dict(counts), title=title, figsize=size)
    tallest = max(counts.values(), default=0)
    if tallest > 0:
        fig.axes[0].set_ylim(0, HEADROOM * tallest)
    fig.tight_layout()
    return fig


def save_histogram(counts: Mapping[str, int], path: str | Path, title: str) -> Path:
    return save_figure(histogram_figure(counts, title), path)


def points_histogram_figure(
    points: Mapping[int, int], title: str, target: int | None = None
) -> Figure:
    """Bar chart of the declarer's final card points over the shots (the readable picture of a
    run whose every shot is a different game, as in the full game); a dashed line marks the
    ``target`` the declarer needs, if given."""
    fig = Figure(figsize=(8, 4.5))
    ax = fig.subplots()
    values = sorted(points)
    ax.bar(values, [points[v] for v in values], width=0.9, color="#4c72b0")
    if target is not None:
        ax.axvline(target - 0.5, color="#c44e52", linestyle="--", label=f"target {target}")
        ax.legend()
    ax.set_xlabel("declarer's card points at the end of the game")
    ax.set_ylabel("shots")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def save_points_histogram(
    points: Mapping[int, int], path: str | Path, title: str, target: int | None = None
) -> Path:
    return save_figure(points_histogram_figure(points, title, target), path)


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
    return save_figure(comparison_figure(distributions, title), path)


def resource_growth_figure(rows: Sequence[GrowthRow]) -> Figure:
    """CX count and qubits of the whole game against N cards per player, paper versus efficient
    construction (:func:`qcards.analysis.growth.resource_growth`). Hollow markers are counted from
    the paper construction's term formula rather than from a built circuit."""
    # A Figure outside pyplot: Jupyter shows it once (as the returned value), scripts save it.
    fig = Figure(figsize=(11, 4.5))
    cx_axis, qubit_axis = fig.subplots(1, 2)
    ns = [row.cards_per_player for row in rows]
    for construction, colour in (("paper", "tab:red"), ("efficient", "tab:blue")):
        reports = [getattr(row, construction) for row in rows]
        cx = [r.stages["game"].cx for r in reports]
        cx_axis.semilogy(ns, cx, "-", color=colour, label=f"{construction} construction")
        for n, value, report in zip(ns, cx, reports, strict=True):
            built = report.stages["game"].source == "built"
            cx_axis.plot(n, value, "o", color=colour, mfc=colour if built else "white")
        qubit_axis.plot(ns, [r.num_qubits for r in reports], "o-", color=colour, label=construction)
    cx_axis.set_title("CX gates of the whole game (unrouted, basis cx, u)")
    cx_axis.set_xlabel("cards per player N (N = 10: the full 32-card game)")
    cx_axis.set_ylabel("CX count")
    cx_axis.plot([], [], "o", color="grey", mfc="white", label="counted from the term formula")
    cx_axis.legend(fontsize=8)
    qubit_axis.set_title("qubits")
    qubit_axis.set_xlabel("cards per player N")
    qubit_axis.legend(fontsize=8)
    fig.tight_layout()
    return fig


def estimation_error_figure(studies: Sequence[ErrorStudy]) -> Figure:
    """Median ``|estimate - exact p_win|`` against oracle calls, one panel per study
    (:func:`qcards.analysis.estimation_error.estimation_error`), each method labelled with its
    fitted log-log slope. Points with no oracle call (IAE done in its first round) cannot be
    drawn on a log axis."""
    fig = Figure(figsize=(5.5 * len(studies) + 0.5, 4.5))
    axes = fig.subplots(1, len(studies), squeeze=False)
    for axis, study in zip(axes[0], studies, strict=True):
        for method, slope in study.slopes.items():
            shown = [p for p in study.method_points(method) if p.oracle_calls > 0]
            axis.loglog(
                [p.oracle_calls for p in shown],
                [max(p.error, 1e-6) for p in shown],
                "o-",
                label=f"{method} (slope {slope:.2f}, {study.seeds[method]} seeds)",
            )
        axis.set_title(
            f"{study.name}: |estimate - {study.exact.numerator}/{study.exact.denominator}|, "
            f"median over seeds",
            fontsize=10,
        )
        axis.set_xlabel("oracle calls (Grover applications x shots; sampling: shots)")
        axis.set_ylabel("absolute error")
        axis.legend(fontsize=8)
    fig.tight_layout()
    return fig

"""The figure gallery written by ``qcards reproduce --out DIR``.

The paper's histograms (Figs. 4-14, written by :mod:`qcards.paper.reproduce`) come with the
counts behind them in ``histograms.json``; beside them the gallery has qcards' own figures,
each with the data behind it as JSON:

* ``resources-growth.png``: CX gates and qubits of the whole game for N = 1..10 cards per player,
  paper versus efficient construction (:func:`qcards.analysis.growth.resource_growth`);
* ``estimation-error.png``: error of p_win against oracle calls for counting, amplitude
  estimation and plain sampling on the four-card example
  (:func:`qcards.analysis.estimation_error.estimation_error`);

and ``index.md``, a page showing every figure with its caption. Each caption is computed from
the data beside its figure (:func:`resources_growth_caption`, :func:`estimation_error_caption`),
so a test can tell a committed gallery (``docs/gallery/``) that no longer matches the code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path

from qcards.files import write_text
from qcards.paper.examples import FOUR_CARD
from qcards.paper.reproduce import ExampleResult, histogram_title
from qcards.viz.plots import estimation_error_figure, resource_growth_figure, save_figure

GALLERY_SETTINGS: Mapping[str, tuple[Mapping, ...]] = {
    "canonical": ({"eval_qubits": 2}, {"eval_qubits": 3}, {"eval_qubits": 4}),
    "iae": ({"epsilon": 0.1}, {"epsilon": 0.05}, {"epsilon": 0.02}),
    "mlae": ({"epsilon": 0.2}, {"epsilon": 0.1}, {"epsilon": 0.05}),
    "sampling": ({"shots": 100}, {"shots": 400}, {"shots": 1600}, {"shots": 6400}),
}
"""The error study's settings in the gallery: about a minute on two cores. The benchmark
``benchmarks/bench_counting.py`` runs finer settings on both paper examples."""

GALLERY_SEEDS = {"canonical": 3, "iae": 3, "mlae": 3, "sampling": 30}
"""Seeds per method: sampling costs a tenth of a second, so it gets enough for a steady median."""
MAX_CARDS_PER_PLAYER = 10
HISTOGRAM_DATA = "histograms.json"
"""Beside the paper's histograms: per file, its title and the plotted counts."""


def resources_growth_caption(rows: list[dict]) -> str:
    """The caption of ``resources-growth.png`` from its data (``resources-growth.json``)."""
    full = rows[-1]
    paper, efficient = full["paper"], full["efficient"]
    return (
        f"Resources of the whole game against cards per player. At N = "
        f"{full['cards_per_player']} the paper construction needs "
        f"{paper['stages']['game']['cx']:.3g} CX gates on {paper['num_qubits']} qubits, "
        f"the efficient one {efficient['stages']['game']['cx']:,} on "
        f"{efficient['num_qubits']} ({full['ratio']:.3g} times fewer)."
    )


def estimation_error_caption(study: dict) -> str:
    """The caption of ``estimation-error.png`` from its data (``estimation-error.json``)."""
    slopes = ", ".join(f"{m} {s:+.2f}" for m, s in study["slopes"].items())
    seed_counts = ", ".join(f"{m} {n}" for m, n in study["seeds"].items())
    return (
        f"Four-card example: median error of p_win (exact {study['exact']}) against oracle "
        f"calls (seeds: {seed_counts}). Fitted log-log slopes: {slopes} "
        f"(amplitude estimation tends to -1, sampling to -1/2)."
    )


def write_new_figures(
    out_dir: str | Path, seeds: int | dict[str, int] = GALLERY_SEEDS
) -> list[dict]:
    """Compute and write qcards' own figures and their data; returns ``{"file", "caption"}``
    records (file names relative to ``out_dir``)."""
    # the estimation stack (qiskit-algorithms, about 2 s to import) loads only for these
    # figures: `reproduce --paper-only` never draws them
    from qcards.analysis.estimation_error import estimation_error
    from qcards.analysis.growth import resource_growth

    out = Path(out_dir)
    rows = resource_growth(range(1, MAX_CARDS_PER_PLAYER + 1))
    save_figure(resource_growth_figure(rows), out / "resources-growth.png")
    growth = [row.to_json() for row in rows]
    write_text(out / "resources-growth.json", json.dumps(growth, indent=1) + "\n")
    study = estimation_error("four-card", FOUR_CARD.spec(), None, GALLERY_SETTINGS, seeds)
    save_figure(estimation_error_figure([study]), out / "estimation-error.png")
    write_text(out / "estimation-error.json", json.dumps(study.to_json(), indent=1) + "\n")
    return [
        {"file": "resources-growth.png", "caption": resources_growth_caption(growth)},
        {"file": "estimation-error.png", "caption": estimation_error_caption(study.to_json())},
    ]


def paper_figures(reproduced: dict[str, ExampleResult], out_dir: str | Path) -> list[dict]:
    """``{"file", "caption"}`` records of the histograms that
    :func:`qcards.paper.reproduce.reproduce` wrote, in the paper's order; writes the counts
    behind them to ``histograms.json`` (:func:`histogram_data`)."""
    figures = []
    data = histogram_data(reproduced, out_dir)
    if data:
        write_text(Path(out_dir) / HISTOGRAM_DATA, json.dumps(data, indent=1) + "\n")
    for key, result in reproduced.items():
        for r in result.figures:
            if r.histogram:
                fig = r.figure
                first = f", {fig.first} led" if fig.first else ""
                printed = fig.printed_outcomes
                versus = "not printed" if printed is None else f"paper: {printed}"
                figures.append(
                    {
                        "file": str(Path(r.histogram).relative_to(out_dir)),
                        "caption": (
                            f"{key}, Fig. {fig.figure}{first}: {fig.description}; "
                            f"{r.num_outcomes} outcomes ({versus})."
                        ),
                    }
                )
    return figures


def histogram_data(reproduced: dict[str, ExampleResult], out_dir: str | Path) -> dict[str, dict]:
    """Per histogram file written (relative to ``out_dir``): its title and the counts it shows
    (readable labels), sorted by label."""
    data = {}
    for result in reproduced.values():
        for r in result.figures:
            if r.histogram:
                shots = sum(r.counts.values())
                data[str(Path(r.histogram).relative_to(out_dir))] = {
                    "title": histogram_title(result.example, r.figure, shots),
                    "counts": dict(sorted((r.readable_counts or r.counts).items())),
                }
    return data


def write_index(out_dir: str | Path, figures: list[dict]) -> Path:
    """``index.md`` showing every figure under its caption."""
    lines = ["# qcards figure gallery", "", "Written by `qcards reproduce`.", ""]
    for figure in figures:
        lines += [f"## {figure['file']}", "", figure["caption"], "", f"![]({figure['file']})", ""]
    path = Path(out_dir) / "index.md"
    write_text(path, "\n".join(lines))
    return path

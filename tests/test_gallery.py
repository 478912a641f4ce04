"""The committed gallery in docs/gallery/ is what the code computes (no drift), and the pages
quote it.

``qcards reproduce --out docs/gallery`` writes the gallery; after a change that moves a number
or a figure, run it and commit the files (as ``qcards export`` for circuits/). Each figure's data
sits beside it as JSON (``histograms.json``, ``resources-growth.json``,
``estimation-error.json``), so these tests compare data, not pixels; the captions of
``index.md`` and the numbers ``docs/how-to/reproduce.md`` quotes are checked against that data.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from qcards.paper.gallery import (
    GALLERY_SEEDS,
    GALLERY_SETTINGS,
    HISTOGRAM_DATA,
    estimation_error_caption,
    resources_growth_caption,
)

ROOT = Path(__file__).resolve().parents[1]
GALLERY = ROOT / "docs" / "gallery"
REPRODUCE_PAGE = ROOT / "docs" / "how-to" / "reproduce.md"
DRIFTED = "docs/gallery drifted from the code: run `qcards reproduce --out docs/gallery`"


def _json(name: str):
    return json.loads((GALLERY / name).read_text(encoding="utf-8"))


def _index_captions() -> dict[str, str]:
    """Caption per figure file of docs/gallery/index.md (``## file``, caption, image)."""
    text = (GALLERY / "index.md").read_text(encoding="utf-8")
    sections = re.findall(r"(?m)^## (?P<file>\S+)\n\n(?P<caption>.+)\n\n!\[\]\((?P=file)\)$", text)
    return dict(sections)


def test_index_shows_every_figure_with_its_data():
    captions = _index_captions()
    histograms = _json(HISTOGRAM_DATA)
    assert list(captions) == [*histograms, "resources-growth.png", "estimation-error.png"]
    for name in captions:
        assert (GALLERY / name).is_file(), name
    pngs = {p.name for p in GALLERY.glob("*.png")}
    assert pngs == set(captions), "docs/gallery holds figures its index.md does not show"


def test_captions_are_computed_from_the_data():
    captions = _index_captions()
    assert captions["resources-growth.png"] == resources_growth_caption(
        _json("resources-growth.json")
    ), DRIFTED
    assert captions["estimation-error.png"] == estimation_error_caption(
        _json("estimation-error.json")
    ), DRIFTED


METHOD_NAMES = {"sampling": "sampling", "iae": "IAE", "mlae": "MLAE", "canonical": "canonical"}
"""How docs/how-to/reproduce.md names each method where it quotes the fitted slopes."""


def test_reproduce_page_quotes_the_gallery_slopes():
    """The page's sentence on the fitted slopes gives the committed run's numbers, rounded as
    the caption rounds them (written with a minus sign, −)."""
    text = REPRODUCE_PAGE.read_text(encoding="utf-8")
    (sentence,) = re.findall(r"(?s)In this run the fitted slopes are.*?\n\n", text)
    sentence = sentence.replace("\n", " ")
    for method, slope in _json("estimation-error.json")["slopes"].items():
        quoted = re.findall(rf"{METHOD_NAMES[method]} (−?\d+\.\d\d)", sentence)
        assert quoted == [f"{slope:.2f}".replace("-", "−")], (
            f"reproduce.md quotes {method} as {quoted}; the gallery has {slope:.2f}"
        )


@pytest.mark.slow
def test_estimation_error_is_what_the_code_computes():
    """The gallery's error study recomputed with its seeds: every point's oracle calls and
    error, and the fitted slopes (about 40 s on the sparse engine; times are not compared)."""
    from qcards.analysis.estimation_error import estimation_error
    from qcards.paper.examples import FOUR_CARD

    study = estimation_error(
        "four-card", FOUR_CARD.spec(), None, GALLERY_SETTINGS, GALLERY_SEEDS
    ).to_json()
    committed = _json("estimation-error.json")
    for key in ("name", "exact", "seeds", "backend"):
        assert study[key] == committed[key], DRIFTED
    assert len(study["points"]) == len(committed["points"]), DRIFTED
    for new, old in zip(study["points"], committed["points"], strict=True):
        assert (new["method"], new["setting"]) == (old["method"], old["setting"]), DRIFTED
        assert new["oracle_calls"] == old["oracle_calls"], (DRIFTED, new)
        assert new["error"] == pytest.approx(old["error"], rel=1e-6, abs=1e-12), (DRIFTED, new)
    assert study["slopes"] == pytest.approx(committed["slopes"], rel=1e-6), DRIFTED


def test_resource_growth_is_what_the_code_computes():
    """The first rows of resources-growth.json (built circuits, a few seconds); the larger ones
    come from the same code."""
    from qcards.analysis.growth import resource_growth

    committed = _json("resources-growth.json")
    rows = [row.to_json() for row in resource_growth(range(1, 3))]
    assert rows == committed[:2], DRIFTED


@pytest.mark.slow
def test_histograms_are_what_the_code_computes(tmp_path):
    """Every paper histogram's counts and title recomputed (both examples, the gallery's 1000
    shots and seed 1, as `qcards reproduce` runs them; about 40 s)."""
    from qcards.paper.gallery import histogram_data
    from qcards.paper.reproduce import reproduce

    result = reproduce(out_dir=tmp_path, shots=1000, seed=1)
    assert histogram_data(result, tmp_path) == _json(HISTOGRAM_DATA), DRIFTED


def test_histogram_labels_are_readable():
    """The histograms are labelled in words (hands, table, stacks), not in the paper's codes."""
    for name, record in _json(HISTOGRAM_DATA).items():
        for label in record["counts"]:
            assert ":" in label and not re.fullmatch(r"[01 ]+", label), (name, label)


def test_histogram_bar_labels_fit_under_the_frame():
    """Qiskit writes each count at 1.05 times its bar; the axis leaves room above that."""
    import matplotlib.pyplot as plt

    from qcards.viz.plots import HEADROOM, histogram_figure

    fig = histogram_figure({"A:CK | table B:C9 | stack A:CA,C10": 99, "b": 64}, "t")
    assert fig.axes[0].get_ylim()[1] == pytest.approx(HEADROOM * 99)
    assert HEADROOM >= 1.15
    fig.canvas.draw()
    frame = fig.axes[0].get_window_extent()
    for text in fig.axes[0].texts:
        assert text.get_window_extent().y1 <= frame.y1, text.get_text()
    plt.close(fig)


def test_figures_show_in_jupyter():
    """A notebook cell ending in one of qcards' figures (built outside pyplot) shows a PNG."""
    from IPython.core.interactiveshell import InteractiveShell
    from matplotlib.figure import Figure

    from qcards.viz.plots import show_figures_in_jupyter

    shell = InteractiveShell.instance()
    try:
        assert show_figures_in_jupyter(shell)
        figure = Figure()
        figure.subplots().plot([0, 1])
        data, _ = shell.display_formatter.format(figure)
        assert data["image/png"][:4] == b"\x89PNG"
    finally:
        InteractiveShell.clear_instance()

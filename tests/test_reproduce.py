"""``qcards reproduce``: figures, exact checks and the paper's printed numbers."""

from __future__ import annotations

import json

import pytest

from qcards.cli import main


@pytest.fixture(scope="module")
def reproduced(tmp_path_factory):
    out = tmp_path_factory.mktemp("figs")
    from qcards.paper.reproduce import reproduce

    result = reproduce(out_dir=out, shots=1000, seed=5)
    return {key: r.to_json() for key, r in result.items()}, out


def test_every_figure_matches_the_referee_exactly(reproduced):
    result, _ = reproduced
    for record in result.values():
        for stage in record["stages"]:
            assert stage["max_abs_error"] < 1e-9, stage["figure"]
            registers = stage["paper_registers"]
            assert registers["max_abs_error"] < 1e-9, stage["figure"]
            assert registers["num_outcomes"] == stage["num_outcomes"]


def test_four_card_agrees_with_paper(reproduced):
    four = reproduced[0]["four-card"]
    assert [s["num_outcomes"] for s in four["stages"]] == [6, 12, 24, 24, 8]
    assert all(s["agrees"] for s in four["stages"])
    assert four["p_win_exact"] == "5/12" and four["agrees"]
    assert four["p_win"] == pytest.approx(5 / 12, abs=1e-9)
    final = four["stages"][-1]["exact"]
    assert final["011 011 011 011"] == "1/4" and final["111 111 111 111"] == "1/4"


def test_six_card_differences_are_flagged_with_reasons(reproduced):
    six = reproduced[0]["six-card"]
    by_fig = {s["figure"]: s for s in six["stages"]}
    assert by_fig["Fig. 11"]["num_outcomes"] == 12 and by_fig["Fig. 11"]["agrees"] is False
    assert by_fig["Fig. 11"]["reason"]
    assert by_fig["Fig. 13"]["agrees"] is True
    ace, king = six["first"]["CA"], six["first"]["CK"]
    assert ace["p_win_exact"] == "2/3" and ace["p_win_paper"] == "1/3" and not ace["agrees"]
    assert "double-dummy value computed here: 1/3" in ace["reason"]
    assert king["agrees"] and king["p_win_exact"] == "2/3"


def test_histograms_written_with_sampled_counts(reproduced):
    result, out = reproduced
    pngs = sorted(p.name for p in out.iterdir())
    assert len(pngs) == 11 and pngs[0] == "four-card-fig04.png"
    for record in result.values():
        for stage in record["stages"]:
            assert sum(stage["counts"].values()) == 1000
            assert set(stage["counts"]) <= set(stage["exact"])


def test_cli_reproduce_json_shape(capsys, tmp_path):
    assert main(["reproduce", "four-card", "--out", str(tmp_path), "--json", "--shots", "50"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data) == {"four-card", "gallery"}
    # one example: its histograms only (the new figures come with ``all``), and the index
    figures = [f["file"] for f in data["gallery"]["figures"]]
    assert figures == [f"four-card-fig{n:02d}.png" for n in range(4, 9)]
    assert (tmp_path / "index.md").read_text().count("![](") == 5
    stage = data["four-card"]["stages"][0]
    assert {"name", "num_outcomes", "probabilities"} <= set(stage)
    assert "p_win" in data["four-card"]


def test_cli_reproduce_text_fits_100_columns(capsys, tmp_path):
    """Piped, the tables and the notes under them fit in 100 columns (six-card: the example
    whose figures differ from the paper's, with the longest notes)."""
    argv = ["reproduce", "six-card", "--out", str(tmp_path), "--shots", "20", "--quiet"]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("differs" in line for line in lines)
    assert str(tmp_path) in lines[-1]  # the gallery's path, as long as it is
    assert max(len(line) for line in lines[:-1]) <= 100

"""Resource counts: the paper construction's formula against built circuits, and the targets."""

from __future__ import annotations

import pytest

from qcards.analysis.resources import count_resources, resource_spec
from qcards.errors import ResourceError


@pytest.mark.parametrize("n", [1, 2])
def test_paper_formula_equals_built_circuit(n):
    built = count_resources(n, "paper", use_formula=False)
    formula = count_resources(n, "paper", use_formula=True)
    assert built.num_qubits == formula.num_qubits
    for stage in ("deal", "play", "trick", "game"):
        assert built.stages[stage].source == "built"
        assert formula.stages[stage].source == "formula"
        assert formula.stages[stage].cx == built.stages[stage].cx, stage
        # the formula adds term depths: an upper bound, within 10% here
        assert built.stages[stage].depth <= formula.stages[stage].depth
        assert formula.stages[stage].depth <= 1.1 * built.stages[stage].depth + 2


def test_resource_spec_is_the_real_game_at_ten():
    spec = resource_spec(10)
    assert len(spec.cards) == 32 and len(spec.unknown) == 22
    assert spec.hand_size == 10 and spec.skat_size == 2
    assert dict(spec.sizes) == {"B": 10, "C": 10, "skat": 2}


def test_efficient_beats_paper_from_two_cards():
    for n in (2, 3):
        efficient = count_resources(n, "efficient")
        paper = count_resources(n, "paper")
        assert efficient.stages["game"].cx < paper.stages["game"].cx


@pytest.mark.parametrize("bad", [0, 11])
def test_resources_refuse_bad_sizes(bad):
    with pytest.raises(ResourceError, match="1..10"):
        resource_spec(bad)
    with pytest.raises(ResourceError, match="construction"):
        count_resources(1, "magic")


@pytest.mark.slow
def test_full_game_targets():
    """Issue targets: the deal <= 3,000 CX and the whole 10-trick game <= 1e6 CX (built)."""
    report = count_resources(10, "efficient")
    assert report.stages["deal"].cx <= 3000
    assert report.stages["game"].cx <= 10**6
    assert report.stages["game"].source == "built"

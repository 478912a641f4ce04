"""The built-in construction records: read without Qiskit, and the width they report unbuilt is
the width of the circuit they build (issue 41's start-up: ``evaluate --method classical``
reports the circuit's width without importing Qiskit)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from qcards.circuits.construction import BUILT_IN, Deferred, get_construction
from qcards.errors import SpecError
from qcards.skat.position.spec import load_spec, parse_spec

from conftest import REPO, TEST_SPECS, generated_specs, random_spec, sampled


def _loads(path) -> bool:
    try:
        load_spec(path)
    except SpecError:  # a few test specs are invalid on purpose (or need a history)
        return False
    return True


SPEC_FILES = [
    p
    for p in sorted([*TEST_SPECS.glob("*.toml"), *(REPO / "qcards" / "specs").glob("*.toml")])
    if _loads(p)
]


def _layouts(spec):
    """(construction, paper_codes) pairs whose layout can be built for ``spec``."""
    for name in BUILT_IN:
        construction = get_construction(name)
        for paper_codes in (False, True) if construction.keeps_paper_codes else (False,):
            yield construction, paper_codes


def _check_widths(spec) -> int:
    """Compare every record's unbuilt registers with its built layout; return how many
    register tables were compared (a record may defer to its layout)."""
    tabled = 0
    for construction, paper_codes in _layouts(spec):
        try:
            layout = construction.layout(spec, paper_codes)
        except SpecError:
            # the paper's codes do not cover this spec: the table refuses it alike
            with pytest.raises(SpecError):
                construction.num_qubits(spec, paper_codes)
            continue
        sizes = construction.register_sizes(spec, paper_codes)
        if sizes is not None:
            tabled += 1
            # the same registers, in the same order, of the same sizes
            assert list(sizes.items()) == list(layout.register_sizes().items())
        assert construction.num_qubits(spec, paper_codes) == layout.num_qubits
    return tabled


@pytest.mark.parametrize("path", SPEC_FILES, ids=lambda p: p.stem)
def test_the_width_a_record_reports_is_the_built_layouts(path):
    spec = load_spec(path)
    tabled = _check_widths(spec)
    assert tabled >= (2 if spec.prior.is_uniform else 1)


@pytest.mark.parametrize("params", sampled(generated_specs() + generated_specs(skat=True)))
def test_the_width_of_generated_specs(params):
    assert _check_widths(random_spec(*params)) >= 2


def test_the_spec_files_are_many():
    assert len(SPEC_FILES) >= 15


@pytest.mark.parametrize(
    "prior", ['weight = { B = { C10 = 3, H10 = "1/2" } }', "at_least = { B = { clubs = 1 } }"]
)
def test_a_weighted_prior_reads_the_efficient_width_from_the_built_layout(prior):
    six = (REPO / "qcards" / "specs" / "six-card.toml").read_text(encoding="utf-8")
    spec = parse_spec(f"{six}\n[prior]\n{prior}\n")
    assert not spec.prior.is_uniform
    assert _check_widths(spec) == 3  # paper (with and without its codes), hardware
    efficient = get_construction("efficient")
    # its deal's ancillas come from a plan priced with Qiskit's MCX synthesis
    assert efficient.register_sizes(spec, False) is None
    assert efficient.num_qubits(spec) == efficient.layout(spec, False).num_qubits


def test_records_and_widths_are_read_without_qiskit():
    code = (
        "import sys; from qcards.circuits.construction import registry; "
        "from qcards.paper.examples import FOUR_CARD; "
        "widths = [r.num_qubits(FOUR_CARD.spec()) for r in registry().values()]; "
        "assert 'qiskit' not in sys.modules, 'qiskit imported'; print(widths)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[15, 25, 15]"  # the paper's 15 qubits; 25 with a workspace


def test_a_deferred_function_loads_at_its_first_call():
    square = Deferred("math:pow")
    assert square(3, 2) == 9.0
    assert square == Deferred("math:pow") and square != Deferred("math:sqrt")
    with pytest.raises(AttributeError):
        Deferred("math:no_such_function")()
    with pytest.raises(ModuleNotFoundError):
        Deferred("no_such_module:f")()

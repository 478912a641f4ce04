"""Optional extras: a feature whose dependencies are missing names the extra to install."""

from __future__ import annotations

import pytest

from qcards.cli import main
from qcards.errors import MissingExtraError
from qcards.execution import extras

from conftest import REPO

FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")


@pytest.fixture
def without(monkeypatch):
    """Pretend the modules of the given extra are not installed."""

    def hide(extra: str) -> None:
        gone = set(extras.EXTRAS[extra])
        real = extras._installed
        monkeypatch.setattr(extras, "_installed", lambda m: m not in gone and real(m))

    return hide


def test_every_extra_is_installed_here():
    for extra in extras.EXTRAS:
        assert extras.missing(extra) == (), extra


def test_require_names_the_install_command(without):
    without("ddsim")
    with pytest.raises(MissingExtraError, match=r"pip install 'qcards\[ddsim\]'"):
        extras.require("ddsim", "the ddsim method")


@pytest.mark.parametrize(
    "argv,extra",
    [
        (["count", FOUR, "--epsilon", "0.1", "--backend", "ddsim"], "ddsim"),
        (["evaluate", FOUR, "--method", "ddsim"], "ddsim"),
        (["run", FOUR, "--backend", "fake:FakeTorino", "--shots", "10"], "ibm"),
        (["evaluate", FOUR, "--dask", "local"], "dask"),
        (["run", FOUR, "--backend", "aer", "--shots", "10", "--mitigate", "readout"], "mitigation"),
        (["run", FOUR, "--backend", "aer", "--shots", "10", "--mitigate", "zne"], "mitigation"),
    ],
)
def test_cli_says_which_extra_to_install(capsys, without, argv, extra):
    without(extra)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert f"pip install 'qcards[{extra}]'" in err


def test_auto_needs_no_extra(capsys, without):
    for extra in extras.EXTRAS:
        without(extra)
    assert main(["evaluate", FOUR, "--json"]) == 0
    assert '"method": "classical"' in capsys.readouterr().out

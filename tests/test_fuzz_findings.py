"""Regression tests for what the fuzz suite (``tests/fuzz/``, issue 21) found, kept in the
default run so each fix stays fixed even where the fuzz suite is not run."""

from __future__ import annotations

import pytest

from qcards.analysis.methods.report import probability
from qcards.cli import LINE_BREAKS, main
from qcards.errors import ParameterError
from qcards.estimation.options import EstimationOptions
from qcards.execution.backends import MAX_SEED, check_seed
from qcards.games.cats.errors import CatsError
from qcards.games.cats.referee import MAX_PLAYERS, colour_worlds
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.rules import Rules

from conftest import REPO

FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")


def one_error_line(capsys) -> str:
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == "" and len(lines) == 1 and lines[0].startswith("error: "), captured
    return lines[0]


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 2**70, 1.5, True, "3"])
def test_a_seed_out_of_range_is_a_parameter_error(seed):
    with pytest.raises(ParameterError) as info:
        check_seed(seed)
    assert info.value.parameter == "seed"


@pytest.mark.parametrize("seed", [None, 0, 1, MAX_SEED])
def test_seeds_in_range_pass(seed):
    check_seed(seed)


def test_estimation_options_check_their_seed():
    with pytest.raises(ParameterError, match="seed"):
        EstimationOptions(seed=-5)


@pytest.mark.parametrize(
    "argv",
    [
        ["run", FOUR, "--backend", "sparse", "--shots", "10", "--seed", "-1"],
        ["run", FOUR, "--backend", "aer", "--shots", "10", "--seed", str(2**63)],
        ["count", FOUR, "--epsilon", "0.2", "--seed", str(2**70)],
    ],
)
def test_the_cli_refuses_a_seed_out_of_range_in_one_line(capsys, argv):
    assert main(argv) == 2
    assert "seed" in one_error_line(capsys)


@pytest.mark.parametrize("brk", list(LINE_BREAKS))
def test_every_line_break_in_an_error_stays_on_one_line(capsys, tmp_path, brk):
    # a hand for a stranger whose name holds a line break: the error echoes the name
    escaped = brk.encode("unicode_escape").decode("ascii")
    spec = tmp_path / "names.toml"
    spec.write_text(f'players = ["A", "B"]\n[hands]\n"Z\\u{ord(brk):04x}Y" = ["CA"]\n')
    assert main(["evaluate", str(spec)]) == 2
    assert f"Z{escaped}Y" in one_error_line(capsys)


@pytest.mark.parametrize(
    ("total", "expected"), [(1.0000000000000002, 1.0), (-1e-17, 0.0), (0.25, 0.25), (1, 1.0)]
)
def test_a_probability_never_leaves_the_unit_interval(total, expected):
    assert probability(total) == expected


def test_cats_refuses_too_many_players_up_front(capsys):
    with pytest.raises(CatsError, match=f"at most {MAX_PLAYERS}"):
        colour_worlds(MAX_PLAYERS + 1)
    cards = ["7H", "7S", "QC", "8D", "9H", "10H", "JH", "QH", "KH", "AH", "7C", "8C", "9C"]
    assert len(cards) == MAX_PLAYERS + 1
    assert main(["cats", "deduce", "--cards", *cards, "--call", "black"]) == 2
    assert str(MAX_PLAYERS) in one_error_line(capsys)


@pytest.mark.parametrize("komi", [float("nan"), float("inf"), float("-inf")])
def test_a_komi_that_is_not_finite_is_refused(capsys, komi):
    with pytest.raises(QgoError, match="komi"):
        Rules(size=9, komi=komi)
    assert main(["qgo", "play", "--size", "9", "--komi", str(komi), "--bot", "both"]) == 2
    assert "komi" in one_error_line(capsys)

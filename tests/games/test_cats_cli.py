"""``qcards cats deduce`` and ``qcards cats simulate`` through :func:`qcards.cli.main`."""

from __future__ import annotations

import json

import pytest

from qcards.cli import main


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["cats", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_deduce_json(capsys):
    code, out, _ = run(capsys, "deduce", "--cards", "7H", "7S", "JOKER", "--call", "red", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {"call", "cards", "rounds", "guesses", "points", "dealer_points"}
    assert data["cards"] == ["7H", "7S", "JOKER"]
    assert [r["guessers"] for r in data["rounds"]] == [[1], [2, 3]]
    assert data["guesses"][0] == {
        "player": 1,
        "card": "7H",
        "colour": "red",
        "round": 1,
        "guess": "red",
        "deduced": True,
        "correct": True,
        "bonus": 1,
    }
    assert [g["guess"] for g in data["guesses"]] == ["red", "black", "black"]
    assert data["points"] == [2, 1, 1]
    assert data["dealer_points"] == 0


def test_deduce_text(capsys):
    code, out, _ = run(capsys, "deduce", "--cards", "QH", "QC", "qd", "--call", "black")
    assert code == 0
    assert "at least one of you cats is black" in out
    assert "guessing players" in out and "dealer points: 0" in out
    # QC alone is black: it goes first and dominates both red queens
    assert out.splitlines()[-5].split() == ["1", "QH", "red", "2", "red", "0", "1"]
    assert out.splitlines()[-4].split() == ["2", "QC", "black", "1", "black", "2", "3"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["deduce", "--cards", "7S", "QC", "--call", "red"], "may not announce"),
        (["deduce", "--cards", "7S", "QX", "--call", "red"], "unknown card 'QX'"),
        (["deduce", "--cards", "7S", "7S", "--call", "black"], "7S dealt 2 times"),
        (["deduce", "--cards", "7S", "--call", "green"], "invalid choice"),
        (["deduce", "--call", "red"], "--cards"),
        (["simulate", "--players", "1", "--rounds", "5"], "players must be"),
        (["simulate", "--players", "3", "--rounds", "5", "--noise", "late=7"], "probability"),
        ([], "required"),
    ],
)
def test_errors_are_one_line_and_exit_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and message in err


def test_simulate_json_is_deterministic(capsys):
    argv = ["simulate", "--players", "4", "--rounds", "30", "--seed", "7", "--json"]
    first = run(capsys, *argv)
    assert first == run(capsys, *argv)
    data = json.loads(first[1])
    assert [r["dealer"] for r in data["results"]] == ["majority", "minority", "random"]
    assert data["noise"] == {"late": 0.1, "rash": 0.05}
    assert set(data["results"][0]["dealer_points"]) == {"mean", "se"}


def test_simulate_one_dealer_text_and_plot(capsys, tmp_path):
    plot = tmp_path / "cats.png"
    code, out, _ = run(
        capsys,
        "simulate",
        "--players",
        "3",
        "--hands",
        "20",
        "--dealer",
        "minority",
        "--noise",
        "none",
        "--plot",
        str(plot),
    )
    assert code == 0
    assert plot.stat().st_size > 0
    rows = [line.split()[0] for line in out.splitlines()[4:]]
    assert rows == ["minority"]
    assert "0.000 ± 0.000" in out  # perfect players never pay the dealer

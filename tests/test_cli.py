"""The CLI through ``main([...])``: JSON shapes and every error path (one line, exit 2)."""

from __future__ import annotations

import json

import pytest

from qcards.cli import main
from qcards.paper.examples import SIX_CARD

from conftest import REPO

SIX = str(REPO / "qcards" / "specs" / "six-card.toml")
FOUR = str(REPO / "qcards" / "specs" / "four-card.toml")


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_evaluate_json(capsys):
    data = run_json(capsys, "evaluate", SIX, "--first", "CA")
    assert set(data) >= {
        "p_win",
        "p_win_exact",
        "expected_points",
        "model",
        "method",
        "num_deals",
        "num_qubits",
    }
    assert data["p_win_exact"] == "2/3" and abs(data["p_win"] - 2 / 3) < 1e-9
    # auto: the cheapest exact method by the estimates, the exact referee here (issue 31)
    assert data["method"] == "classical" and data["construction"] == "efficient"
    assert data["method_reason"].startswith("auto: the exact referee, about")
    assert data["num_qubits"] == 34


def test_evaluate_every_exact_method_and_construction(capsys):
    for construction, method, qubits in [
        ("paper", "statevector", 21),
        ("paper", "ddsim", 21),
        ("efficient", "mps", 34),
        ("efficient", "sparse", 34),
        ("paper", "sparse", 21),
    ]:
        data = run_json(
            capsys,
            "evaluate",
            SIX,
            "--first",
            "CA",
            "--method",
            method,
            "--construction",
            construction,
        )
        assert data["method"] == method and data["num_qubits"] == qubits
        assert abs(data["p_win"] - 2 / 3) < 1e-9


def test_resources_json_shape(capsys):
    data = run_json(capsys, "resources", "--cards-per-player", "1")
    assert data["construction"] == "efficient" and data["cards_per_player"] == 1
    assert set(data["stages"]) == {"deal", "play", "trick", "game"}
    for count in data["stages"].values():
        assert count["cx"] > 0 and count["depth"] > 0 and count["source"] == "built"
    stages = data["stages"]
    assert stages["game"]["cx"] == sum(stages[k]["cx"] for k in ("deal", "play", "trick"))


def test_resources_bad_n(capsys):
    expect_error(capsys, ["resources", "--cards-per-player", "11"], "1..10")


def test_evaluate_adversarial_auto_runs_the_referee(capsys):
    """``auto`` on a small adversarial endgame: the exact referee is cheapest and gives the
    double-dummy value 1/3 (the fallback to double dummy on every deal, when the referee cannot
    answer, is tested in test_shots.py)."""
    data = run_json(capsys, "evaluate", SIX, "--first", "CA", "--model", "adversarial")
    assert data["method"] == "classical" and data["p_win_exact"] == "1/3"
    assert data["method_reason"].startswith("auto: the exact referee")


def test_evaluate_aer_seeded(capsys):
    # the paper's narrower circuit: Aer's dense state of the efficient one's 25 qubits takes 40 s
    argv = ["--method", "aer", "--construction", "paper", "--shots", "2000", "--seed", "3"]
    data = run_json(capsys, "evaluate", FOUR, *argv)
    assert data["method"] == "aer" and data["shots"] == 2000 and data["num_qubits"] < 20
    assert abs(data["p_win"] - 5 / 12) < 5 * (5 / 12 * 7 / 12 / 2000) ** 0.5


def test_recommend_json(capsys):
    data = run_json(capsys, "recommend", SIX, "--model", "adversarial")
    assert [c["card"] for c in data["cards"]] == ["CK", "CA"]
    assert data["cards"][0]["p_win"] == pytest.approx(2 / 3)


def test_readable_output(capsys):
    assert main(["evaluate", FOUR]) == 0
    out = capsys.readouterr().out
    assert "p_win" in out and "5/12" in out


def test_evaluate_several_specs(capsys):
    data = run_json(capsys, "evaluate", FOUR, SIX, "--method", "classical")
    assert [(r["spec"], r["p_win_exact"]) for r in data] == [(FOUR, "5/12"), (SIX, "2/3")]
    assert main(["evaluate", FOUR, SIX, "--method", "classical"]) == 0
    records = capsys.readouterr().out.split("\n\n")
    assert len(records) == 2
    for path, record in zip([FOUR, SIX], records, strict=True):
        assert record.splitlines()[2].split() == ["spec", path]


def expect_error(capsys, argv, fragment):
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), captured.err
    assert fragment in lines[0]
    assert "Traceback" not in captured.err


def test_error_missing_file(capsys, tmp_path):
    expect_error(capsys, ["evaluate", str(tmp_path / "x.toml")], "no such file")


def test_error_bad_toml(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("players = [\n")
    expect_error(capsys, ["evaluate", str(path)], "TOML syntax error")


def test_error_bad_card_in_spec(capsys, tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(SIX_CARD.spec().to_toml().replace('"C9"', '"C1"'))
    expect_error(capsys, ["recommend", str(path)], "field 'unknown.cards'")


def test_error_bad_first(capsys):
    expect_error(capsys, ["evaluate", SIX, "--first", "XX"], "--first")
    expect_error(capsys, ["evaluate", SIX, "--first", "C10"], "not in the declarer's known hand")


def test_error_adversarial_on_circuit(capsys):
    expect_error(
        capsys,
        ["evaluate", SIX, "--model", "adversarial", "--method", "aer"],
        "not --model adversarial, which is computed by --method classical or double-dummy",
    )


def test_error_bad_shots(capsys, tmp_path):
    expect_error(capsys, ["evaluate", FOUR, "--method", "aer", "--shots", "0"], "--shots")
    expect_error(capsys, ["reproduce", "--shots", "0", "--out", str(tmp_path)], "--shots")


def test_error_bad_arguments(capsys):
    expect_error(capsys, ["evaluate"], "required")
    expect_error(capsys, ["nonsense"], "invalid choice")
    expect_error(capsys, ["evaluate", SIX, "--method", "magic"], "invalid choice")


def test_error_too_many_qubits(capsys, tmp_path):
    path = tmp_path / "big.toml"
    path.write_text(
        'players = ["A", "B", "C"]\n[hands]\nA = ["CA", "CK", "CQ", "C9"]\n'
        '[unknown]\ncards = ["SA", "S10", "SK", "SQ", "S9", "S8", "S7", "HA"]\n'
        "sizes = { B = 4, C = 4 }\n"
    )
    expect_error(capsys, ["evaluate", str(path), "--method", "statevector"], "qubits")


def test_recommend_needs_the_movers_hand(capsys, tmp_path):
    """A defender leads: recommend advises it, and so needs its cards (the spec knows only
    the declarer's)."""
    path = tmp_path / "b.toml"
    path.write_text(SIX_CARD.spec().to_toml().replace('leader = "A"', 'leader = "B"'))
    expect_error(capsys, ["recommend", str(path)], "needs B's cards")


def test_count_json(capsys):
    data = run_json(capsys, "count", FOUR, "--method", "iae", "--seed", "4")
    assert {"estimate", "ci", "oracle_calls", "exact", "method", "num_qubits"} <= set(data)
    assert abs(data["estimate"] - 5 / 12) <= 0.01 and data["method"] == "iae"


def test_count_errors(capsys):
    expect_error(capsys, ["count", FOUR, "--epsilon", "0"], "--epsilon")
    expect_error(capsys, ["count", FOUR, "--method", "grover"], "invalid choice")


def test_error_unwritable_out(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    expect_error(capsys, ["reproduce", "four-card", "--out", str(blocker)], "cannot write")


def test_error_names_with_newlines_stay_on_one_line(capsys, tmp_path):
    path = tmp_path / "nl.toml"
    path.write_text('players = ["A", "B"]\n"foo\\nbar" = 1\n')
    expect_error(capsys, ["evaluate", str(path)], "unknown field")


def test_recommend_exact_ties_keep_hand_order(capsys):
    data = run_json(capsys, "recommend", SIX)
    assert [c["card"] for c in data["cards"]] == ["CA", "CK"]
    assert {c["p_win_exact"] for c in data["cards"]} == {"2/3"}


def test_json_output_is_strict_json(capsys):
    """JSON has no NaN or Infinity (issue 21): such values are written as null."""
    from qcards.cli.common import print_json

    print_json({"p": float("nan"), "ci": (0.1, float("inf")), "nested": [{"x": -float("inf")}]})
    out = capsys.readouterr().out

    def refuse(name):
        raise AssertionError(f"{name} in JSON output")

    assert json.loads(out, parse_constant=refuse) == {
        "p": None,
        "ci": [0.1, None],
        "nested": [{"x": None}],
    }


RUN_AER = ["run", FOUR, "--backend", "aer", "--shots", "300", "--seed", "1"]


def _outcome_rows(out: str) -> list[str]:
    """The printed outcome rows (plain off a terminal, framed by rich on one)."""
    return [line.strip(" │") for line in out.splitlines() if "stack " in line]


def test_run_top_prints_the_most_frequent_outcomes_and_counts_the_rest(capsys):
    assert main(RUN_AER) == 0
    every = _outcome_rows(capsys.readouterr().out)
    assert len(every) == 8  # the four-card game's final outcomes, all printed off a terminal
    assert main([*RUN_AER, "--top", "3"]) == 0
    out = capsys.readouterr().out
    counts = sorted((int(row.split()[-1]) for row in every), reverse=True)
    assert [int(row.split()[-1]) for row in _outcome_rows(out)] == counts[:3]
    assert "... 5 more outcomes not shown (--top K, or --json for all)" in out


def test_run_on_a_terminal_shows_the_default_top(capsys, monkeypatch):
    from qcards.cli import run as run_command

    monkeypatch.setattr(run_command, "TERMINAL_TOP", 2)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert main(RUN_AER) == 0
    out = capsys.readouterr().out
    assert len(_outcome_rows(out)) == 2 and "6 more outcomes not shown" in out


def test_run_top_must_not_be_negative(capsys):
    expect_error(capsys, [*RUN_AER, "--top", "-1"], "--top")


def test_recommend_names_shots_at_any_moment(capsys):
    """Issue 53 item 16: advice mid-game said "must be a positive integer" without the flag."""
    for history in ([], ["--history", "A:CA"]):
        for shots in ("0", "-1"):
            expect_error(
                capsys, ["recommend", SIX, *history, "--shots", shots], "error: --shots must be"
            )


def test_a_history_that_ends_the_game_says_the_game_is_over(capsys):
    """Issue 53 item 16: recommend after every card said the declarer had no known cards."""
    played = "A:CA B:C10 C:C9 A:CK B:C8 C:H10"
    for extra in ([], ["--beliefs", "voids"], ["--model", "adversarial"]):
        expect_error(
            capsys,
            ["recommend", SIX, "--history", played, *extra],
            "error: --history: the game is over, every card has been played: A won with 75 "
            "card points",
        )
    from qcards.analysis.evaluate import recommend
    from qcards.errors import ModelError
    from qcards.skat.position.history import after_history

    with pytest.raises(ModelError, match="^the game is over, every card has been played: A won"):
        recommend(after_history(SIX_CARD.spec(), played))


def test_a_circuit_too_wide_is_refused_before_the_referee_and_the_build(capsys, monkeypatch):
    """Issue 53 item 16: evaluate --method statevector on eighteen cards ran the exact referee
    (and built the circuit) before refusing the width."""
    from qcards.analysis.methods import runs
    from qcards.circuits.task import GameTask

    def expensive(*_args, **_kwargs):
        raise AssertionError("ran before the width was refused")

    monkeypatch.setattr(runs, "referee_beside", expensive)
    monkeypatch.setattr(GameTask, "build", expensive)
    full_game = str(REPO / "qcards" / "specs" / "full-game.toml")
    for spec, method in ((SIX, "statevector"), (full_game, "statevector"), (full_game, "mps")):
        expect_error(capsys, ["evaluate", spec, "--method", method], f"the {method} method holds")

"""``qcards gofish replay`` through ``main([...])``: JSON shape, text, --no-four, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qcards.cli import main

DATA = Path(__file__).parent / "data"
WIKIPEDIA = str(DATA / "wikipedia.txt")
BOOK = str(DATA / "book.txt")


def replay_json(capsys, *argv: str) -> dict:
    assert main(["gofish", "replay", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_json_shape(capsys) -> None:
    data = replay_json(capsys, WIKIPEDIA)
    assert list(data) == ["players", "suits", "moves", "result", "hands"]
    assert data["players"] == ["A", "B", "C"] and data["suits"] == ["1", "2", "3"]
    assert data["moves"][0] == {
        "line": 5,
        "asker": "A",
        "target": "B",
        "suit": "1",
        "answer": "yes",
        "allowed": ["yes", "no"],
    }
    assert data["result"] == {"status": "win", "winners": ["A"], "reason": "determined"}
    assert data["hands"]["A"] == {
        "size": 5,
        "known": {"1": 2, "3": 3},
        "excluded": ["2"],
        "unknown": 0,
    }
    assert set(data["hands"]) == {"A", "B", "C"}


def test_no_four_flag(capsys) -> None:
    standard = replay_json(capsys, BOOK)
    variant = replay_json(capsys, BOOK, "--no-four")
    assert standard["moves"][3]["allowed"] == ["yes", "no"]
    assert variant["moves"][3]["allowed"] == ["yes"]


def test_text_output(capsys) -> None:
    assert main(["gofish", "replay", BOOK]) == 0
    out = capsys.readouterr().out
    assert "result: Zoe wins (every hand is determined)" in out
    lines = out.splitlines()
    assert lines[0].split() == ["line", "move", "answer", "allowed", "note"]
    assert lines[4].split()[-1] == "forced"  # line 6 of the record: Yael must say yes
    assert any(row.split()[:2] == ["Xia", "4"] and "1=4" in row for row in lines)


def test_text_output_paradox_and_ignored(tmp_path, capsys) -> None:
    record = tmp_path / "paradox.txt"
    text = Path(BOOK).read_text().replace("Zoe asks Yael for 3: yes", "Zoe asks Yael for 3: no")
    record.write_text(text)
    assert main(["gofish", "replay", str(record)]) == 0
    out = capsys.readouterr().out
    assert "result: paradox" in out and "everybody loses" in out
    assert "ignored after the end: 3 move(s), lines 7, 8, 10" in out
    assert "paradox" in out.splitlines()[4]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("players A B C\nB asks A for x: yes\n", "line 2: it is A's turn, not B's"),
        ("players A B C\n\nA asks B x: yes\n", "line 3: cannot read"),
        ("players A B C\nA asks B for x: sure\n", "line 2: the answer must be"),
    ],
)
def test_errors_are_one_line_exit_2(tmp_path, capsys, text: str, message: str) -> None:
    record = tmp_path / "bad.txt"
    record.write_text(text)
    assert main(["gofish", "replay", str(record)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"error: {record}, {message}")
    assert captured.err.count("\n") == 1


def test_missing_file_and_missing_action(capsys) -> None:
    assert main(["gofish", "replay", "no-such-record.txt"]) == 2
    assert capsys.readouterr().err.startswith("error: no-such-record.txt: cannot read")
    assert main(["gofish"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_solve_two_players(capsys) -> None:
    assert main(["gofish", "solve", "--players", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["positions"] == 9 and data["initial_deals"] == 5
    assert [t["forced"] for t in data["teams"]] == [False, False]
    assert data["verdict"].startswith("draw")


def test_solve_refuses_four_players(capsys) -> None:
    assert main(["gofish", "solve", "--players", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --players 4") and err.count("\n") == 1


def test_count_book_game(capsys) -> None:
    """Seeded IAE: the book's game ends determined; the interval pins the single matrix."""
    assert main(["gofish", "count", BOOK, "--seed", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert (data["kind"], data["exact"], data["rounded"], data["resolved"]) == ("hands", 1, 1, True)
    assert data["ci"][0] <= 1 <= data["ci"][1]


def test_count_of_a_paradox_is_an_error(tmp_path, capsys) -> None:
    record = tmp_path / "paradox.txt"
    record.write_text("players A B\nA asks B for x: yes\nB asks A for y: no\n")  # B holds a y
    assert main(["gofish", "count", str(record)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "paradox at line 3" in err and err.count("\n") == 1


def test_solve_playing_on(capsys) -> None:
    assert main(["gofish", "solve", "--players", "2", "--playing-on", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["playing_on"] and data["no_four"]
    assert data["positions"] == 13 and not any(t["forced"] for t in data["teams"])

"""Quantum Go records: the paper's 6x6 game, strict replay errors, round trips, SGF, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from qcards.cli import main
from qcards.games.qgo.errors import QgoError
from qcards.games.qgo.record import (
    load_record,
    parse_record,
    replay,
    replay_json,
    summary,
    write_record,
)
from qcards.games.qgo.sgf import to_sgf

PAPER_6X6 = Path(__file__).parent / "data" / "qgo_ranchin_6x6.txt"


def replay_text(text: str):
    return replay(parse_record(text, "game.txt"))


def test_paper_6x6_game_replays_to_the_published_result():
    # Example 1 of the paper: "Black wins by four points" (area scoring, no komi). The record
    # file holds the paper's 30 moves; only the keep choices come from its bold stones and prose.
    data = replay_json(PAPER_6X6)
    assert data["result"] == "B+4"
    assert data["score"] == {"black": 20, "white": 16}
    assert data["moves"] == 30 and data["finished"]
    # Figure 6, the final position (no stone left entangled).
    assert data["board"] == ["WWW..W", "BWWWW.", "BBWBWW", ".BWBBB", ".BWB..", "..B..."]


def test_paper_6x6_collapses_as_the_prose_says():
    game = replay(load_record(PAPER_6X6))
    third, eighth, sixteenth = game.turns[2], game.turns[7], game.turns[15]
    assert [(c.step, c.group.colour.value) for c in third.collapses] == [
        (1, "B"),
        (2, "W"),
        (3, "B"),
    ]
    assert [c.step for c in eighth.collapses] == [2, 3]
    # The paper numbers the last captures differently in its prose ("24 captures three
    # stones"); in its own record it is White 26 at F6, taking D6, E6 and F5.
    assert len(game.turns[25].captured) == 3
    assert game.turns[22].captured  # Black 23 at F5 takes the white F6 stone first
    assert sixteenth.record_line() == "W E5 B4 keep E6 E5"


def test_the_issue_example_breaks_alternation():
    # The format illustration in the issue ends with "B pass" right after a black move; the
    # rules make the colours alternate, so the record is refused at that line.
    text = "size 6\nkomi 0\nB D3 C2\nW C4 D5\nB D4 C3 keep D3 C4 D4\nB pass\n"
    with pytest.raises(QgoError, match=r"^game.txt, line 6: White is to move, not Black$"):
        replay_text(text)
    assert summary(replay_text(text.replace("B pass", "W pass")))["moves"] == 4


OPENING = "size 6\nB D3 C2\nW A1 F3\nB E6 A5\n"  # three pairs, none touching


@pytest.mark.parametrize(
    "line, message",
    [
        ("W A2 D3", "line 5: D3 is occupied"),
        (
            "W C3 F1",
            "line 5: Black pair D3 C2 collapses .step 2.: keep D3 or C2; the record "
            "lists none of its stones",
        ),
        (
            "W C3 F1 keep C2",
            "line 5: White pair C3 F1 collapses .step 3.: keep C3 .must touch "
            "C2, just collapsed.; the record lists none",
        ),
        (
            "W E5 B4 keep E6 B4",
            "line 5: .* keep E5 .must touch E6, just collapsed.; the record lists B4",
        ),
        ("W E5 B4 keep E6 E5 A1", "line 5: keep A1: no group collapsing"),
        ("W E5 B4 keep", "line 5: 'keep' needs"),
        ("W Z9 A1", "line 5: Z9 is off the 6x6 board"),
        ("size 9", "line 5: 'size' must come before the first move"),
        ("X A1 B2", "line 5: expected B or W"),
        ("W B1", "line 5: White places 2 stone.s., not 1"),
    ],
)
def test_bad_lines_name_the_line(line, message):
    text = OPENING + line + "\n"
    with pytest.raises(QgoError, match=f"^game.txt, {message}"):
        replay_text(text)


def test_forced_choices_must_still_be_listed():
    with pytest.raises(QgoError, match=r"keep E5 \(must touch E6"):
        replay_text(OPENING + "W E5 B4 keep E6\n")


def test_superko_line_is_an_error():
    # each stone comes with a twin next to it, so every move collapses at once
    ko = "size 5\nB B3 B4 keep B3\nW C3 C4 keep C3\nB A2 A3 keep A2\nW B2 C2 keep B2\n"
    ko += "B B1 A1 keep B1\nW D2 E2 keep D2\nB E4 E5 keep E4\nW C1 D1 keep C1\n"
    ko += "B C2 E1 keep C2\n"  # takes the ko at B2
    replay_text(ko)
    with pytest.raises(QgoError, match=r"line 11: W B2 A4 recreates an earlier position"):
        replay_text(ko + "W B2 A4 keep B2\n")
    assert replay_text(ko + "W B2 A4 keep A4\n").turns[-1].captured == ()


def test_moves_after_the_end_are_refused():
    with pytest.raises(QgoError, match="line 4: the game is over"):
        replay_text("size 5\nB pass\nW pass\nB A1 C3\n")


def test_header_values_and_variants_are_checked():
    with pytest.raises(QgoError, match="line 1: board size must be 2 to 25"):
        replay_text("size 40\n")
    with pytest.raises(QgoError, match="unknown variant 'strong'"):
        replay_text("variant strong\nB pass\n")
    rules = parse_record("size 9\nkomi 7.5\nvariant weak\n").rules
    assert (rules.size, rules.komi, rules.variants) == (9, 7.5, ("weak",))


def test_write_record_round_trips():
    game = replay(load_record(PAPER_6X6))
    again = replay_text(write_record(game))
    assert summary(again) == summary(game)
    assert [t.record_line() for t in again.turns] == [t.record_line() for t in game.turns]


def test_sgf_export_holds_every_move():
    sgf = to_sgf(replay(load_record(PAPER_6X6)))
    assert sgf.startswith("(;GM[1]FF[4]") and sgf.rstrip().endswith(")")
    assert "SZ[6]" in sgf and "KM[0]" in sgf and "RE[B+4]" in sgf
    assert sgf.count("\n;") == 30
    # the second move leaves four entangled stones, marked with triangles
    assert ";AW[cc][db]TR[cc][ce][db][dd]PL[B]C[W C4 D5]" in sgf


def test_cli_replay_text_and_json(capsys, tmp_path):
    sgf = tmp_path / "game.sgf"
    assert main(["qgo", "replay", str(PAPER_6X6), "--sgf", str(sgf)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["A", "B", "C", "D", "E", "F"]
    assert out.rstrip().endswith("30 moves, finished: Black 20, White 16 (komi 0): B+4")
    assert sgf.read_text().startswith("(;GM[1]")
    assert main(["qgo", "replay", str(PAPER_6X6), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == "B+4"


def test_cli_replay_error_is_one_line(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("size 6\nB D3 C2\nW D3 A1\n")
    assert main(["qgo", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {bad}, line 3: D3 is occupied\n"
    assert main(["qgo", "replay", str(tmp_path / "missing.txt")]) == 2
    assert "cannot read" in capsys.readouterr().err

"""The command line's tables: no line over 100 columns, piped or on a terminal, every cell's
text kept (a wide column wraps within itself)."""

from __future__ import annotations

import io
import re
import sys

import pytest

from qcards.cli.output import TABLE_WIDTH, fitted_widths, print_table

WIDE_HEADERS = ["figure", "stage", "first", "outcomes", "paper", "agrees", "registers"]
REGISTERS = "12 outcomes, 25 qubits, max |p - exact| 1.1e-16, from the paper's Table-code registers"
WIDE_ROW = ["Fig. 11", "after the first trick", "CA", 12, 8, False, REGISTERS]


def test_a_narrow_table_is_unchanged(capsys):
    print_table(["a", "bb"], [[1, "x"], ["long", None]])
    assert capsys.readouterr().out.splitlines() == ["a     bb", "----  --", "1     x", "long  -"]


def test_a_wide_table_wraps_within_its_columns(capsys):
    print_table(WIDE_HEADERS, [WIDE_ROW, WIDE_ROW])
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines) <= TABLE_WIDTH
    assert len(lines) > 4  # the rows took more than a line each
    start = lines[0].index("registers")
    column = " ".join(line[start:].strip() for line in lines[2:] if line[start:].strip())
    assert column == " ".join([str(WIDE_ROW[-1])] * 2)  # every word kept, in order
    assert lines[2].startswith("Fig. 11") and lines[1].startswith("-------  ")


def test_widths_never_cut_a_word():
    cells = [["h", "x"], ["a" * 70, "b" * 60]]
    assert fitted_widths(cells, TABLE_WIDTH) == [70, 60]  # cannot fit: words stay whole


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_on_a_terminal_the_table_is_at_most_as_wide(monkeypatch):
    screen = _Terminal()
    monkeypatch.setattr(sys, "stdout", screen)
    monkeypatch.setenv("COLUMNS", "200")
    print_table(WIDE_HEADERS, [WIDE_ROW])
    lines = re.sub(r"\x1b\[[0-9;]*m", "", screen.getvalue()).splitlines()  # no colours
    assert lines and max(len(line) for line in lines) <= TABLE_WIDTH


@pytest.mark.parametrize("width", [40, 60, 100])
def test_fitted_widths_fit_when_words_allow(width):
    cells = [[str(h) for h in WIDE_HEADERS], [str(v) for v in WIDE_ROW]]
    widths = fitted_widths(cells, width)
    floors = [max(len(w) for row in cells for w in row[i].split()) for i in range(len(widths))]
    fits = sum(widths) + 2 * (len(widths) - 1) <= width
    assert fits or widths == floors

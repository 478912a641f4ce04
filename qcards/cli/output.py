"""The command line's output and error text, without the library behind it: JSON and tables,
the ``error:`` wording of a parameter as its flag. Pure Python (``rich`` on a terminal only),
so a command that needs no circuits (``qcards score``) starts without importing them."""

from __future__ import annotations

import json
import math
import sys
import textwrap
from collections.abc import Sequence

from qcards.errors import QcardsError

FLAGS = {
    "algorithm": "--algorithm",
    "bots": "--bots",
    "depth": "--depth",
    "games": "--games",
    "hands": "--rounds",
    "max_moves": "--max-moves",
    "maxiter": "--maxiter",
    "names": "--names",
    "players": "--players",
    "plot": "--plot",
    "alpha": "--alpha",
    "backend": "--backend",
    "beliefs": "--beliefs",
    "tremble": "--tremble",
    "construction": "--construction",
    "deals": "--deals",
    "player": "--player",
    "rounds": "--rounds",
    "records": "--records",
    "dynamical_decoupling": "--dynamical-decoupling",
    "epsilon": "--epsilon",
    "eval_qubits": "--eval-qubits",
    "first": "--first",
    "force": "--force",
    "method": "--method",
    "model": "--model",
    "objective": "--objective",
    "seed": "--seed",
    "shots": "--shots",
    "skats": "--skats",
    "stages": "--stages",
}
"""The flag that sets each library parameter an error may name."""


def error_message(exc: QcardsError) -> str:
    """The library's message with the parameters it names written as this CLI's flags
    (``{epsilon} must ...`` reads ``--epsilon must ...``)."""
    return exc.render({name: FLAGS.get(name, name) for name in exc.parameters})


def json_argument(parser) -> None:
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")


def print_json(data) -> None:
    """``data`` as strict JSON: a value that is not a finite number (NaN, infinity), which JSON
    cannot hold, is written as ``null``."""
    json.dump(_finite(data), sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


def _finite(value):
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


NOTE_WIDTH = 60
"""Text values longer than this (a sentence, such as ``method_reason``) are printed under a
record's table, not in it: a cell that long pads every row past a terminal's width."""


NOTE_LINE = 100
"""The width those notes are wrapped to (issue 41: nothing wider than 100 columns)."""


def print_record(data: dict, as_json: bool) -> None:
    """A flat result: JSON, or a two-column quantity/value table with long text values as
    ``key: text`` lines under it."""
    if as_json:
        print_json(data)
        return
    notes = {k: v for k, v in data.items() if isinstance(v, str) and len(v) > NOTE_WIDTH}
    print_table(["quantity", "value"], [(k, v) for k, v in data.items() if k not in notes])
    for key, text in notes.items():
        print(textwrap.fill(f"{key}: {text}", NOTE_LINE, subsequent_indent="  "))


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A table on stdout: drawn by ``rich`` on a terminal, plain aligned text when piped (the
    form scripts and the documentation's examples read)."""
    cells = [[str(h) for h in headers]] + [[_cell(v) for v in row] for row in rows]
    if _terminal():
        from rich import box
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(*cells[0], box=box.SIMPLE_HEAD, header_style="bold")
        for row in cells[1:]:
            table.add_row(*(Text(v) for v in row))  # Text: "[0.41, 0.43]" is not markup
        Console().print(table)
        return
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    for k, row in enumerate(cells):
        print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
        if k == 0:
            print("  ".join("-" * w for w in widths))


def _terminal() -> bool:
    """Whether stdout is a terminal (not when it is closed: ``sys.stdout`` is then ``None``)."""
    isatty = getattr(sys.stdout, "isatty", None)
    return bool(isatty and isatty())


def _cell(value: object) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    if isinstance(value, float):
        return f"{value:.6f}"
    if isinstance(value, list | tuple) and value and all(isinstance(v, float) for v in value):
        return "[" + ", ".join(_cell(v) for v in value) + "]"  # an interval
    return str(value)

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
    "bid": "--bid",
    "bidding": "--bidding",
    "behaviour": "--behaviour",
    "data": "--data",
    "epochs": "--epochs",
    "hidden": "--hidden",
    "temperature": "--temperature",
    "beliefs": "--beliefs",
    "tremble": "--tremble",
    "construction": "--construction",
    "deals": "--deals",
    "player": "--player",
    "rounds": "--rounds",
    "records": "--records",
    "resume": "--resume",
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
    "top": "--top",
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


def print_record(data: dict, as_json: bool) -> None:
    """A flat result: JSON, or a two-column quantity/value table with long text values as
    ``key: text`` lines under it."""
    if as_json:
        print_json(data)
        return
    notes = {k: v for k, v in data.items() if isinstance(v, str) and len(v) > NOTE_WIDTH}
    print_table(["quantity", "value"], [(k, v) for k, v in data.items() if k not in notes])
    for key, text in notes.items():
        print_note(f"{key}: {text}", subsequent="  ")


TABLE_WIDTH = 100
"""No line of a table is wider than this: cells of the widest columns wrap within them."""


def print_note(text: str, first: str = "", subsequent: str = "") -> None:
    """A sentence beside a table (above or under it), wrapped to :data:`TABLE_WIDTH`; ``first``
    and ``subsequent`` indent its first and its other lines."""
    print(textwrap.fill(text, TABLE_WIDTH, initial_indent=first, subsequent_indent=subsequent))


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A table on stdout, no line over :data:`TABLE_WIDTH` columns: drawn by ``rich`` on a
    terminal (at most that wide), plain aligned text when piped (the form scripts and the
    documentation's examples read), where a table too wide for it wraps its widest columns'
    cells onto more lines."""
    cells = [[str(h) for h in headers]] + [[_cell(v) for v in row] for row in rows]
    if _terminal():
        from rich import box
        from rich.console import Console
        from rich.table import Table
        from rich.text import Text

        table = Table(*cells[0], box=box.SIMPLE_HEAD, header_style="bold")
        for row in cells[1:]:
            table.add_row(*(Text(v) for v in row))  # Text: "[0.41, 0.43]" is not markup
        console = Console()
        console.width = min(console.width, TABLE_WIDTH)
        console.print(table)
        return
    widths = fitted_widths(cells, TABLE_WIDTH)
    for k, row in enumerate(cells):
        wrapped = [_wrap(v, w) for v, w in zip(row, widths, strict=True)]
        for line in range(max(len(parts) for parts in wrapped)):
            print(
                "  ".join(
                    (parts[line] if line < len(parts) else "").ljust(w)
                    for parts, w in zip(wrapped, widths, strict=True)
                ).rstrip()
            )
        if k == 0:
            print("  ".join("-" * w for w in widths))


def fitted_widths(cells: Sequence[Sequence[str]], limit: int) -> list[int]:
    """Column widths for plain text: each column as wide as its widest cell, then, while the
    table (two spaces between columns) is wider than ``limit``, the widest column that can
    still wrap narrowed by one; a column never narrows below its longest word."""
    columns = range(len(cells[0]))
    widths = [max(len(row[i]) for row in cells) for i in columns]
    floors = [max((len(word) for row in cells for word in row[i].split()), default=1)
              for i in columns]  # fmt: skip
    while sum(widths) + 2 * (len(widths) - 1) > limit:
        narrowable = [i for i in columns if widths[i] > floors[i]]
        if not narrowable:
            break
        widest = max(narrowable, key=lambda i: widths[i])
        widths[widest] -= 1
    return widths


def _wrap(text: str, width: int) -> list[str]:
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


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

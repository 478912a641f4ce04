"""``qcards tables``: the paper's tables and estimates recomputed, beside its printed values."""

from __future__ import annotations

import textwrap

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import json_argument, print_json
from qcards.paper.tables import comparison, comparison_json


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tables",
        help=SUMMARIES["tables"],
    )
    json_argument(p)
    p.set_defaults(run=run)


def _number(value: int | float) -> str:
    """Integers in full, floats to ten significant digits (the JSON has the exact values)."""
    return f"{value:,}" if isinstance(value, int) else f"{value:,.10g}"


WIDTH = 100
"""The widest line the text form prints: no table is wider than 100 columns."""


def run(args) -> int:
    if args.json:
        print_json(comparison_json())
        return 0
    rows = comparison()
    notes: dict[str, int] = {}
    for r in rows:
        notes.setdefault(r.note, len(notes) + 1)
    # Two lines a quantity, the printed and computed values under its name and the notes
    # (long, often shared) numbered below: the values of Eqs. 34-35 run to 37 digits, so one
    # line a quantity with its note could not stay within WIDTH.
    wide = max(len(r.quantity) for r in rows)
    print(f"{'quantity':{wide}}  agrees  note")
    print("    paper, computed")
    print(f"{'-' * wide}  ------  ----")
    for r in rows:
        agrees = "yes" if r.agrees else "NO"
        print(f"{r.quantity:{wide}}  {agrees:6}  [{notes[r.note]}]")
        print(f"    paper {_number(r.paper)}, computed {_number(r.computed)}")
    print("\nnotes:")
    for note, k in notes.items():
        print(textwrap.fill(note, WIDTH, initial_indent=f"[{k}] ", subsequent_indent="     "))
    differ = sum(not r.agrees for r in rows)
    print(f"\n{len(rows) - differ} of {len(rows)} agree at the printed precision.")
    return 0

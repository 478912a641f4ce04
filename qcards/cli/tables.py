"""``qcards tables``: the paper's tables and estimates recomputed, beside its printed values."""

from __future__ import annotations

from qcards.cli.common import json_argument, print_json, print_table
from qcards.paper.tables import comparison, comparison_json


def add_parser(sub) -> None:
    p = sub.add_parser(
        "tables",
        help="recompute Tables 8 and 9, Eqs. 32-39 and the Sec. IX estimates; compare with the "
        "paper's printed numbers",
    )
    json_argument(p)
    p.set_defaults(run=run)


def _number(value: int | float) -> str:
    """Integers in full, floats to ten significant digits (the JSON has the exact values)."""
    return f"{value:,}" if isinstance(value, int) else f"{value:,.10g}"


def run(args) -> int:
    if args.json:
        print_json(comparison_json())
        return 0
    rows = [
        (r.quantity, _number(r.paper), _number(r.computed), r.agrees, r.note) for r in comparison()
    ]
    print_table(["quantity", "paper", "computed", "agrees", "note"], rows)
    differ = sum(not r.agrees for r in comparison())
    print(f"\n{len(rows) - differ} of {len(rows)} agree at the printed precision.")
    return 0

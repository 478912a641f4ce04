"""``qcards export [--out DIR]``: the paper examples' circuits as OpenQASM 3 and QPY files."""

from __future__ import annotations

from qcards.cli.common import json_argument, print_json
from qcards.paper.export import DEFAULT_DIR, export_circuits


def add_parser(sub) -> None:
    p = sub.add_parser("export", help="write the paper examples' circuits (OpenQASM 3, QPY)")
    p.add_argument("--out", default=str(DEFAULT_DIR), help=f"directory (default {DEFAULT_DIR}/)")
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    paths = [str(p) for p in export_circuits(args.out)]
    if args.json:
        print_json({"files": paths})
    else:
        for path in paths:
            print(path)
    return 0

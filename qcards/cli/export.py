"""``qcards export [SPEC]``: game circuits as OpenQASM 3 and QPY files, for other stacks."""

from __future__ import annotations

from qcards.circuits.construction import DEFAULT_CONSTRUCTION
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    card_option,
    construction_argument,
    json_argument,
    load,
    print_json,
)
from qcards.errors import ParameterError
from qcards.paper.export import DEFAULT_DIR, FORMATS, export_circuits, export_spec


def add_parser(sub) -> None:
    p = sub.add_parser(
        "export",
        help=SUMMARIES["export"],
        description="Write a game circuit, measured into an 'outcome' register and lowered to "
        "{cx, u}, as OpenQASM 3 (.qasm) and QPY (.qpy) files that other stacks read. Without "
        "SPEC: the paper's four- and six-card examples in every construction, or the one "
        "--construction names (the files kept in circuits/). The outcome bits decode as "
        "qcards' GameLayout.measured qubits.",
    )
    p.add_argument("spec", nargs="?", help="endgame spec (TOML); default: the paper's examples")
    p.add_argument("--first", metavar="CARD", help="fix the declarer's first card, e.g. CA")
    construction_argument(p, default=None, note="efficient with SPEC, every construction without")
    p.add_argument(
        "--format",
        choices=(*FORMATS, "all"),
        default="all",
        help="qasm3 (OpenQASM 3 text), qpy (Qiskit's binary format) or all (default)",
    )
    p.add_argument("--out", default=str(DEFAULT_DIR), help=f"directory (default {DEFAULT_DIR}/)")
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    formats = FORMATS if args.format == "all" else (args.format,)
    if args.spec is None:
        if args.first is not None:
            raise ParameterError("first", "{first} needs a SPEC to fix the first card of")
        chosen = None if args.construction is None else (args.construction,)
        paths = export_circuits(args.out, formats, chosen)
    else:
        construction = args.construction or DEFAULT_CONSTRUCTION
        paths = export_spec(
            load(args.spec), args.out, card_option(args.first), construction, formats
        )
    if args.json:
        print_json({"files": [str(p) for p in paths]})
    else:
        for path in paths:
            print(path)
    return 0

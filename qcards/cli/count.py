"""``qcards count SPEC``: quantum counting / amplitude estimation of the win probability."""

from __future__ import annotations

from qcards.circuits.construction import NARROW_CONSTRUCTION
from qcards.circuits.task import GameTask
from qcards.cli.common import (
    card_option,
    construction_argument,
    estimation_arguments,
    estimation_options,
    force_argument,
    json_argument,
    load,
    print_record,
    spec_argument,
)
from qcards.estimation.counting import count


def add_parser(sub) -> None:
    p = sub.add_parser(
        "count", help="estimate p_win by quantum counting (canonical) or amplitude estimation"
    )
    spec_argument(p)
    estimation_arguments(p)
    # paper: the narrower circuit at the paper's sizes, as in the paper's counting
    construction_argument(p, default=NARROW_CONSTRUCTION)
    p.add_argument("--first", metavar="CARD", help="fix the declarer's first card")
    force_argument(p)
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    options = estimation_options(args)
    task = GameTask(load(args.spec), card_option(args.first), args.construction)
    result = count(task, options, force=args.force)
    data = result.to_json()
    if not args.json:
        data["ci"] = f"[{data['ci'][0]:.6f}, {data['ci'][1]:.6f}]"
    print_record(data, args.json)
    return 0

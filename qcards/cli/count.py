"""``qcards count SPEC``: quantum counting / amplitude estimation of the win probability, or
of a declared game's expected score through the payoff oracle (``--objective``)."""

from __future__ import annotations

from qcards.circuits.construction import NARROW_CONSTRUCTION
from qcards.circuits.task import GameTask
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    card_option,
    construction_argument,
    estimation_arguments,
    estimation_options,
    force_argument,
    json_argument,
    load,
    objective_argument,
    print_record,
    spec_argument,
)
from qcards.estimation.counting import CountResult, PayoffCountResult, count, count_payoff


def add_parser(sub) -> None:
    p = sub.add_parser("count", help=SUMMARIES["count"])
    spec_argument(p)
    estimation_arguments(p)
    # paper: the narrower circuit at the paper's sizes, as in the paper's counting
    construction_argument(p, default=NARROW_CONSTRUCTION)
    p.add_argument("--first", metavar="CARD", help="fix the declarer's first card")
    objective_argument(p)
    force_argument(p)
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    options = estimation_options(args)
    task = GameTask(load(args.spec), card_option(args.first), args.construction)
    result: CountResult | PayoffCountResult
    if args.objective == "win":
        result = count(task, options, force=args.force)
    else:  # the payoff oracle: the expected score, by weighted counting
        result = count_payoff(task, args.objective, options, force=args.force)
    data = result.to_json()
    if not args.json:
        data["ci"] = f"[{data['ci'][0]:.6f}, {data['ci'][1]:.6f}]"
    print_record(data, args.json)
    return 0

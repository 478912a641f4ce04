"""``qcards evaluate SPEC...``: win probability and expected points of endgames.

One spec prints one record. Several print one record each (JSON: a list), led by the spec's
path; they are independent, so ``--dask`` can run them side by side.
"""

from __future__ import annotations

from qcards.analysis.evaluate import evaluate_specs
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    card_option,
    evaluation_arguments,
    load,
    print_json,
    print_record,
    spec_argument,
)


def add_parser(sub) -> None:
    p = sub.add_parser("evaluate", help=SUMMARIES["evaluate"])
    spec_argument(p, many=True)
    p.add_argument("--first", metavar="CARD", help="fix the declarer's first card, e.g. CA")
    evaluation_arguments(p, "how the number is computed")
    p.set_defaults(run=run)


def run(args) -> int:
    specs = [load(path, args.history) for path in args.spec]
    reports = evaluate_specs(
        specs,
        args.dask,
        first=card_option(args.first),
        model=args.model,
        method=args.method,
        shots=args.shots,
        seed=args.seed,
        construction=args.construction,
        force=args.force,
    )
    if len(reports) == 1:
        print_record(reports[0].to_json(), args.json)
        return 0
    records = [{"spec": path, **r.to_json()} for path, r in zip(args.spec, reports, strict=True)]
    if args.json:
        print_json(records)
        return 0
    for k, record in enumerate(records):
        if k:
            print()
        print_record(record, as_json=False)
    return 0

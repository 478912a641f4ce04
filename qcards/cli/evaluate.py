"""``qcards evaluate SPEC``: win probability and expected points of an endgame."""

from __future__ import annotations

from qcards.analysis import METHODS, evaluate_spec
from qcards.classical import MODELS
from qcards.cli.common import (
    card_option,
    construction_argument,
    json_argument,
    load,
    print_record,
    spec_argument,
)
from qcards.errors import QcardsError


def add_parser(sub) -> None:
    p = sub.add_parser("evaluate", help="p_win and expected declarer points of a spec")
    spec_argument(p)
    p.add_argument("--first", metavar="CARD", help="fix the declarer's first card, e.g. CA")
    p.add_argument("--model", choices=MODELS, default="random", help="how the players play")
    p.add_argument("--method", choices=METHODS, default="auto", help="how the number is computed")
    p.add_argument("--shots", type=int, default=1000, help="shots for --method aer")
    p.add_argument("--seed", type=int, default=None, help="sampler seed for --method aer")
    construction_argument(p)
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    if args.shots < 1:
        raise QcardsError("--shots must be at least 1")
    spec = load(args.spec)
    report = evaluate_spec(
        spec,
        card_option(args.first),
        args.model,
        args.method,
        args.shots,
        args.seed,
        args.construction,
    )
    print_record(report.to_json(), args.json)
    return 0

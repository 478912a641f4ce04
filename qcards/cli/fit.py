"""``qcards fit SPEC``: the softmax play model's parameters fitted role by role (the paper's
variational card-play weights, Sec. X.1)."""

from __future__ import annotations

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    force_argument,
    json_argument,
    load,
    objective_argument,
    print_json,
    print_table,
    spec_argument,
)
from qcards.cli.output import print_note


def add_parser(sub) -> None:
    p = sub.add_parser(
        "fit",
        help=SUMMARIES["fit"],
    )
    spec_argument(p)
    objective_argument(p)
    p.add_argument("--rounds", type=int, default=2, help="rounds of one fit per role")
    p.add_argument(
        "--optimizer", choices=("cobyla", "spsa", "nelder-mead"), default="cobyla",
        help="qiskit-algorithms optimiser",
    )  # fmt: skip
    p.add_argument("--maxiter", type=int, default=40, help="iterations of each fit")
    p.add_argument(
        "--shots", type=int, default=None,
        help="value each parameter set by N games played on sampled deals (one seed for all), "
        "instead of the referee's exact expectation",
    )  # fmt: skip
    p.add_argument("--seed", type=int, default=None, help="seed of the sampled deals")
    p.add_argument(
        "--method", choices=("classical", "circuit", "monte-carlo"), default=None,
        help="how each parameter set is valued: classical, the referee's exact expectation "
        "(default); circuit, the policy-weighted game circuit's exact final state; "
        "monte-carlo, games on sampled deals (default with --shots)",
    )  # fmt: skip
    force_argument(p)
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from qcards.analysis.fit import fit
    from qcards.execution.budget import check_shots

    if args.shots is not None:
        check_shots(args.shots)
    spec = load(args.spec)
    result = fit(spec, args.objective, args.rounds, args.optimizer, args.maxiter, args.shots,
                 args.seed, method=args.method, force=args.force)  # fmt: skip
    if args.json:
        print_json(result.to_json())
        return 0
    features = list(result.theta["declarer"])
    rows = [
        [r.role, f"{r.before:.6f}", f"{r.after:.6f}", r.evaluations,
         *(f"{r.theta.get(f, 0.0):+.2f}" for f in features)]
        for r in result.rounds
    ]  # fmt: skip
    print_table(["role", "before", "after", "evaluations", *features], rows)
    summary = (
        f"the declarer's expected {args.objective} ({result.method}): {result.start:.6f} with "
        f"the hand-set parameters, {result.rounds[-1].after:.6f} after {len(result.rounds)} fits"
    )
    print()
    print_note(summary)
    return 0

"""``qcards count SPEC``: quantum counting / amplitude estimation of the win probability."""

from __future__ import annotations

from qcards.cli.common import (
    card_option,
    json_argument,
    load,
    print_record,
    spec_argument,
)
from qcards.counting import BACKENDS, METHODS, count


def add_parser(sub) -> None:
    p = sub.add_parser(
        "count", help="estimate p_win by quantum counting (canonical) or amplitude estimation"
    )
    spec_argument(p)
    p.add_argument("--method", choices=METHODS, default="iae", help="estimation algorithm")
    p.add_argument("--epsilon", type=float, default=0.01, help="target precision (iae, mlae)")
    p.add_argument("--alpha", type=float, default=0.05, help="1 - confidence level")
    p.add_argument("--eval-qubits", type=int, default=4, help="phase-estimation qubits (canonical)")
    p.add_argument("--backend", default="ddsim", help=f"one of {', '.join(BACKENDS)}")
    p.add_argument("--shots", type=int, default=100, help="shots per circuit")
    p.add_argument("--seed", type=int, default=None, help="sampler seed")
    p.add_argument("--first", metavar="CARD", help="fix the declarer's first card")
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    result = count(
        load(args.spec),
        card_option(args.first),
        method=args.method,
        epsilon=args.epsilon,
        alpha=args.alpha,
        eval_qubits=args.eval_qubits,
        shots=args.shots,
        seed=args.seed,
        backend=args.backend,
    )
    data = result.to_json()
    if not args.json:
        data["ci"] = f"[{data['ci'][0]:.6f}, {data['ci'][1]:.6f}]"
    print_record(data, args.json)
    return 0

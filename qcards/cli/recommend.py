"""``qcards recommend SPEC``: the declarer's first cards ranked by win probability."""

from __future__ import annotations

from qcards.analysis.evaluate import METHODS, recommend_spec
from qcards.cli.common import (
    construction_argument,
    dask_argument,
    force_argument,
    history_argument,
    json_argument,
    load,
    print_json,
    print_table,
    spec_argument,
)
from qcards.skat.referee import MODELS


def add_parser(sub) -> None:
    p = sub.add_parser("recommend", help="p_win of each first card of the declarer, best first")
    spec_argument(p)
    p.add_argument("--model", choices=MODELS, default="random", help="how the players play")
    p.add_argument("--method", choices=METHODS, default="auto", help="how p_win is computed")
    p.add_argument("--seed", type=int, default=None, help="sampler seed for --method aer")
    history_argument(p)
    construction_argument(p)
    dask_argument(p)
    force_argument(p)
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    ranked = recommend_spec(
        load(args.spec, args.history),
        args.model,
        args.method,
        args.seed,
        args.construction,
        args.dask,
        force=args.force,
    )
    cards = [
        {
            "card": str(card),
            "p_win": r.p_win,
            "p_win_exact": r.to_json()["p_win_exact"],
            "method": r.method,
        }
        for card, r in ranked
    ]
    if args.json:
        print_json({"model": args.model, "cards": cards})
    else:
        print_table(["card", "p_win", "exact", "method"], [list(c.values()) for c in cards])
    return 0

"""``qcards recommend SPEC``: the declarer's first cards ranked by win probability."""

from __future__ import annotations

from qcards.analysis.evaluate import card_differences, recommend
from qcards.cli.common import (
    evaluation_arguments,
    load,
    objective_argument,
    print_json,
    print_table,
    spec_argument,
)


def add_parser(sub) -> None:
    p = sub.add_parser("recommend", help="p_win of each first card of the declarer, best first")
    spec_argument(p)
    evaluation_arguments(p, "how p_win is computed")
    objective_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    ranked = recommend(
        load(args.spec, args.history),
        args.model,
        args.method,
        args.seed,
        args.construction,
        args.dask,
        force=args.force,
        shots=args.shots,
        objective=args.objective,
    )
    cards = []
    for (card, r), gap in zip(ranked, card_differences(ranked), strict=True):
        record = r.to_json()
        entry = {
            "card": str(card),
            "p_win": r.p_win,
            "p_win_exact": record["p_win_exact"],
            "expected_points": r.expected_points,
            "method": r.method,
        }
        if r.scores is not None:
            entry.update(r.scores.to_json())
        if gap is not None:  # sampled: the interval, and the gap to the best on the same deals
            entry["ci"] = record["ci"]
            entry["expected_points_ci"] = record["expected_points_ci"]
            entry["delta_vs_best"] = gap[0]
            entry["delta_ci"] = list(gap[1])
        cards.append(entry)
    sampled = ranked[0][1].samples if ranked else None
    if args.json:
        out = {"model": args.model, "cards": cards}
        if sampled is not None:
            out.update(shots=sampled.count, seed=sampled.seed)
        print_json(out)
        return 0
    if sampled is None:
        columns = ["card", "p_win", "p_win_exact", "expected_points", "method"]
        if any("expected_seeger_fabian" in c for c in cards):
            columns += ["expected_score", "expected_seeger_fabian"]
        print_table(
            [c.replace("p_win_exact", "exact") for c in columns],
            [[c.get(k) for k in columns] for c in cards],
        )
        return 0
    print_table(
        ["card", "p_win", "95% interval", "vs best", "95% interval", "points", "method"],
        [
            [c["card"], c["p_win"], _interval(c["ci"]), c["delta_vs_best"],
             _interval(c["delta_ci"]), c["expected_points"], c["method"]]
            for c in cards
        ],
    )  # fmt: skip
    print(f"{sampled.count:,} shots per card, seed {sampled.seed}: the same deals for every card")
    return 0


def _interval(pair) -> str:
    return f"[{pair[0]:.4f}, {pair[1]:.4f}]"

"""``qcards declare SPEC``: the declarer's hands under every game type, best first."""

from __future__ import annotations

from typing import cast

from qcards.analysis.decision_plays import runner_for
from qcards.analysis.decisions import declare_twelve, holds_two_more
from qcards.analysis.declare import declare
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    evaluation_arguments,
    objective_argument,
    print_json,
    print_options,
    print_table,
    runner_options,
    spec_argument,
)
from qcards.errors import ParameterError, SpecError
from qcards.files import read_text

TOP = 20
"""The options ``--top`` shows by default."""


def add_parser(sub) -> None:
    p = sub.add_parser(
        "declare",
        help=SUMMARIES["declare"],
    )
    spec_argument(p)
    evaluation_arguments(p, "how p_win is computed", history=False)
    objective_argument(
        p, None, "; default win, or seeger-fabian when the declarer holds twelve cards"
    )
    p.add_argument(
        "--bid",
        type=int,
        default=None,
        help="with twelve cards: the bid the game must reach (default 18; with ten cards a "
        "declared game's bid is the spec's [declaration] bid)",
    )
    p.add_argument(
        "--top",
        type=int,
        default=None,
        help=f"with twelve cards: options shown (default {TOP}; --json: all)",
    )
    p.set_defaults(run=run)


def run(args) -> int:
    # the spec's text, read under each game type: a prior no deal satisfies under the spec's own
    # type refuses that type alone, and the others are still ranked
    text = read_text(args.spec, SpecError, "spec")
    if holds_two_more(text, args.spec):
        return _twelve(args, text)
    for name in ("bid", "top"):
        if getattr(args, name) is not None:  # refused, not ignored
            raise ParameterError(
                name,
                f"{{{name}}} applies to a declarer holding twelve cards (the Skat picked up), "
                "and this spec's declarer does not hold two cards more than the others"
                + ("; a declared game's bid is the spec's [declaration] bid" if name == "bid"
                   else ""),
            )  # fmt: skip
    choices = declare(
        text,
        source=args.spec,
        model=args.model,
        method=args.method,
        construction=args.construction,
        force=args.force,
        shots=args.shots,
        seed=args.seed,
        scheduler=args.dask,
        objective=args.objective or "win",
    )
    if all(c.report is None for c in choices):  # not one game type can be played
        raise SpecError(cast(str, choices[0].refused))  # a game not played says why
    if args.json:
        print_json({"model": args.model, "games": [c.to_json() for c in choices]})
        return 0
    rows = []
    scored = any(c.report is not None and c.report.scores is not None for c in choices)
    for c in choices:
        if c.report is None:
            rows.append([c.game.value, "-", "-", "-", *(["-", "-"] if scored else []), c.refused])
            continue
        record = c.report.to_json()
        note = ""
        if "ci" in record:
            note = "95% [{:.4f}, {:.4f}]".format(*record["ci"])
        row = [c.game.value, record["p_win"], record["p_win_exact"], record["expected_points"]]
        if scored:
            row += [record.get("expected_score"), record.get("expected_seeger_fabian")]
        rows.append([*row, note])
    headers = ["game", "p_win", "exact", "expected_points"]
    if scored:
        headers += ["expected_score", "expected_seeger_fabian"]
    print_table([*headers, "note"], rows)
    return 0


def _twelve(args, text: str) -> int:
    """The declarer holds twelve cards: every discard and game, best first."""
    top = TOP if args.top is None else args.top
    if top < 1:
        raise ParameterError("top", "{top} must be at least 1")
    decision = declare_twelve(
        text,
        args.spec,
        18 if args.bid is None else args.bid,
        runner_for(**runner_options(args)),
        objective=args.objective or "seeger-fabian",
    )
    if args.json:
        print_json(decision.to_json())
        return 0
    print_options(decision.options, top)
    best = decision.best
    print(
        f"\nbest: {best.name}, putting away {' '.join(str(c) for c in best.discard)} "
        f"({decision.plays} plays evaluated, equivalent discards once)"
    )
    return 0

"""``qcards declare SPEC``: the declarer's hands under every game type, best first."""

from __future__ import annotations

from qcards.analysis.declare import declare
from qcards.cli.common import evaluation_arguments, print_json, print_table, spec_argument
from qcards.errors import SpecError
from qcards.files import read_text


def add_parser(sub) -> None:
    p = sub.add_parser(
        "declare", help="p_win and expected points under each game type (suits, grand, null)"
    )
    spec_argument(p)
    evaluation_arguments(p, "how p_win is computed", history=False)
    p.set_defaults(run=run)


def run(args) -> int:
    # the spec's text, read under each game type: a prior no deal satisfies under the spec's own
    # type refuses that type alone, and the others are still ranked
    text = read_text(args.spec, SpecError, "spec")
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
    )
    if all(c.report is None for c in choices):  # not one game type can be played
        raise SpecError(choices[0].refused)
    if args.json:
        print_json({"model": args.model, "games": [c.to_json() for c in choices]})
        return 0
    rows = []
    for c in choices:
        if c.report is None:
            rows.append([c.game.value, "-", "-", "-", c.refused])
            continue
        record = c.report.to_json()
        note = ""
        if "ci" in record:
            note = "95% [{:.4f}, {:.4f}]".format(*record["ci"])
        rows.append(
            [c.game.value, record["p_win"], record["p_win_exact"], record["expected_points"], note]
        )
    print_table(["game", "p_win", "exact", "expected_points", "note"], rows)
    return 0

"""``qcards warm-up``: compile the solvers ahead of their first use (numba's on-disk cache)."""

from __future__ import annotations

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import json_argument, print_json, print_table


def add_parser(sub) -> None:
    p = sub.add_parser(
        "warm-up",
        help=SUMMARIES["warm-up"],
    )
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    from qcards.analysis.warm_up import warm_up

    steps = warm_up()
    if args.json:
        print_json({"steps": [s.to_json() for s in steps]})
        return 0
    if not steps:
        print("numba is not installed: the solvers run as Python, nothing to compile")
        return 0
    print_table(
        ["solver", "seconds", "compiled", "from the cache"],
        [[s.name, f"{s.seconds:.1f}", s.compiled, s.loaded] for s in steps],
    )
    total = sum(s.seconds for s in steps)
    compiled = sum(s.compiled for s in steps)
    print(
        f"\n{total:.1f} s in all; {compiled} functions compiled"
        + (" (the cache was filled: later runs load them)" if compiled else " (all from the cache)")
    )
    return 0

"""``qcards resources --cards-per-player N``: qubits, CX count and depth of the whole game."""

from __future__ import annotations

from qcards.analysis.resources import count_resources
from qcards.cli.common import construction_argument, json_argument, print_json, print_table
from qcards.errors import SpecError
from qcards.files import read_text


def add_parser(sub) -> None:
    p = sub.add_parser(
        "resources",
        help="qubits, CX and depth of the game circuit with N cards per player (10: full game)",
    )
    p.add_argument(
        "--cards-per-player",
        type=int,
        required=True,
        metavar="N",
        help="cards each of the three players holds (1..10), plus two in the skat",
    )
    construction_argument(p)
    p.add_argument(
        "--prior",
        metavar="FILE",
        help="TOML file with a [prior] table (void, holds, at_least, weight) for the deal: "
        "counts the weighted deal circuit (efficient construction)",
    )
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    prior = None
    if args.prior is not None:
        prior = read_text(args.prior, SpecError, "prior")  # a regular file of at most 1 MiB
    report = count_resources(
        args.cards_per_player, args.construction, prior=prior, prior_source=str(args.prior)
    )
    if args.json:
        print_json(report.to_json())
        return 0
    print(
        f"{report.construction} construction, {report.cards_per_player} cards per player: "
        f"{report.num_qubits} qubits (basis cx, u; unrouted)"
    )
    rows = [(name, c.cx, c.depth, c.source) for name, c in report.stages.items()]
    print_table(["stage", "cx", "depth", "source"], rows)
    return 0

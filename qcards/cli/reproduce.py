"""``qcards reproduce``: the paper's worked examples, figure by figure, beside its numbers."""

from __future__ import annotations

from pathlib import Path

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import json_argument, print_json, print_table
from qcards.cli.output import print_note
from qcards.errors import QcardsError
from qcards.paper.examples import EXAMPLES
from qcards.paper.gallery import paper_figures, write_index, write_new_figures
from qcards.paper.reproduce import reproduce


def add_parser(sub) -> None:
    p = sub.add_parser("reproduce", help=SUMMARIES["reproduce"])
    p.add_argument("which", nargs="?", default="all", choices=[*EXAMPLES, "all"])
    p.add_argument(
        "--out", default="qcards-out", help="directory for the figure gallery (PNGs, index.md)"
    )
    p.add_argument(
        "--paper-only",
        action="store_true",
        help="only the paper's figures: skip resource growth and estimation error (about 2 min)",
    )
    p.add_argument("--shots", type=int, default=1000, help="shots per histogram")
    p.add_argument("--seed", type=int, default=1, help="sampler seed")
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    which = list(EXAMPLES) if args.which == "all" else [args.which]
    if args.shots < 1:
        raise QcardsError("--shots must be at least 1")
    Path(args.out).mkdir(parents=True, exist_ok=True)  # fail before minutes of work
    result = reproduce(which, args.out, args.shots, args.seed)
    figures = paper_figures(result, args.out)
    if args.which == "all" and not args.paper_only:
        figures += write_new_figures(args.out)
    index = write_index(args.out, figures)
    records = {key: r.to_json() for key, r in result.items()}
    if args.json:
        records["gallery"] = {"index": str(index), "figures": figures}
        print_json(records)
        return 0
    for key, record in records.items():
        print(f"\n{key} ({record['section']}, {record['spec']})")
        print_table(
            [
                "figure",
                "stage",
                "first",
                "outcomes",
                "paper",
                "agrees",
                "max |p - exact|",
                "Table-code registers",
            ],
            [
                [
                    s["figure"],
                    s["name"],
                    s["first"],
                    s["num_outcomes"],
                    s["paper_num_outcomes"],
                    s["agrees"],
                    f"{s['max_abs_error']:.1e}",
                    f"{s['paper_registers']['num_outcomes']} outcomes, "
                    f"{s['paper_registers']['num_qubits']} qubits, "
                    f"max |p - exact| {s['paper_registers']['max_abs_error']:.1e}",
                ]
                for s in record["stages"]
            ],
        )
        for s in record["stages"]:
            if s["reason"]:
                _note(f"{s['figure']} differs: {s['reason']}")
        wins = record.get("first", {"-": record})
        print()
        print_table(
            ["first card", "p_win (circuit)", "exact", "paper", "agrees", "double dummy"],
            [
                [
                    c,
                    w["p_win"],
                    w["p_win_exact"],
                    w["p_win_paper"],
                    w["agrees"],
                    w["p_win_adversarial"],
                ]
                for c, w in wins.items()
            ],
        )
        for c, w in wins.items():
            if w["reason"]:
                _note(f"p_win ({c}) differs: {w['reason']}")
    print(f"\n{len(figures)} figures written to {args.out}/ (captions in {index})")
    return 0


def _note(text: str) -> None:
    """A note under a table, indented and wrapped to the tables' width."""
    print_note(text, first="  ", subsequent="    ")

"""``qcards bid SPEC``: Hand (each game and announcement) or pick up the Skat, and how high to
bid, by the expected Seeger-Fabian score."""

from __future__ import annotations

from qcards.analysis.decision_plays import runner_for
from qcards.analysis.decisions import SKATS, bid
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import decision_arguments, print_json, print_options, runner_options
from qcards.errors import SpecError
from qcards.files import read_text


def add_parser(sub) -> None:
    p = sub.add_parser(
        "bid",
        help=SUMMARIES["bid"],
    )
    p.add_argument("spec", help="endgame spec (TOML): the declarer's ten cards, a Skat of two")
    decision_arguments(p)
    p.add_argument(
        "--skats",
        type=int,
        default=None,
        help=f"with --shots: Skats drawn to value picking up (default {SKATS}; exact: every "
        "Skat, so refused without --shots)",
    )
    p.set_defaults(run=run)


def run(args) -> int:
    text = read_text(args.spec, SpecError, "spec")
    result = bid(text, args.spec, runner_for(**runner_options(args)), skats=args.skats)
    if args.json:
        print_json(result.to_json())
        return 0
    print_options(result.options)

    def interval(figures) -> str:
        ci = figures.seeger_fabian_ci
        return "" if ci is None else " 95% [{:.1f}, {:.1f}]".format(*ci)

    hand, pick = result.hand, result.pick_up
    sampled = " (chosen on half the shots, valued on the other)" if hand.seeger_fabian_ci else ""
    print(
        f"\nHand, best game ({result.hand_choice}): {hand.expected_seeger_fabian:.2f} "
        f"Seeger-Fabian points{sampled}{interval(hand)}"
    )
    print(
        f"pick up the Skat: {pick.expected_seeger_fabian:.2f} Seeger-Fabian points "
        f"({result.skats} Skats){interval(pick)}"
    )
    shown = "pass" if result.max_bid is None else str(result.max_bid)
    print(f"recommendation: {result.recommendation}; bid up to {shown}")
    return 0

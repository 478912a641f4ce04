"""``qcards train-bidder --games N --out MODEL``: the hand evaluator trained on the outcomes of
games played out by the heuristic (:mod:`qcards.analysis.train_bidder`)."""

from __future__ import annotations

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import print_json
from qcards.cli.train import training_arguments


def add_parser(sub) -> None:
    p = sub.add_parser("train-bidder", help=SUMMARIES["train-bidder"])
    p.add_argument("--out", required=True, metavar="MODEL",
                   help="the model file to write (.npz)")  # fmt: skip
    p.add_argument("--games", type=int, default=60_000,
                   help="games played out (every tenth held out)")  # fmt: skip
    training_arguments(p, 10, 32, "the outcomes file, written in chunks and resumed (default "
                       "MODEL.outcomes.jsonl)")  # fmt: skip
    p.set_defaults(run=run)


def run(args) -> int:
    from qcards.analysis.train_bidder import train_bidder

    result = train_bidder(args.out, args.games, args.epochs, args.hidden, args.seed, args.data,
                          args.checkpoint, args.force)  # fmt: skip
    if args.json:
        print_json({"model": result.out, "games": result.games, "epochs": result.epochs,
                    "loss": result.loss, "held_out_loss": result.held_out_loss,
                    "held_out_accuracy": result.held_out_accuracy,
                    "cpu_seconds": result.seconds})  # fmt: skip
        return 0
    print(
        f"{result.out}: {result.games:,} games; held-out log-loss {result.held_out_loss:.3f}, "
        f"won/lost called right {result.held_out_accuracy:.1%}; {result.seconds:.0f} s CPU"
    )
    return 0

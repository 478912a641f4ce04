"""``qcards train --games N --out MODEL``: the learned play model trained by imitation of PIMC
on positions of complete games (:mod:`qcards.analysis.train`)."""

from __future__ import annotations

from qcards.cli.commands import SUMMARIES
from qcards.cli.common import dask_argument, force_argument, json_argument, print_json


def add_parser(sub) -> None:
    p = sub.add_parser("train", help=SUMMARIES["train"])
    p.add_argument("--out", required=True, metavar="MODEL",
                   help="the model file to write (.npz)")  # fmt: skip
    p.add_argument("--games", type=int, default=100,
                   help="complete games whose positions PIMC labels")  # fmt: skip
    p.add_argument("--worlds", type=int, default=5, help="PIMC's sampled deals a card")
    p.add_argument("--temperature", type=float, default=0.5,
                   help="the softmax temperature the model plays at")  # fmt: skip
    p.add_argument("--behaviour", default="heuristic", metavar="PLAYER",
                   help="the match player of the games whose positions are labelled "
                   "(learned: the model's own play)")  # fmt: skip
    p.add_argument("--also", action="append", default=[], metavar="FILE",
                   help="an earlier run's positions file whose games are fitted too "
                   "(repeatable)")  # fmt: skip
    training_arguments(p, 60, 64, "the positions file, written game by game and resumed (default "
                       "MODEL.positions.jsonl)")  # fmt: skip
    dask_argument(p)
    p.set_defaults(run=run)


def training_arguments(p, epochs: int, hidden: int, data_help: str) -> None:
    """The options every training command takes: ``--epochs`` (default ``epochs``),
    ``--hidden`` (default ``hidden``), ``--seed``, ``--data`` (``data_help``),
    ``--checkpoint``, ``--force`` and ``--json``."""
    p.add_argument("--epochs", type=int, default=epochs, help="epochs of Adam")
    p.add_argument("--hidden", type=int, default=hidden,
                   help="units of each of two hidden layers")  # fmt: skip
    p.add_argument("--seed", type=int, default=0, help="the seed of the games and the fit")
    p.add_argument("--data", metavar="FILE", help=data_help)
    p.add_argument(
        "--checkpoint", metavar="FILE",
        help="the training state, written every epoch and resumed "
        "(default MODEL.checkpoint.npz)",
    )  # fmt: skip
    force_argument(p)
    json_argument(p)


def run(args) -> int:
    from qcards.analysis.train import train

    result = train(args.out, args.games, args.worlds, args.epochs, args.hidden, args.seed,
                   args.data, args.checkpoint, args.temperature, args.force, args.dask,
                   args.behaviour, tuple(args.also))  # fmt: skip
    if args.json:
        print_json(result.to_json())
        return 0
    held = result.held_out_agreement
    print(
        f"{result.model}: {result.positions:,} positions of {result.games} games; agreement "
        f"with PIMC {result.train_agreement:.1%} on the training positions, "
        + (f"{held:.1%} on held-out games" if held == held else "no game held out (ten or more)")
        + f"; {result.seconds:.0f} s"
    )
    return 0

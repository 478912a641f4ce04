"""Helpers shared by the subcommands: spec and card arguments, JSON and table output."""

from __future__ import annotations

import argparse
import sys

from qcards.analysis.methods.registry import AUTO, method_names
from qcards.circuits.construction import DEFAULT_CONSTRUCTION, construction_names, registry
from qcards.cli.output import (  # noqa: F401 (the commands import them from here too)
    FLAGS,
    error_message,
    json_argument,
    print_json,
    print_record,
    print_table,
)
from qcards.errors import SpecError
from qcards.estimation.options import EstimationOptions
from qcards.execution.backend_names import IBM_PREFIX
from qcards.execution.backends import backend_names
from qcards.skat.players import play_models
from qcards.skat.position.spec import Endgame, load_spec
from qcards.skat.rules.cards import Card, CardError


def _model_help() -> str:
    return "how the players play: " + "; ".join(
        f"{m.name}, {m.description}" for m in play_models.registry().values()
    )


MODEL_HELP = _model_help()
"""``--model``'s help: every registered play model with its description."""


def spec_argument(parser, many: bool = False) -> None:
    """The SPEC positional; with ``many``, one or more (``args.spec`` is then a list)."""
    if many:
        parser.add_argument("spec", nargs="+", help="endgame specs (TOML), each evaluated alone")
    else:
        parser.add_argument("spec", help="endgame spec (TOML)")


def dask_argument(parser) -> None:
    """``--dask SCHEDULER`` (:func:`qcards.execution.sweeps.sweep`); absent, no Dask at all."""
    parser.add_argument(
        "--dask",
        metavar="SCHEDULER",
        default=None,
        help="run the independent evaluations as Dask tasks: 'local' starts a cluster on this "
        "machine (one single-threaded worker per core), anything else is a scheduler address",
    )


def construction_argument(
    parser, default: str | None = DEFAULT_CONSTRUCTION, note: str = ""
) -> None:
    parser.add_argument(
        "--construction",
        choices=construction_names(),
        default=default,
        help="game circuit: "
        + ", ".join(f"{c.name} ({c.summary})" for c in registry().values())
        + f"; same results; default {note or default}",
    )


class _DeprecatedMethod(argparse.Action):
    """``--method`` of the counting commands: the old name of ``--algorithm``."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        print(
            f"warning: {parser.prog}: --method is deprecated here, use --algorithm {values}",
            file=sys.stderr,
        )
        setattr(namespace, self.dest, values)


def estimation_arguments(parser, epsilon: float = 0.01, eval_qubits: int = 4) -> None:
    """The options of amplitude estimation, shared by every command that counts."""
    # imported here: the registry loads qiskit-algorithms (about a second), which the commands
    # that do not count never need
    from qcards.estimation.algorithms import algorithm_names

    parser.add_argument(
        "--algorithm", choices=algorithm_names(), default="iae", help="estimation algorithm"
    )
    parser.add_argument(
        "--method",
        dest="algorithm",
        choices=algorithm_names(),
        action=_DeprecatedMethod,
        help="deprecated name of --algorithm",
    )
    parser.add_argument(
        "--epsilon", type=float, default=epsilon, help="target precision (iae, mlae)"
    )
    parser.add_argument("--alpha", type=float, default=0.05, help="1 - confidence level")
    parser.add_argument(
        "--eval-qubits", type=int, default=eval_qubits, help="phase-estimation qubits (canonical)"
    )
    names = [n for n in backend_names() if not n.startswith(IBM_PREFIX)]
    parser.add_argument(
        "--backend", default="sparse", help=f"one of {', '.join(names)} (default sparse)"
    )
    parser.add_argument("--shots", type=int, default=100, help="shots per circuit")
    parser.add_argument("--seed", type=int, default=None, help="sampler seed")


def estimation_options(args) -> EstimationOptions:
    """The :class:`EstimationOptions` that :func:`estimation_arguments` collected."""
    return EstimationOptions(
        algorithm=args.algorithm,
        epsilon=args.epsilon,
        alpha=args.alpha,
        eval_qubits=args.eval_qubits,
        shots=args.shots,
        seed=args.seed,
        backend=args.backend,
    )


def shots_arguments(parser) -> None:
    """``--shots N`` and ``--seed S`` of evaluate, recommend and declare."""
    parser.add_argument(
        "--shots",
        type=int,
        default=None,
        help="sample instead of computing exactly, at any size: random play samples the game "
        "circuit shot by shot as an ideal device would (--method auto or shots; Aer with "
        "--method aer, 1000 shots by default), the adversarial model solves N sampled deals "
        "double dummy; answers carry 95%% intervals",
    )
    parser.add_argument("--seed", type=int, default=None, help="seed of the sampling")


def force_argument(parser) -> None:
    parser.add_argument(
        "--force",
        action="store_true",
        help="run even if the work is estimated to take over 10 minutes (refused otherwise)",
    )


def history_argument(parser) -> None:
    parser.add_argument(
        "--history",
        metavar="PLAYS",
        help='cards already played in this deal, in order, e.g. "A:CA B:C9 C:C8": evaluates the '
        "rest of the game under the posterior over the deal (random play); whole tricks, "
        "except for recommend, which advises the seat to move at any moment",
    )


def evaluation_arguments(parser, method_help: str, history: bool = True) -> None:
    """The options of the commands that evaluate an endgame (``evaluate``, ``recommend``,
    ``declare``): the model, the method, shots, the history (``history``), the construction,
    Dask, ``--force`` and ``--json``."""
    parser.add_argument(
        "--model", choices=play_models.model_names(), default="random", help=MODEL_HELP
    )
    parser.add_argument("--method", choices=method_names(), default=AUTO, help=method_help)
    shots_arguments(parser)
    if history:
        history_argument(parser)
    construction_argument(parser)
    dask_argument(parser)
    force_argument(parser)
    json_argument(parser)


def objective_argument(parser, default: str | None = "win", note: str = "") -> None:
    """``--objective``: what a ranking optimises (:mod:`qcards.skat.solvers.objectives`)."""
    from qcards.skat.solvers.objectives import registry

    parser.add_argument(
        "--objective",
        choices=tuple(registry()),
        default=default,
        help="what to rank by: "
        + "; ".join(f"{o.name}, {o.description}" for o in registry().values())
        + " (score and seeger-fabian need the spec's [declaration])"
        + (note or f"; default {default}"),
    )


def decision_arguments(parser) -> None:
    """The options of the decisions (``declare`` with twelve cards, ``bid``): the model, the
    method, shots, the construction, Dask, ``--force`` and ``--json``."""
    parser.add_argument(
        "--model", choices=play_models.model_names(), default="random", help=MODEL_HELP
    )
    parser.add_argument(
        "--method",
        choices=("auto", "classical", "shots", "double-dummy", "pimc", "monte-carlo"),
        default="auto",
        help="random play: classical, the referee's exact outcomes, or shots, the circuit's "
        "shots (give --shots); adversarial: double-dummy (or classical), every deal solved, or "
        "pimc, --shots sampled deals solved; heuristic and softmax: classical, the referee "
        "weighted by the model, or monte-carlo, --shots games played by it; auto: the sampled "
        "method when --shots is given, else the exact one",
    )
    shots_arguments(parser)
    construction_argument(parser)
    dask_argument(parser)
    force_argument(parser)
    json_argument(parser)


def runner_options(args) -> dict:
    """The keyword arguments of :func:`qcards.analysis.decision_plays.runner_for`."""
    return {
        "model": args.model,
        "method": args.method,
        "shots": args.shots,
        "seed": args.seed,
        "construction": args.construction,
        "scheduler": args.dask,
        "force": args.force,
    }


def print_options(options, top: int | None = None) -> None:
    """A decision's options as a table, best first."""
    rows = []
    for o in options[:top]:
        f = o.figures
        exact = f.seeger_fabian_exact
        note = (
            "" if f.seeger_fabian_ci is None else "95% [{:.1f}, {:.1f}]".format(*f.seeger_fabian_ci)
        )
        rows.append(
            [
                o.name,
                " ".join(str(c) for c in o.discard) or "-",
                f.expected_seeger_fabian,
                "-" if exact is None else f"{exact.numerator}/{exact.denominator}",
                f.expected_score,
                f.p_won,
                note,
            ]
        )
    print_table(["game", "discard", "seeger_fabian", "exact", "score", "p_won", "note"], rows)
    if top is not None and len(options) > top:
        print(f"... and {len(options) - top} more options (--json lists them all)")


def load(path: str, history: str | None = None) -> Endgame:
    """The spec at ``path``; with a ``history``, the rest of its game after those plays
    (:func:`~qcards.skat.position.history.after_history`)."""
    spec = load_spec(path)
    if history is None:
        return spec
    from qcards.skat.position.history import after_history

    return after_history(spec, history)


def card_option(text: str | None) -> Card | None:
    if text is None:
        return None
    try:
        return Card.parse(text)
    except CardError as exc:
        raise SpecError(f"--first: {exc}") from None

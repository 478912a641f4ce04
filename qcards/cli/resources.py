"""``qcards resources``: qubits, CX count and depth of the whole game (``--cards-per-player N``
or a SPEC); with ``--fault-tolerant``, the logical counts and the physical cost on a
fault-tolerant computer of A, one Grover iterate and each estimation algorithm to
``--epsilon``."""

from __future__ import annotations

from qcards.analysis.fault_tolerant import FaultTolerantReport, fault_tolerant_cost
from qcards.analysis.resources import count_resources, payoff_resources
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    card_option,
    construction_argument,
    json_argument,
    load,
    objective_argument,
    print_json,
    print_table,
)
from qcards.cli.output import print_note
from qcards.errors import ParameterError, SpecError
from qcards.estimation.algorithms import algorithm_names
from qcards.execution.physical import DEFAULT_MODELS, QUBIT_MODELS
from qcards.files import read_text
from qcards.skat.players.play_models import get_model, model_names


def add_parser(sub) -> None:
    p = sub.add_parser(
        "resources",
        help=SUMMARIES["resources"],
    )
    p.add_argument("spec", nargs="?", help="endgame spec (TOML), instead of --cards-per-player")
    p.add_argument(
        "--cards-per-player",
        type=int,
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
    p.add_argument(
        "--fault-tolerant",
        action="store_true",
        help="logical counts (qubits, Toffoli/CCZ, T, rotations) of A, a Grover iterate and "
        "each estimation algorithm to --epsilon, and their physical cost by Microsoft's "
        "resource estimator (needs qcards[estimate])",
    )
    p.add_argument(
        "--epsilon", type=float, default=0.01, help="half-width aimed at (--fault-tolerant)"
    )
    p.add_argument("--alpha", type=float, default=0.05, help="1 - confidence (--fault-tolerant)")
    p.add_argument(
        "--qubit-model",
        action="append",
        choices=list(QUBIT_MODELS),
        help=f"the estimator's qubit model, repeatable (default: {', '.join(DEFAULT_MODELS)})",
    )
    p.add_argument(
        "--algorithm",
        action="append",
        choices=algorithm_names(),
        help="estimation algorithm, repeatable (default: all)",
    )
    p.add_argument("--first", help="fix the declarer's first card (with a SPEC)")
    p.add_argument(
        "--model",
        choices=[m for m in model_names() if get_model(m).policy is not None],
        default="random",
        help="the play model the card-play gates prepare: random (the paper's uniform CP "
        "gates) or a policy model's weighted gates (small endgames: they are built from the "
        "basis states the circuit reaches)",
    )
    objective_argument(p)
    json_argument(p)
    p.set_defaults(run=run)


def run(args) -> int:
    if (args.spec is None) == (args.cards_per_player is None):
        raise ParameterError("cards_per_player", "give a SPEC or --cards-per-player N (one)")
    if args.fault_tolerant:
        return _fault_tolerant(args)
    if args.spec is not None:
        raise ParameterError(
            "fault_tolerant", "a SPEC is counted with --fault-tolerant (CX counts take N)"
        )
    prior = None
    if args.prior is not None:
        prior = read_text(args.prior, SpecError, "prior")  # a regular file of at most 1 MiB
    report = count_resources(
        args.cards_per_player,
        args.construction,
        prior=prior,
        prior_source=str(args.prior),
        model=args.model,
    )
    payoff = None
    if args.objective != "win":  # the payoff oracle after the game (a clubs Hand game)
        payoff = payoff_resources(args.cards_per_player, args.objective, args.construction)
    if args.json:
        data = report.to_json()
        if payoff is not None:
            data["payoff_oracle"] = {"objective": args.objective, **payoff.to_json()}
        print_json(data)
        return 0
    weighted = "" if args.model == "random" else f", card plays weighted by {args.model}"
    print(
        f"{report.construction} construction, {report.cards_per_player} cards per player"
        f"{weighted}: {report.num_qubits} qubits (basis cx, u; unrouted)"
    )
    rows = [(name, c.cx, c.depth, c.source) for name, c in report.stages.items()]
    if payoff is not None:
        rows.append((f"payoff oracle ({args.objective})", payoff.cx, payoff.depth, payoff.source))
    print_table(["stage", "cx", "depth", "source"], rows)
    return 0


def _fault_tolerant(args) -> int:
    for option in ("prior",):
        if getattr(args, option) is not None:
            raise ParameterError(option, f"--{option} is not counted with --fault-tolerant")
    spec = load(args.spec) if args.spec is not None else None
    report = fault_tolerant_cost(
        spec=spec,
        cards_per_player=args.cards_per_player,
        epsilon=args.epsilon,
        alpha=args.alpha,
        qubit_models=args.qubit_model or DEFAULT_MODELS,
        algorithms=args.algorithm,
        first=card_option(args.first),
        objective=args.objective,
        model=args.model,
    )
    if args.json:
        print_json(report.to_json())
        return 0
    _print_report(report)
    return 0


def _print_report(report: FaultTolerantReport) -> None:
    if report.objective != "win":
        print_note(
            f"A is the game and the payoff oracle of {report.objective} (counted by N: a "
            "clubs Hand game); epsilon is the half-width of the payoff qubit's amplitude"
        )
    heading = (
        f"{report.source}: A from the {report.construction} construction (fewest Toffolis)"
        + ("" if report.model == "random" else f", card plays weighted by {report.model}")
        + "; "
        f"epsilon {report.epsilon:g} at confidence {1 - report.alpha:g}, schedules worked out "
        f"at amplitude {report.amplitude:g}"
    )
    print_note(heading)
    rows = [("A", report.a, "1 shot"), ("Grover iterate", report.grover_iterate, "")]
    rows += [(a.schedule.algorithm, a.total, _calls(a)) for a in report.algorithms]
    print_table(
        ["circuit", "qubits", "Toffoli/CCZ", "T", "rotations", "rot. depth", "schedule"],
        [
            (name, c.num_qubits, c.toffoli_class, c.t_gates, c.rotations, c.rotation_depth, s)
            for name, c, s in rows
        ],
    )
    if not report.a_models:
        return
    print()
    physical = [
        ("A", m.qubit_model, m.code_distance, m.physical_qubits, _time(m.runtime_seconds))
        for m in report.a_models
    ]
    for cost in report.algorithms:
        physical += [
            (
                cost.schedule.algorithm,
                m.qubit_model,
                m.code_distance,
                m.physical_qubits,
                _time(m.runtime_seconds),
            )
            for m in cost.models
        ]
    print_table(["circuit", "qubit model", "distance", "physical qubits", "wall time"], physical)


def _calls(cost) -> str:
    plan = cost.schedule
    return f"{plan.oracle_calls:,} Grover iterates in {plan.shots:,} shots"


def _time(seconds: float) -> str:
    """Seconds as the largest sensible unit."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.3g} {unit}"
    return f"{seconds:.3g} s"

"""``qcards run SPEC --backend B``: sample the game on a backend, decoded counts and p_win."""

from __future__ import annotations

import sys

from qcards.circuits.construction import DEVICE_CONSTRUCTION, NARROW_CONSTRUCTION
from qcards.circuits.game import build_game
from qcards.circuits.task import GameTask
from qcards.cli.commands import SUMMARIES
from qcards.cli.common import (
    card_option,
    construction_argument,
    force_argument,
    json_argument,
    load,
    print_json,
    print_table,
    spec_argument,
)
from qcards.cli.hardware import add_hardware_arguments, check_hardware_arguments, run_hardware
from qcards.errors import ParameterError, QcardsError
from qcards.execution.backend_names import DEVICE_PREFIXES, IBM_PREFIX
from qcards.execution.backends import LOCAL_BACKENDS
from qcards.execution.mitigation import MITIGATIONS
from qcards.execution.run import run as run_game
from qcards.files import figure_format
from qcards.skat.players.play_models import get_model, model_names
from qcards.viz.plots import save_histogram, save_points_histogram


def add_parser(sub) -> None:
    p = sub.add_parser("run", help=SUMMARIES["run"])
    spec_argument(p)
    p.add_argument(
        "--backend",
        default="aer",
        help=f"one of {', '.join(LOCAL_BACKENDS)}; fake:NAME (e.g. fake:FakeTorino), "
        "fake-aer:NAME, ibm:NAME",
    )
    p.add_argument("--shots", type=int, default=1000, help="measurements of the final state")
    p.add_argument(
        "--seed", type=int, default=None,
        help="seed of the simulator's sampling (and of a noisy emulation's transpilation and "
        "trajectories), so that a run repeats exactly; default: fresh each run",
    )  # fmt: skip
    p.add_argument("--first", metavar="CARD", help="fix the declarer's first card, e.g. CA")
    p.add_argument(
        "--model",
        choices=[m for m in model_names() if get_model(m).policy is not None],
        default="random",
        help="the play model the card-play gates prepare: random (the paper's uniform gates) "
        "or a policy model's weighted gates (small endgames on devices)",
    )
    p.add_argument(
        "--plot",
        metavar="FILE",
        help="save a histogram of the decoded outcomes (of the declarer's final points when "
        f"the shots hold more than {MOST_BARS} different outcomes)",
    )
    p.add_argument(
        "--top",
        type=int,
        default=None,
        metavar="K",
        help=f"print the K most frequent outcomes (default {TERMINAL_TOP} on a terminal, all "
        "otherwise; --json always has all)",
    )
    p.add_argument(
        "--mitigate",
        choices=MITIGATIONS,
        default="none",
        help="error detection from the game's rules (detect), readout mitigation with mthree "
        "(readout), zero-noise extrapolation by folding with mitiq (zne), or all three",
    )
    # devices: the hardware construction where it can be built (fewest two-qubit gates);
    # elsewhere paper, the narrower circuit at the paper's sizes (15 qubits for four cards)
    construction_argument(
        p, default=None, note="hardware on fake: and ibm: backends when it fits, else paper"
    )
    json_argument(p)
    force_argument(p)
    add_hardware_arguments(p)
    p.set_defaults(run=run)


def run(args) -> int:
    if args.shots < 1:
        raise QcardsError("--shots must be at least 1")
    if args.top is not None and args.top < 0:
        raise QcardsError("--top must be at least 0")
    check_hardware_arguments(args)
    if args.plot:
        figure_format(args.plot, "plot")  # before the run, not after it
    spec = load(args.spec)
    first = card_option(args.first)
    construction = args.construction or default_construction(spec, first, args)
    task = GameTask(spec, first, construction, args.model)

    def announce(size) -> None:
        if args.json:
            return
        if size is None:
            print(
                "sampling shot by shot (the exact state does not fit); the paper construction "
                "is not lowered at this size (see qcards resources)",
                file=sys.stderr,
            )
        else:
            print(
                f"transpiled: {size.two_qubit_gates} two-qubit gates, depth {size.depth}, "
                f"{size.num_qubits} qubits",
                file=sys.stderr,
            )

    extra = {}
    if args.backend.startswith(IBM_PREFIX):
        submitted = run_hardware(args, task, announce)
        if submitted is None:  # --no-wait: the job is recorded, its id printed
            return 0
        report, extra = submitted
    else:
        report = run_game(
            task, args.backend, args.shots, args.seed, announce, args.mitigate, args.force
        )
    extra["construction"] = str(task.construction)
    if task.model != "random":
        extra["model"] = task.model
    if args.plot:
        title = f"{spec.source} on {args.backend}"
        if report.points is not None and len(report.counts) > MOST_BARS:
            target = None if spec.is_null else spec.target
            save_points_histogram(
                report.points, args.plot, f"{title}: {report.shots:,} shots", target
            )
        else:
            save_histogram(report.counts, args.plot, title)
    top = args.top if args.top is not None else (TERMINAL_TOP if sys.stdout.isatty() else None)
    print_report(report, args.json, top=top, **extra)
    return 0


def default_construction(spec, first, args) -> str:
    """:data:`DEVICE_CONSTRUCTION` on device backends when the endgame is small enough for it,
    else :data:`NARROW_CONSTRUCTION`."""
    if not args.backend.startswith(DEVICE_PREFIXES):
        return NARROW_CONSTRUCTION
    try:
        build_game(spec, first, construction=DEVICE_CONSTRUCTION,
                   model=getattr(args, "model", "random"))  # fmt: skip
    except ParameterError as exc:
        if not args.json:
            print(f"note: using the {NARROW_CONSTRUCTION} construction ({exc})", file=sys.stderr)
        return NARROW_CONSTRUCTION
    return DEVICE_CONSTRUCTION


MOST_BARS = 40
"""Above this many different outcomes a plot shows the declarer's points instead."""

TERMINAL_TOP = 20
"""Outcomes printed on a terminal unless ``--top`` says otherwise."""


def print_report(report, as_json: bool, top: int | None = None, **extra) -> None:
    """Decoded counts (the ``top`` most frequent, all if None) and p_win (``extra`` fields go
    into the JSON only)."""
    if as_json:
        print_json({**extra, **report.to_json()})
        return
    rows = list(report.counts.items())
    if top is not None and len(rows) > top:
        shown = sorted(rows, key=lambda row: -row[1])[:top]
        print_table(["outcome", "count"], shown)
        print(f"... {len(rows) - top:,} more outcomes not shown (--top K, or --json for all)")
    else:
        print_table(["outcome", "count"], rows)
    print(f"p_win {report.p_win:.4f} from {report.shots} shots on {report.backend}")
    if report.sampling == "ideal shots":
        low, high = report.ci
        print(
            f"sampled shot by shot as an ideal device would (the exact state does not fit): "
            f"95% interval [{low:.4f}, {high:.4f}]"
        )
    if report.mitigation != "none":
        low, high = report.ci
        print(
            f"mitigation {report.mitigation}: raw p_win {report.p_win_raw:.4f}, "
            f"95% interval [{low:.4f}, {high:.4f}], kept {report.kept_fraction:.1%} of the shots"
        )
    zne = report.extrapolation
    if zne is not None:
        scales = ", ".join(f"{s:g}" for s in zne["used"]) or "none"
        kept = ", ".join(f"{k:.0f}" for k in zne["kept_shots"])
        verdict = "extrapolated" if zne["extrapolated"] else "too few kept shots: not extrapolated"
        print(f"zne: scales used {scales} (kept shots per scale {kept}); {verdict}")
        if zne.get("dropped"):
            print(
                f"zne: the fit gave {zne['p_win_extrapolated']:.4f} but is left out, since "
                f"{zne['reason']}; p_win is the unextrapolated estimate"
            )
